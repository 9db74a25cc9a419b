import type { Lexicon, Shard } from '../../index-format/types';
import { postingList } from '../../index-format/shard-layout';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import { TopK, type ScoredStatement } from './top-k';

export type { ScoredStatement } from './top-k';

/**
 * BM25 over one shard's postings, with corpus-wide statistics (the query terms' lexicon), restricted to allowed
 * statements. `boost` scales a statement's score before the cut (a table row of the metric the question names,
 * see retrieve.ts).
 */
export function searchLexical(
  shard: Shard,
  lexicon: Lexicon,
  queryTerms: readonly string[],
  isAllowed: (local: number) => boolean,
  depth: number,
  boost?: (local: number) => number,
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
  const top = new TopK(depth);
  for (const local of touched) top.offer(local, boost ? scores[local]! * boost(local) : scores[local]!);
  return top.sorted();
}
