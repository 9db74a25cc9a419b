/**
 * Passage-level check on FinanceRAG's FinQABench task (../shared/bench/finqabench): questions about Apple's fiscal
 * 2022 10-K and its exhibits, 30 of them judged against one passage each. The question is asked as a caller who
 * knows the document would ask it (filters sec_ticker AAPL and fiscal year 2022; in-process, medium, 4,000 tokens).
 * An entry is from the judged passage when at least 90% of its terms (figures included, period and unit words not)
 * are terms of the passage and it has at least six. Reports, per mode, the questions with such an entry anywhere and
 * in the first chain, and as a control of the matching rule, the questions with an entry "from" the judged passage of
 * the next question instead (a different passage: how often the rule matches by chance).
 *
 *   npx tsx bench/finqabench-passages.ts <index version dir> [mode ...]   (default research basic; FQ_VERBOSE=1 per query)
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../src/text/normalize';
import { tokenize } from '../src/text/tokenize';
import { openFileIndex } from '../test/support/file-index';
import { parseEvidence } from './lib/evidence';
import { readJsonl } from './lib/jsonl';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx bench/finqabench-passages.ts <index version dir> [mode ...]');
const modes = process.argv.slice(3).length ? process.argv.slice(3) : ['research', 'basic'];
const base = join(SHARED, 'bench/finqabench');

const passages = new Map(readJsonl<{ _id: string; text: string }>(join(base, 'corpus.jsonl')).map((p) => [p._id, new Set(tokenize(p.text))]));
const questions = new Map(readJsonl<{ _id: string; text: string }>(join(base, 'queries.jsonl')).map((q) => [q._id, q.text]));
const judged = readFileSync(join(base, 'qrels.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map(([query, passage]) => ({ id: query!, question: questions.get(query!)!, passage: passages.get(passage!)! }))
  .filter((q) => q.question && q.passage);

// Words the renderer adds to a table row ("for FY2022", "(USD millions)") that the passage prints differently.
const RENDERED = /^(?:fy\d{4}|usd|million|billion|thousand|%)$/;
function fromPassage(text: string, passage: ReadonlySet<string>): boolean {
  const terms = tokenize(text).filter((t) => !RENDERED.test(t));
  if (terms.length < 6) return false;
  return terms.filter((t) => passage.has(t)).length / terms.length >= 0.9;
}

const reader = openFileIndex(dir);
for (const mode of modes) {
  let anywhere = 0;
  let first = 0;
  let control = 0;
  for (const [k, q] of judged.entries()) {
    const req = ResearchRequest.parse({
      query: q.question,
      mode,
      effort: 'medium',
      retrieval: { max_evidence_tokens: 4000 },
      ...(mode === 'basic' ? {} : { metadata_filters: { sec_ticker: { eq: 'AAPL' }, sec_fiscal_year: { eq: 'FY-2022' } } }),
    });
    const { body } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
    const all = parseEvidence(body.evidence);
    const entries = all.filter((e) => fromPassage(e.text, q.passage));
    const other = judged[(k + 1) % judged.length]!.passage;
    control += other !== q.passage && all.some((e) => fromPassage(e.text, other)) ? 1 : 0;
    anywhere += entries.length ? 1 : 0;
    first += entries.some((e) => e.chain === 0) ? 1 : 0;
    if (process.env.FQ_VERBOSE) console.log(`  ${entries.length ? 'P' : '.'}${entries.some((e) => e.chain === 0) ? 'F' : '.'} ${q.id} | ${q.question.slice(0, 100)}`);
  }
  const n = judged.length;
  console.log(`finqabench ${mode}/medium cap=4000 (n=${n} judged questions): judged passage cited ${anywhere}/${n}, in the first chain ${first}/${n}; control (another question's passage) ${control}/${n}`);
}
