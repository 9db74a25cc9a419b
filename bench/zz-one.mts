import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../src/text/normalize';
import { loadCatalog } from './lib/catalog';
import { openFileIndex } from '../test/support/file-index';
import { parseEvidence } from './lib/evidence';
import { readJsonl } from './lib/jsonl';
const dir = process.argv[2]!; const id = process.argv[3]!; const mode = process.argv[4] ?? 'research';
const SHARED = '/work/shared';
const fb = readJsonl<any>(join(SHARED, 'bench/financebench-dev.jsonl')).map((r: any) => ({ ...r, gold: r.evidence.map((e: any) => ({ docId: e.doc_id, pages: [e.page] })) }));
const ho = readJsonl<any>('bench/dev-2/questions.jsonl').map((r: any) => ({ ...r, gold: r.gold.map((g: any) => ({ docId: g.doc_id, pages: [g.page, ...(g.alt_pages ?? [])] })) }));
const q = [...fb, ...ho].find((x) => x.id === id)!;
const reader = openFileIndex(dir);
const docOf = new Map(loadCatalog(dir).catalog.sources.map((s) => [s.id, s.doc_id]));
console.log(q.question); console.log('GOLD', JSON.stringify(q.gold));
for (const cap of [4000, null]) {
  const req = ResearchRequest.parse({ query: q.question, mode, effort: 'medium', ...(cap ? { retrieval: { max_evidence_tokens: cap } } : {}) });
  const { body, trace } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  const entries = parseEvidence(body.evidence);
  console.log(`--- cap ${cap}: ${entries.length} entries, evidence chars ${body.evidence?.length}, shards ${trace.searchedShards.join(',')}`);
  if (process.env.BODY) console.log(JSON.stringify(body, null, 1).slice(0, 20000));
  for (const e of entries) {
    const g = e.occurrences.some((o) => q.gold.some((gg: any) => gg.docId === docOf.get(o.sourceId) && gg.pages.includes(o.page)));
    console.log(`${g ? '**' : '  '} c${e.chain} ${e.occurrences.map((o) => `${o.sourceId}p${o.page}`).join(' ')} | ${e.text.slice(0, 110)}`);
  }
}
