/**
 * Judges a change by the keep rule (bench/lib/judge.ts): every dev question in-process (the questions and modes of
 * the halves of `npm run bench`), before and after, then each set's score before -> after per half and mode and the
 * verdict as a ranking change and as a fix of what the index holds. Needs ../shared (or SHARED_DIR).
 *
 *   A builder change (its embedding model held fixed):  npm run bench:judge -- <before version dir> <after version dir>
 *   A ranking change (same index, code differs):         BENCH_JUDGE_SAVE=before.json npm run bench:judge -- <dir>
 *                                                        with the change stashed, then with it applied:
 *                                                        BENCH_JUDGE_BEFORE=before.json npm run bench:judge -- <dir>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openFileIndex } from '../test/support/file-index';
import { filingKeys, type CorpusDoc } from './lib/answer-gold';
import { loadCatalog } from './lib/catalog';
import { PageStore, readPages } from './lib/corpus-pages';
import {
  askHalves,
  readDevQuestions,
  readOutsideCheck,
  summarizeHalves,
  type DevQuestion,
  type HalvesSummary,
} from './lib/halves';
import { readJsonl } from './lib/jsonl';
import { judgeChange, renderVerdict } from './lib/judge';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const USAGE = `usage: npm run bench:judge -- <before version dir> <after version dir>
       BENCH_JUDGE_SAVE=<file> | BENCH_JUDGE_BEFORE=<file> npm run bench:judge -- <version dir>   (see bench/judge.ts)`;

/** The dev questions with their answer gold (from the corpus pages) and outside-check, read once. */
async function readQuestions(): Promise<{ questions: DevQuestion[]; filingOf: Map<string, string> }> {
  const pages = new PageStore(await readPages(join(SHARED, 'corpus/filings/pages.jsonl.gz')));
  const filingOf = filingKeys(readJsonl<CorpusDoc>(join(SHARED, 'corpus/filings/documents.jsonl')));
  return { questions: [...readDevQuestions(ROOT, SHARED, pages), ...readOutsideCheck(SHARED)], filingOf };
}

async function halvesOf(dir: string, read: Awaited<ReturnType<typeof readQuestions>>): Promise<HalvesSummary> {
  const { questions, filingOf } = read;
  const log = (s: string) => console.error(s);
  const outcomes = await askHalves(openFileIndex(dir), loadCatalog(dir), questions, filingOf, log);
  return summarizeHalves(questions, outcomes);
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  const { BENCH_JUDGE_BEFORE: saved, BENCH_JUDGE_SAVE: save } = process.env;
  if (args.length < 1 || args.length > 2 || (args.length === 1 && !saved && !save) || (args.length === 2 && saved)) {
    console.error(USAGE);
    return 2;
  }
  const [first, second] = args.map((a) => resolve(a));
  const read = await readQuestions();
  let before: HalvesSummary | null = null;
  if (saved) before = JSON.parse(readFileSync(saved, 'utf8')) as HalvesSummary;
  else if (second) {
    console.error(`before: ${first} ...`);
    before = await halvesOf(first!, read);
  }
  console.error(`after: ${second ?? first} ...`);
  const after = await halvesOf(second ?? first!, read);
  if (save) {
    writeFileSync(save, `${JSON.stringify(after)}\n`);
    console.error(`saved the run to ${save}`);
  }
  if (before) console.log(renderVerdict(judgeChange(before, after)));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
