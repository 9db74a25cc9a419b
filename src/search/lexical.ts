import type { Lexicon, Shard } from '../../index-format/types';
import { postingList } from '../../index-format/shard-layout';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import { TopK, type ScoredStatement } from './top-k';

export type { ScoredStatement } from './top-k';

/**
 * Query terms that the statements `holds` accepts count as held once where their text lacks them (the words of a
 * named quarter in the filings that report it: src/plan/query-plan.ts periodCredit).
 */
export interface TermCredit {
  terms: readonly string[];
  holds: (local: number) => boolean;
}

/**
 * BM25 over one shard's postings, with corpus-wide statistics (the query terms' lexicon), restricted to allowed
 * statements. `boost` scales a statement's score before the cut (a table row of the metric the question names,
 * see retrieve.ts). A statement that another query term found scores each credited term it lacks as a term it holds
 * once (`credit`); credit alone finds no statement.
 */
export function searchLexical(
  shard: Shard,
  lexicon: Lexicon,
  queryTerms: readonly string[],
  isAllowed: (local: number) => boolean,
  depth: number,
  boost?: (local: number) => number,
  credit?: TermCredit | null,
): ScoredStatement[] {
  // Scores in a dense array, the statements that got one listed in first-seen order (what the Map this replaces
  // iterated in): a shard has a few thousand statements, and common terms post to most of them.
  const scores = new Float64Array(shard.docLen.length);
  const seen = new Uint8Array(shard.docLen.length);
  const touched: number[] = [];
  for (const term of new Set(queryTerms)) {
    const t = shard.termIndex.get(term);
    if (t === undefined) continue;
    const g = lexicon.termIndex.get(term);
    if (g === undefined) continue;
    const idf = bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
    const { docs, tfs } = postingList(shard, t);
    for (let p = 0; p < docs.length; p++) {
      const doc = docs[p]!;
      if (!isAllowed(doc)) continue;
      if (!seen[doc]) {
        seen[doc] = 1;
        touched.push(doc);
      }
      scores[doc] = scores[doc]! + bm25TermScore(idf, tfs[p]!, shard.docLen[doc]!, lexicon.avgLen);
    }
  }
  if (credit) addCredit(shard, lexicon, queryTerms, credit, touched, scores);
  const top = new TopK(depth);
  for (const local of touched) top.offer(local, boost ? scores[local]! * boost(local) : scores[local]!);
  return top.sorted();
}

/** Adds to the found statements `credit` holds the score of each credited query term they lack, at a frequency of 1. */
function addCredit(
  shard: Shard,
  lexicon: Lexicon,
  queryTerms: readonly string[],
  credit: TermCredit,
  touched: readonly number[],
  scores: Float64Array,
): void {
  const held = touched.filter(credit.holds);
  if (!held.length) return;
  for (const term of new Set(credit.terms)) {
    const g = lexicon.termIndex.get(term);
    if (!queryTerms.includes(term) || g === undefined) continue;
    const idf = bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
    const t = shard.termIndex.get(term);
    const has = new Set(t === undefined ? [] : postingList(shard, t).docs);
    for (const doc of held)
      if (!has.has(doc)) scores[doc] = scores[doc]! + bm25TermScore(idf, 1, shard.docLen[doc]!, lexicon.avgLen);
  }
}
