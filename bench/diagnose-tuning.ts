/**
 * Tuning-half diagnosis: every dev question of the tuning half asked in-process (medium effort, 4,000 tokens) with
 * its scores (bench/lib/halves.ts scoreEntries) and the page-BM25 baseline's answer key; for a miss, the answer,
 * the key figures and terms the evidence lacks, the filters applied and the first entries with their sources. The
 * check half and outside-check are never read (evaluation hygiene: choose a change on the tuning half only).
 *   npx tsx bench/diagnose-tuning.ts <index version dir> [basic|research|agentic_research] [tokens|none] [--gold-rank]
 * The last line, TOTAL, is the tuning figure changes are compared by: every set's gold-page hits, answer support,
 * answer key and answering passage summed.
 * The optional cap (default 4,000; `none` uncapped) shows what the budget leaves out: the chains asked uncapped hold
 * what a larger budget could return (docs/EXPERIMENTS.md "What the budget leaves out"); page-BM25 keeps 4,000 uncapped.
 * --gold-rank: for a capped question that misses its gold page, where the page's chain ranks when asked uncapped,
 * against the last chain that fit (a ranking miss near the cut, or a page retrieval never found).
 */
import { join, resolve } from 'node:path';
import { openFileIndex } from '../test/support/file-index';
import { filingKeys, type CorpusDoc } from './lib/answer-gold';
import { PageBm25Baseline } from './lib/baseline';
import { answerKey, figuresIn, normalizeFigure, termText } from './lib/answer-metrics';
import { askInProcess } from './lib/ask';
import { loadCatalog } from './lib/catalog';
import { PageStore, readPages } from './lib/corpus-pages';
import { occurrencePage, readDevQuestions, scoreEntries } from './lib/halves';
import { readJsonl } from './lib/jsonl';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));

async function main() {
  const args = process.argv.slice(2);
  const goldRank = args.includes('--gold-rank');
  const [dir, mode = 'basic', capArg = '4000'] = args.filter((a) => a !== '--gold-rank');
  const cap = capArg === 'none' ? null : Number(capArg);
  if (cap !== null && !(Number.isInteger(cap) && cap > 0)) throw new Error(`cap: tokens or none, not ${capArg}`);
  const pageList = await readPages(join(SHARED, 'corpus/filings/pages.jsonl.gz'));
  const pages = new PageStore(pageList);
  const docs = readJsonl<CorpusDoc>(join(SHARED, 'corpus/filings/documents.jsonl'));
  const filingOf = filingKeys(docs);
  const qs = readDevQuestions(ROOT, SHARED, pages).filter((q) => q.half === 'tuning');
  const reader = openFileIndex(resolve(dir!));
  const cat = loadCatalog(resolve(dir!));
  const base = new PageBm25Baseline(pageList, cat.catalog);
  const tally = new Map<string, number>();
  const count = (k: string, v: boolean | null) => {
    if (v === null) return;
    tally.set(`${k} n`, (tally.get(`${k} n`) ?? 0) + 1);
    if (v) tally.set(`${k} k`, (tally.get(`${k} k`) ?? 0) + 1);
  };
  for (const q of qs) {
    const r = await askInProcess(reader, { query: q.question, mode, cap });
    const text = r.entries.map((e) => e.text).join('\n');
    const { key, passage, hit, support } = scoreEntries(q, r.entries, cat, filingOf);
    const baseHits = base.query(q.question, cap ?? 4000, base.conditionsFor(q.question));
    const baseKey = q.answerGold.key && answerKey(q.answerGold.key, baseHits.map((h) => h.text).join('\n'));
    count(`${q.set} key`, key);
    count(`${q.set} baseline key`, baseKey);
    count(`${q.set} passage`, passage);
    count(`${q.set} hit`, hit);
    count(`${q.set} support`, support);
    // A hit that only an entry's agreeing filing makes (no entry's own source is on a gold page): what citing fewer
    // agreeing filings to make room would lose (docs/EXPERIMENTS.md "The budget's room and the question's words").
    if (hit) {
      const own = new Set(r.entries.map((e) => occurrencePage(cat, e.occurrences[0]!)));
      count(`${q.set} hit only through an agreeing filing`, !q.goldPages.some((p) => own.has(p)));
    }
    const status = `key=${key} passage=${passage} hit=${hit} support=${support} baseKey=${baseKey}`;
    console.log(`\n=== ${q.set} ${q.id} [${q.company}] ${q.types.join(',')} ${status}`);
    console.log(`Q: ${q.question}`);
    if (key === false || passage === false || hit === false) {
      console.log(`A: ${q.answer.slice(0, 300)}`);
      const figs = figuresIn(text);
      const tt = termText(text);
      const k = q.answerGold.key!;
      if (k) {
        console.log(`missing figures: ${k.figures.filter((f) => !figs.has(normalizeFigure(f))).join(' | ')}`);
        console.log(`missing terms: ${k.terms.filter((t) => !tt.includes(termText(t))).join(' | ')}`);
      }
      console.log(
        `gold pages: ${q.goldPages.join(' ')}; ` +
          `gold filings: ${[...new Set(q.answerGold.passages.map((p) => p.filing))].join(' ')}`,
      );
      console.log(`filters: ${JSON.stringify(r.body.summary?.applied_metadata_filters ?? null)}`);
      if (goldRank && hit === false && cap !== null) {
        const full = await askInProcess(reader, { query: q.question, mode, cap: null });
        const onGold = (e: (typeof full.entries)[number]) =>
          e.occurrences.some((o) => q.goldPages.includes(occurrencePage(cat, o)));
        const gold = full.entries.find(onGold)?.chain;
        const last = r.trace.explain.at(-1)?.score.toFixed(2) ?? '-';
        console.log(
          gold === undefined
            ? 'gold rank: no chain of the uncapped response holds a gold page'
            : `gold rank: chain ${gold + 1} of ${full.trace.explain.length} uncapped, score ` +
                `${full.trace.explain[gold]?.score.toFixed(2) ?? '-'}; ${r.trace.explain.length} fit, the last ${last}`,
        );
      }
      r.entries.slice(0, 8).forEach((e, i) => {
        const src = e.occurrences.map((o) => `${o.sourceId}p${o.page}`).join(',');
        console.log(`  #${i} ${src}: ${e.text.replace(/\s+/g, ' ').slice(0, 220)}`);
      });
    }
  }
  const names = [...new Set([...tally.keys()].map((k) => k.slice(0, -2)))].sort();
  console.log(
    `\nSUMMARY ${mode}: ${names.map((k) => `${k} ${tally.get(`${k} k`) ?? 0}/${tally.get(`${k} n`)}`).join('; ')}`,
  );
  // The tuning figure docs/EXPERIMENTS.md compares changes by: every set's hits, support, key and passage summed.
  const summed = names.filter((k) => /^\S+ (?:key|passage|hit|support)$/.test(k));
  console.log(`TOTAL ${mode}: ${summed.reduce((t, k) => t + (tally.get(`${k} k`) ?? 0), 0)}`);
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
