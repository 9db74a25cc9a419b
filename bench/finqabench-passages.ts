/**
 * Passage-level check on FinanceRAG's FinQABench task (../shared/bench/finqabench): questions about Apple's fiscal
 * 2022 10-K and its exhibits, 30 of them judged against one passage each. The question is asked as a caller who
 * knows the document would ask it (filters sec_ticker AAPL and fiscal year 2022; basic mode takes none), in-process,
 * medium, 4,000 tokens. An entry comes from a passage by npm run bench's rule (bench/lib/score.ts mappedPassages: the
 * passages holding most of its tokens, at least 80% of them). Reports, per mode, the questions with an entry from
 * the judged passage anywhere and in the first chain, and as a control of the rule, the questions with an entry
 * from the judged passage of the next question instead (another passage: how often the rule matches by chance).
 * npm run bench reports nDCG@10 of the uncapped research response; this is the capped response, in every mode.
 *
 *   npx tsx bench/finqabench-passages.ts <index version dir> [mode ...]   (default research basic; FQ_VERBOSE=1 per
 *   query)
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openFileIndex } from '../test/support/file-index';
import { askInProcess } from './lib/ask';
import { readJsonl } from './lib/jsonl';
import { mappedPassages, toPassage } from './lib/score';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx bench/finqabench-passages.ts <index version dir> [mode ...]');
const modes = process.argv.slice(3).length ? process.argv.slice(3) : ['research', 'basic'];
const base = join(SHARED, 'bench/finqabench');

const corpus = readJsonl<{ _id: string; text: string }>(join(base, 'corpus.jsonl')).map((p) =>
  toPassage(p._id, p.text),
);
const known = new Set(corpus.map((p) => p.id));
const questions = new Map(
  readJsonl<{ _id: string; text: string }>(join(base, 'queries.jsonl')).map((q) => [q._id, q.text]),
);
const judged = readFileSync(join(base, 'qrels.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map(([query, passage]) => ({ id: query!, question: questions.get(query!)!, passage: passage! }))
  .filter((q) => q.question && known.has(q.passage));

const reader = openFileIndex(dir);
for (const mode of modes) {
  let anywhere = 0;
  let first = 0;
  let control = 0;
  for (const [k, q] of judged.entries()) {
    // Basic mode accepts no filters (spec): it is asked the question alone.
    const filters = mode === 'basic' ? undefined : { sec_ticker: { eq: 'AAPL' }, sec_fiscal_year: { eq: 'FY-2022' } };
    const { entries: returned } = await askInProcess(reader, {
      query: q.question,
      mode,
      cap: 4000,
      ...(filters ? { filters } : {}),
    });
    const mapped = returned.map((e) => ({ chain: e.chain, passages: mappedPassages(e.text, corpus) }));
    const entries = mapped.filter((e) => e.passages.includes(q.passage));
    const other = judged[(k + 1) % judged.length]!.passage;
    control += other !== q.passage && mapped.some((e) => e.passages.includes(other)) ? 1 : 0;
    anywhere += entries.length ? 1 : 0;
    first += entries.some((e) => e.chain === 0) ? 1 : 0;
    if (process.env.FQ_VERBOSE)
      console.log(
        `  ${entries.length ? 'P' : '.'}${entries.some((e) => e.chain === 0) ? 'F' : '.'} ${q.id} | ` +
          `${q.question.slice(0, 100)}`,
      );
  }
  const n = judged.length;
  console.log(
    `finqabench ${mode}/medium cap=4000 (n=${n} judged questions): judged passage cited ${anywhere}/${n}, in ` +
      `the first chain ${first}/${n}; control (another question's passage) ${control}/${n}`,
  );
}
