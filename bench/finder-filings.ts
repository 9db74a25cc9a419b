/**
 * Filing-level check on FinanceRAG's FinDER queries (../shared/bench/finder-queries.jsonl): short analyst queries
 * that mostly name no period ("Oracle`s dividend payout"). Their public judgements point at passages of one 10-K,
 * ids such as `ORCL20230738` (ticker, fiscal year, passage); the passages are not in the corpus, but the 10-K is
 * for some of them. For those, it reports whether a response cites that filing at all, whether its first chain does,
 * and the mean share of entries whose own source is that filing (in-process, medium, 4,000 tokens).
 *
 *   npx tsx bench/finder-filings.ts <index version dir> [mode ...]   (default research basic; FF_VERBOSE=1 per query)
 */
import { join, resolve } from 'node:path';
import { loadCatalog } from './lib/catalog';
import { openFileIndex } from '../test/support/file-index';
import { askInProcess } from './lib/ask';
import { readJsonl } from './lib/jsonl';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx bench/finder-filings.ts <index version dir> [mode ...]');
const modes = process.argv.slice(3).length ? process.argv.slice(3) : ['research', 'basic'];

const reader = openFileIndex(dir);
const { catalog } = loadCatalog(dir);
const docOf = new Map(catalog.sources.map((s) => [s.id, s.doc_id]));
// The indexed 10-K of each ticker and fiscal year.
const tenK = new Map<string, string>();
for (const s of catalog.sources) {
  if (s.meta.sec_form_type === '10-K' && s.meta.sec_ticker && s.meta.sec_fiscal_year)
    tenK.set(`${s.meta.sec_ticker}:${s.meta.sec_fiscal_year}`, s.doc_id);
}
const judged = readJsonl<{ id: string; query: string; relevant_corpus_ids: string[] }>(
  join(SHARED, 'bench/finder-queries.jsonl'),
)
  .map((q) => {
    const m = /^([A-Z.]+)(\d{4})\d{4}$/.exec(q.relevant_corpus_ids[0] ?? '');
    return { ...q, doc: m ? tenK.get(`${m[1]}:FY-${m[2]}`) : undefined };
  })
  .filter((q): q is typeof q & { doc: string } => !!q.doc);

for (const mode of modes) {
  let cites = 0;
  let first = 0;
  let share = 0;
  for (const q of judged) {
    const { entries } = await askInProcess(reader, { query: q.query, mode, cap: 4000 });
    const citesDoc = (e: (typeof entries)[number]) => e.occurrences.some((o) => docOf.get(o.sourceId) === q.doc);
    const own = entries.filter((e) => docOf.get(e.occurrences[0]?.sourceId ?? '') === q.doc).length;
    cites += entries.some(citesDoc) ? 1 : 0;
    first += entries.filter((e) => e.chain === 0).some(citesDoc) ? 1 : 0;
    share += entries.length ? own / entries.length : 0;
    if (process.env.FF_VERBOSE)
      console.log(`  ${entries.some(citesDoc) ? 'C' : '.'} ${q.id} own ${own}/${entries.length} ${q.doc} | ${q.query}`);
  }
  const n = judged.length;
  console.log(
    `finder ${mode}/medium cap=4000 (n=${n} judged queries whose 10-K is indexed): cites it ${cites}/${n}, ` +
      `in the first chain ${first}/${n}, mean share of entries from it ${(share / Math.max(n, 1)).toFixed(2)}`,
  );
}
