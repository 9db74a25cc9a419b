import type { Shard } from '../format/types';
import { dotInt8 } from '../text/embed';
import { topK, type ScoredStatement } from './lexical';

/**
 * Cosines of one query vector with a shard's statements, filled in as they are computed (NaN until then): a
 * request's passes (question, preference, later years) embed the same text and scan the same shards under different
 * filters, and each computes only what the earlier ones did not.
 */
export type CosineMemo = Float64Array;

export function cosineMemo(shard: Shard): CosineMemo {
  return new Float64Array(shard.count).fill(NaN);
}

/** The cosine of the query with one statement, from the memo when an earlier pass computed it. */
export function cosineOf(shard: Shard, query: Float32Array, local: number, memo?: CosineMemo): number {
  if (!memo) return dotInt8(query, shard.vectors, local * shard.dim);
  let c = memo[local]!;
  if (Number.isNaN(c)) memo[local] = c = dotInt8(query, shard.vectors, local * shard.dim);
  return c;
}

/**
 * Exact cosine scan over the allowed statements of one shard (int8 vectors). At this shard size (a few thousand
 * statements) a scan costs well under a millisecond per thousand vectors and has perfect recall under any filter.
 */
export function searchVectorExact(
  shard: Shard,
  query: Float32Array,
  isAllowed: (local: number) => boolean,
  depth: number,
  memo?: CosineMemo,
): ScoredStatement[] {
  const out: ScoredStatement[] = [];
  const n = shard.count;
  for (let local = 0; local < n; local++) {
    if (!isAllowed(local)) continue;
    const score = cosineOf(shard, query, local, memo);
    if (score > 0) out.push({ local, score });
  }
  return topK(out, depth);
}
