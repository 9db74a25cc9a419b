/**
 * Quick in-process answer-support eval on the docugami 10-Q dev set (no Worker, no baseline), the rule of
 * bench/run.ts runDocugami: answer support of the returned evidence for the answer without its "SOURCE(S):" trailer.
 * For iterating on 10-Q ranking; `npm run bench` remains the reference (it adds the page-BM25 baseline).
 *
 *   npx tsx bench/quick-eval-10q.ts <index version dir> [mode/effort ...]   (default research/medium)
 *   QE_CAP=none|<tokens>  token cap (default 4000)
 * The mean support fraction (share of the answer's numbers or key terms found) moves before the all-or-nothing
 * support does, so it is printed too.
 *   QE_VERBOSE=1  per-question outcome: S/. , type, support rule and fraction, estimated tokens, the filings the
 *                 evidence came from (* = a filing the answer cites), and the cited filings.
 *   QE_HALF=tuning|check  only questions about one half of bench/split.json's companies.
 *   QE_ONLY=<substring>  only questions whose id or type contains it.
 */
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { loadCatalog } from './lib/catalog';
import { openFileIndex } from '../test/support/file-index';
import { parseEvidence } from './lib/evidence';
import { readJsonl } from './lib/jsonl';
import { answerSupport, docugamiAnswer } from './lib/score';
import { halfFromEnv, loadSplit } from './lib/split';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx bench/quick-eval-10q.ts <index version dir> [mode/effort ...]');
const configs = process.argv.slice(3).length ? process.argv.slice(3) : ['research/medium'];
const capEnv = process.env.QE_CAP ?? '4000';
const cap = capEnv === 'none' ? null : Number(capEnv);
const verbose = !!process.env.QE_VERBOSE;
const only = process.env.QE_ONLY;
const half = halfFromEnv();
const { halfOfDoc } = loadSplit(ROOT, SHARED);

interface Row {
  id: string;
  question: string;
  answer: string;
  question_type: string;
  source_doc_ids: string[];
  cited_doc_ids: string[];
}
const rows = readJsonl<Row>(join(SHARED, 'bench/docugami-10q-dev.jsonl'))
  .filter((r) => !only || r.id.includes(only) || r.question_type.includes(only))
  .filter((r) => !half || halfOfDoc(r.source_doc_ids[0]!) === half);
const answerOf = (r: Row) => docugamiAnswer(r.answer);

const reader = openFileIndex(dir);
const docOf = new Map(loadCatalog(dir).catalog.sources.map((s) => [s.id, s.doc_id]));

for (const c of configs) {
  const [mode, effort] = c.split('/');
  const byType: Record<string, [number, number]> = {};
  let sup = 0;
  let frac = 0;
  let tokens = 0;
  let ms = 0;
  const lines: string[] = [];
  for (const r of rows) {
    const req = ResearchRequest.parse({ query: r.question, mode, effort, retrieval: { max_evidence_tokens: cap } });
    const t0 = performance.now();
    const { body } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
    ms += performance.now() - t0;
    const entries = parseEvidence(body.evidence);
    const res = answerSupport({ answer: answerOf(r), question: r.question }, entries.map((e) => e.text).join('\n'));
    const used = (body.evidence_budget as { estimated_tokens?: number } | undefined)?.estimated_tokens ?? 0;
    tokens += used;
    sup += res.supported ? 1 : 0;
    frac += res.fraction;
    const t = (byType[r.question_type] ??= [0, 0]);
    t[0] += res.supported ? 1 : 0;
    t[1]++;
    if (verbose) {
      const docs = new Map<string, number>();
      for (const e of entries)
        for (const d of new Set(e.occurrences.map((o) => docOf.get(o.sourceId)!))) docs.set(d, (docs.get(d) ?? 0) + 1);
      const cited = new Set(r.cited_doc_ids);
      const got = [...docs].map(([d, n]) => `${cited.has(d) ? '*' : ''}${d}:${n}`).join(' ');
      lines.push(
        `${res.supported ? 'S' : '.'} ${r.id} [${r.question_type.replace(/ RAG$/, '')}] ${res.by} ` +
          `${res.fraction.toFixed(2)} tok=${used}\n    Q: ${r.question}\n    got: ${got}\n    cited: ` +
          `${r.cited_doc_ids.join(' ')}`,
      );
    }
  }
  if (verbose) console.log(lines.join('\n'));
  const pct = (a: number, n: number) => `${((100 * a) / n).toFixed(1)}%`;
  console.log(
    `docugami ${c} cap=${cap ?? 'none'} support ${pct(sup, rows.length)} (${sup}/${rows.length}; mean ` +
      `fraction ${(frac / rows.length).toFixed(3)}; mean ${(tokens / rows.length).toFixed(0)} tokens, ` +
      `${(ms / rows.length).toFixed(0)} ms)  ` +
      Object.entries(byType)
        .sort()
        .map(([k, [a, n]]) => `${k.replace(/ RAG$/, '')} ${a}/${n}`)
        .join(', '),
  );
}
