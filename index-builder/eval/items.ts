#!/usr/bin/env node
/**
 * npm run eval:items — item-segmentation agreement with the real EDGAR item splits in
 * ../shared/corpus/edgar-items (EDGAR_ITEMS overrides): per filing, the reference items are joined in Form 10-K order,
 * segmented by index-builder/segment/segment.ts, and every non-space character is checked against the reference item.
 * Prints overall and per-item agreement; `--json` prints the figures as JSON.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readJsonLines } from '../segment/read-corpus';
import { sharedDir } from '../shared-dir';
import { measureItemAgreement, mergeAgreement, type ItemAgreement, type ReferenceItem } from './item-agreement';

export async function evalItems(
  dir: string,
  options: { toc?: boolean } = {},
): Promise<{ overall: ItemAgreement; filings: number; worst: { doc: string; pct: number }[] }> {
  const byDoc = new Map<string, ReferenceItem[]>();
  for await (const row of readJsonLines(join(dir, 'items.jsonl.gz'))) {
    const r = row as { doc_id: string; item_tag: string; text: string };
    const list = byDoc.get(r.doc_id) ?? [];
    list.push({ itemTag: r.item_tag, text: r.text });
    byDoc.set(r.doc_id, list);
  }
  const overall: ItemAgreement = { chars: 0, correct: 0, perItem: new Map() };
  const perDoc: { doc: string; pct: number }[] = [];
  for (const [doc, items] of [...byDoc].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const a = measureItemAgreement(items, options);
    perDoc.push({ doc, pct: (100 * a.correct) / Math.max(1, a.chars) });
    mergeAgreement(overall, a);
  }
  return { overall, filings: byDoc.size, worst: perDoc.sort((a, b) => a.pct - b.pct).slice(0, 8) };
}

async function main() {
  const dir = resolve(process.env.EDGAR_ITEMS ?? join(sharedDir() ?? '../shared', 'corpus/edgar-items'));
  if (!existsSync(join(dir, 'items.jsonl.gz'))) {
    console.error(`no items.jsonl.gz in ${dir} (set EDGAR_ITEMS): nothing to measure`);
    process.exitCode = 2;
    return;
  }
  const { overall, filings, worst } = await evalItems(dir);
  const withToc = await evalItems(dir, { toc: true });
  const pct = (c: number, n: number) => ((100 * c) / Math.max(1, n)).toFixed(1);
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify(
        {
          filings,
          chars: overall.chars,
          agreement_pct: Number(pct(overall.correct, overall.chars)),
          agreement_with_toc_pct: Number(pct(withToc.overall.correct, withToc.overall.chars)),
          per_item: Object.fromEntries([...overall.perItem].map(([t, v]) => [t, Number(pct(v.correct, v.chars))])),
        },
        null,
        2,
      ),
    );
    return;
  }
  console.log(`item segmentation vs ${dir}: ${filings} filings, ${overall.chars} characters`);
  console.log(`overall: ${pct(overall.correct, overall.chars)}% of characters in the right item`);
  console.log(
    `with a table of contents of the items' headings in front: ${pct(withToc.overall.correct, withToc.overall.chars)}%`,
  );
  const order = [...overall.perItem.keys()].sort((a, b) => {
    const n = (t: string) => {
      const m = /Item-(\d+)([A-C]?)/.exec(t)!;
      return Number(m[1]) * 10 + (m[2] ? m[2].charCodeAt(0) - 64 : 0);
    };
    return n(a) - n(b);
  });
  console.log('| item | characters | in the right item |\n|---|---|---|');
  for (const t of order) {
    const v = overall.perItem.get(t)!;
    console.log(`| ${t} | ${v.chars} | ${pct(v.correct, v.chars)}% |`);
  }
  console.log(`worst filings: ${worst.map((w) => `${w.doc} ${w.pct.toFixed(1)}%`).join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`)
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
