import type { Lexicon, Shard } from '../format/types';
import { bm25Idf, bm25TermScore } from './bm25';

export interface ScoredStatement {
  local: number;
  score: number;
}

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
  const scores = new Map<number, number>();
  for (const term of new Set(queryTerms)) {
    const t = shard.termIndex.get(term);
    if (t === undefined) continue;
    const g = lexicon.termIndex.get(term);
    if (g === undefined) continue;
    const idf = bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
    for (let p = shard.postOffsets[t]!; p < shard.postOffsets[t + 1]!; p++) {
      const doc = shard.postDocs[p]!;
      if (!isAllowed(doc)) continue;
      scores.set(doc, (scores.get(doc) ?? 0) + bm25TermScore(idf, shard.postTfs[p]!, shard.docLen[doc]!, lexicon.avgLen));
    }
  }
  return topK([...scores.entries()].map(([local, score]) => ({ local, score: boost ? score * boost(local) : score })), depth);
}

export function topK(items: ScoredStatement[], k: number): ScoredStatement[] {
  return items.sort((a, b) => b.score - a.score || a.local - b.local).slice(0, k);
}
