import type { Shard } from '../format/types';
import { dotInt8 } from '../text/embed';
import { topK, type ScoredStatement } from './lexical';

/**
 * Exact cosine scan over the allowed statements of one shard (int8 vectors). At this shard size (a few thousand
 * statements) a scan costs well under a millisecond per thousand vectors and has perfect recall under any filter.
 */
export function searchVectorExact(
  shard: Shard,
  query: Float32Array,
  isAllowed: (local: number) => boolean,
  depth: number,
): ScoredStatement[] {
  const out: ScoredStatement[] = [];
  const n = shard.texts.length;
  for (let local = 0; local < n; local++) {
    if (!isAllowed(local)) continue;
    const score = dotInt8(query, shard.vectors, local * shard.dim);
    if (score > 0) out.push({ local, score });
  }
  return topK(out, depth);
}
