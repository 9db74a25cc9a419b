/**
 * Quick in-process retrieval eval (no Worker, no baseline): gold-page hit and answer support of runQuery over
 * FinanceBench dev and dev-2 (the project's own set, once called the hold-out), on a built index directory. For
 * iterating on ranking; `npm run bench` remains the reference (it adds the baseline, latency and HNSW graphs).
 *
 *   npx tsx bench/quick-eval.ts <index version dir> [mode/effort ...]   (default research/medium basic/medium)
 *   QE_HALF=tuning|check keeps the questions about one half of bench/split.json's companies.
 *   QE_VERBOSE=1 prints per-question outcomes; QE_BY_TYPE=1 prints gold-page hit per question group (FinanceBench's
 *   question_type, the answer's form: numeric or descriptive; dev-2's kind; every question's shape from its analysis).
 */
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { loadCatalog } from './lib/catalog';
import { openFileIndex } from '../test/support/file-index';
import { parseEvidence } from './lib/evidence';
import { readJsonl } from './lib/jsonl';
import { answerSupport } from './lib/score';
import { halfFromEnv, loadSplit } from './lib/split';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx bench/quick-eval.ts <index version dir> [mode/effort ...]');
const configs = process.argv.slice(3).length ? process.argv.slice(3) : ['research/medium', 'basic/medium'];

interface Q {
  id: string;
  question: string;
  answer: string;
  justification: string | null;
  gold: { docId: string; pages: number[] }[];
  groups: string[];
}
const answerForm = (answer: string) => `answer: ${/\d/.test(answer) ? 'numeric' : 'descriptive'}`;
const fb: Q[] = readJsonl<{
  id: string;
  question: string;
  question_type: string;
  answer: string;
  justification: string | null;
  evidence: { doc_id: string; page: number }[];
}>(join(SHARED, 'bench/financebench-dev.jsonl')).map((r) => ({
  ...r,
  gold: r.evidence.map((e) => ({ docId: e.doc_id, pages: [e.page] })),
  groups: [`type: ${r.question_type}`, answerForm(r.answer)],
}));
const ho: Q[] = readJsonl<{
  id: string;
  kind: string;
  question: string;
  answer: string;
  inputs?: string;
  gold: { doc_id: string; page: number; alt_pages?: number[] }[];
}>(join(ROOT, 'bench/dev-2/questions.jsonl')).map((r) => ({
  ...r,
  justification: r.inputs ?? null,
  gold: r.gold.map((g) => ({ docId: g.doc_id, pages: [g.page, ...(g.alt_pages ?? [])] })),
  groups: [`kind: ${r.kind}`],
}));

const half = halfFromEnv();
const { halfOfDoc } = loadSplit(ROOT, SHARED);
const inHalf = (q: Q) => !half || halfOfDoc(q.gold[0]!.docId) === half;
const reader = openFileIndex(dir);
const docOf = new Map(loadCatalog(dir).catalog.sources.map((s) => [s.id, s.doc_id]));
const verbose = !!process.env.QE_VERBOSE;

async function evalSet(label: string, qs: Q[], mode: string, effort: string, cap: number | null) {
  let hit = 0;
  let sup = 0;
  let ms = 0;
  const byGroup = new Map<string, { n: number; hit: number }>();
  let shards = 0;
  const lines: string[] = [];
  for (const q of qs) {
    const req = ResearchRequest.parse({
      query: q.question,
      mode,
      effort,
      ...(cap ? { retrieval: { max_evidence_tokens: cap } } : {}),
    });
    const t0 = performance.now();
    const { body, trace } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
    ms += performance.now() - t0;
    shards += trace.searchedShards.length;
    const entries = parseEvidence(body.evidence);
    const pages = new Set(entries.flatMap((e) => e.occurrences.map((o) => `${docOf.get(o.sourceId)}#${o.page}`)));
    const h = q.gold.some((g) => g.pages.some((p) => pages.has(`${g.docId}#${p}`)));
    const s = answerSupport(
      { answer: q.answer, justification: q.justification, question: q.question },
      entries.map((e) => e.text).join('\n'),
    ).supported;
    hit += h ? 1 : 0;
    for (const g of [...q.groups, `shape: ${trace.analysis.shape}`]) {
      const e = byGroup.get(g) ?? { n: 0, hit: 0 };
      e.n++;
      e.hit += h ? 1 : 0;
      byGroup.set(g, e);
    }
    sup += s ? 1 : 0;
    lines.push(`  ${h ? 'H' : '.'}${s ? 'S' : '.'} ${q.id} ${q.question.slice(0, 90)}`);
  }
  const pct = (n: number) => ((100 * n) / qs.length).toFixed(1).padStart(5);
  console.log(
    `${label.padEnd(9)} ${`${mode}/${effort}`.padEnd(16)} cap=${String(cap ?? 'none').padEnd(5)} hit ` +
      `${pct(hit)}%  support ${pct(sup)}%  (n=${qs.length}, mean ${(ms / qs.length).toFixed(0)} ms, ` +
      `${(shards / qs.length).toFixed(1)} shards)`,
  );
  if (verbose) console.log(lines.join('\n'));
  if (process.env.QE_BY_TYPE)
    for (const [g, e] of [...byGroup].sort()) console.log(`    ${g.padEnd(34)} hit ${e.hit}/${e.n}`);
}

for (const c of configs) {
  const [mode, effort] = c.split('/');
  for (const cap of [4000, null]) {
    await evalSet('fb-dev', fb.filter(inHalf), mode!, effort!, cap);
    await evalSet('dev-2', ho.filter(inHalf), mode!, effort!, cap);
  }
}
