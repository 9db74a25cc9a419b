#!/usr/bin/env node
/**
 * npm run eval:items10q — 10-Q item-segmentation agreement with the hand labels in tenq-labels.jsonl (how they were
 * made: tenq-labels.md). Reads the labelled filings' pages from ../shared/corpus/filings (FILINGS_DIR overrides),
 * segments them with index-builder/segment/segment.ts and prints, per filing and overall, the share of characters in
 * the labelled item and heading precision/recall. `--json` prints the figures as JSON; `-v` lists missed/spurious
 * starts.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readJsonLines } from '../segment/read-corpus';
import { sharedDir } from '../shared-dir';
import { scoreTenQ, type TenQLabel, type TenQScore } from './tenq-agreement';

export const TENQ_LABELS = resolve(import.meta.dirname, '../../fixtures/eval-labels/tenq-labels.jsonl');

export async function readTenQLabels(path = TENQ_LABELS): Promise<Map<string, TenQLabel[]>> {
  const byDoc = new Map<string, TenQLabel[]>();
  for await (const row of readJsonLines(path)) {
    const r = row as { doc_id: string; page?: number; line?: number; tag?: string };
    const list = byDoc.get(r.doc_id) ?? [];
    if (r.tag !== undefined) list.push({ page: r.page!, line: r.line!, tag: r.tag });
    byDoc.set(r.doc_id, list);
  }
  return byDoc;
}

export interface TenQEval {
  filings: { doc: string; score: TenQScore }[];
  total: TenQScore;
}

export async function evalItems10Q(filingsDir: string): Promise<TenQEval> {
  const labels = await readTenQLabels();
  const pages = new Map<string, string[]>();
  for await (const row of readJsonLines(join(filingsDir, 'pages.jsonl.gz'))) {
    const r = row as { doc_id: string; page: number; text: string };
    if (!labels.has(r.doc_id)) continue;
    const list = pages.get(r.doc_id) ?? [];
    list[r.page] = r.text;
    pages.set(r.doc_id, list);
  }
  const total: TenQScore = {
    chars: 0,
    correct: 0,
    afterEnd: 0,
    afterEndUnassigned: 0,
    labelled: 0,
    predicted: 0,
    matched: 0,
    missed: [],
    spurious: [],
    perItem: new Map(),
  };
  const filings: TenQEval['filings'] = [];
  for (const [doc, docLabels] of labels) {
    const p = pages.get(doc);
    if (!p) throw new Error(`${doc}: labelled but not in ${filingsDir}`);
    const score = scoreTenQ(
      Array.from(p, (t) => t ?? ''),
      docLabels,
    );
    filings.push({ doc, score });
    for (const k of ['chars', 'correct', 'afterEnd', 'afterEndUnassigned', 'labelled', 'predicted', 'matched'] as const)
      total[k] += score[k];
    for (const [tag, v] of score.perItem) {
      const per = total.perItem.get(tag) ?? { chars: 0, correct: 0 };
      per.chars += v.chars;
      per.correct += v.correct;
      total.perItem.set(tag, per);
    }
  }
  return { filings, total };
}

const pct = (c: number, n: number) => Number(((100 * c) / Math.max(1, n)).toFixed(1));

async function main() {
  const dir = resolve(process.env.FILINGS_DIR ?? join(sharedDir() ?? '../shared', 'corpus/filings'));
  if (!existsSync(join(dir, 'pages.jsonl.gz'))) {
    console.error(`no pages.jsonl.gz in ${dir} (set FILINGS_DIR): nothing to measure`);
    process.exitCode = 2;
    return;
  }
  const { filings, total } = await evalItems10Q(dir);
  const figures = {
    filings: filings.length,
    chars: total.chars,
    agreement_pct: pct(total.correct, total.chars),
    heading_precision_pct: pct(total.matched, total.predicted),
    heading_recall_pct: pct(total.matched, total.labelled),
    after_end_unassigned_pct: pct(total.afterEndUnassigned, total.afterEnd),
  };
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify(
        {
          ...figures,
          per_filing: Object.fromEntries(filings.map((f) => [f.doc, pct(f.score.correct, f.score.chars)])),
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(
    `10-Q item segmentation vs hand labels (${filings.length} filings, ${total.chars} characters from the ` +
      `first labelled item to the signatures)`,
  );
  console.log(
    `overall: ${figures.agreement_pct}% of characters in the labelled item; headings: precision ` +
      `${figures.heading_precision_pct}% (${total.matched}/${total.predicted}), recall ` +
      `${figures.heading_recall_pct}% (${total.matched}/${total.labelled})`,
  );
  console.log(
    `after the signatures (certifications, appended exhibits; kept in Part II Item 6 by decision, not ` +
      `scored): ${total.afterEnd} characters, ${figures.after_end_unassigned_pct}% left out of every item`,
  );
  console.log(
    '| filing | characters | in the labelled item | headings found | spurious starts |\n|---|---|---|---|---|',
  );
  for (const { doc, score } of filings) {
    console.log(
      `| ${doc} | ${score.chars} | ${pct(score.correct, score.chars)}% | ${score.matched}/${score.labelled} ` +
        `| ${score.spurious.length} |`,
    );
    if (process.argv.includes('-v')) {
      if (score.missed.length) console.log(`    missed: ${score.missed.join(', ')}`);
      if (score.spurious.length)
        console.log(
          `    spurious: ${score.spurious.slice(0, 12).join(', ')}${score.spurious.length > 12 ? ', ...' : ''}`,
        );
    }
  }
  console.log('| item | characters | in the labelled item |\n|---|---|---|');
  for (const [tag, v] of [...total.perItem].sort())
    console.log(`| ${tag} | ${v.chars} | ${pct(v.correct, v.chars)}% |`);
}

if (import.meta.url === `file://${process.argv[1]}`)
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
