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
    for (let p = shard.postOffsets[t]!; p < shard.postOffsets[t + 1]!; p++) {
      const doc = shard.postDocs[p]!;
      if (!isAllowed(doc)) continue;
      if (!seen[doc]) {
        seen[doc] = 1;
        touched.push(doc);
      }
      scores[doc] = scores[doc]! + bm25TermScore(idf, shard.postTfs[p]!, shard.docLen[doc]!, lexicon.avgLen);
    }
  }
  return topK(
    touched.map((local) => ({ local, score: boost ? scores[local]! * boost(local) : scores[local]! })),
    depth,
  );
}

/** Orders by score (highest first), then by statement: the order every leg ranks in. */
const before = (a: ScoredStatement, b: ScoredStatement) => b.score - a.score || a.local - b.local;

/**
 * The k best items in rank order; the same result as sorting them all and taking k (a test checks), without sorting
 * the thousands a common term scores: a bounded heap of the best k, sorted at the end.
 */
export function topK(items: ScoredStatement[], k: number): ScoredStatement[] {
  if (items.length <= k * 4) return items.sort(before).slice(0, k);
  // heap[0] is the worst of the kept items (a heap ordered by "ranks later").
  const heap: ScoredStatement[] = [];
  const later = (a: ScoredStatement, b: ScoredStatement) => before(a, b) > 0;
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && later(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && later(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!later(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (k > 0 && later(heap[0]!, item)) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort(before);
}
