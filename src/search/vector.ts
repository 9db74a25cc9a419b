import type { Shard } from '../../index-format/types';
import { dotInt8 } from '../../index-format/embed';
import { TopK, topK, type ScoredStatement } from './top-k';

/**
 * The exact cosine of the query with one statement of a whole shard (the exact scan's; a shard read by ranges keeps
 * no vectors: chains rank on code cosines).
 */
export function cosineOf(shard: Shard, query: Float32Array, local: number): number {
  if (shard.parts) throw new Error('exact cosines need a whole shard');
  return dotInt8(query, shard.vectors, local * shard.dim);
}

/**
 * How a query scores binary codes (index-format/shard-layout.ts binaryCodes): a statement's vector is taken as
 * mean + scale * (bit ? 1 : -1) per dimension, so its dot product with the query is a constant plus, per code byte,
 * a sum that depends only on that byte: one 256-entry table per byte, 16 lookups per statement at dimension 128.
 */
export interface CodeScorer {
  score(local: number): number;
}

export function codeScorer(shard: Shard, query: Float32Array): CodeScorer {
  const dim = shard.dim;
  const width = dim / 8;
  let base = 0;
  for (let d = 0; d < dim; d++) base += query[d]! * shard.codeMean[d]!;
  const table = new Float64Array(width * 256);
  for (let j = 0; j < width; j++) {
    const t = j * 256;
    let allOff = 0;
    for (let k = 0; k < 8; k++) allOff -= query[8 * j + k]! * shard.codeScale[8 * j + k]!;
    table[t] = allOff;
    // Each byte value adds, over the lowest set bit, twice that dimension's weight to the byte without it.
    for (let b = 1; b < 256; b++) {
      const k = 31 - Math.clz32(b & -b);
      table[t + b] = table[t + (b & (b - 1))]! + 2 * query[8 * j + k]! * shard.codeScale[8 * j + k]!;
    }
  }
  const codes = shard.codes;
  return {
    score(local) {
      let s = base;
      const at = local * width;
      for (let j = 0; j < width; j++) s += table[j * 256 + codes[at + j]!]!;
      return s / 127;
    },
  };
}

/**
 * The vector leg: every allowed statement of one shard scored by its binary code, the best `depth` with a positive
 * score. Reads dim/8 bytes per statement instead of dim (a shard's codes are an eighth of its vectors), at the cost of
 * an approximate order, which chains rank on (docs/RANGE-READS.md "Records for the chains returned").
 * searchVectorExact is its slow twin.
 */
export function searchVectorCodes(
  shard: Shard,
  query: Float32Array,
  isAllowed: (local: number) => boolean,
  depth: number,
  scorer: CodeScorer = codeScorer(shard, query),
): ScoredStatement[] {
  const top = new TopK(depth);
  for (let local = 0; local < shard.count; local++) {
    if (!isAllowed(local)) continue;
    const score = scorer.score(local);
    if (score > 0) top.offer(local, score);
  }
  return top.sorted();
}

/**
 * Exact cosine scan over the allowed statements of one shard (int8 vectors of a whole shard): the slow twin of the
 * code scan and of the graph, with perfect recall under any filter.
 */
export function searchVectorExact(
  shard: Shard,
  query: Float32Array,
  isAllowed: (local: number) => boolean,
  depth: number,
): ScoredStatement[] {
  const out: ScoredStatement[] = [];
  for (let local = 0; local < shard.count; local++) {
    if (!isAllowed(local)) continue;
    const score = cosineOf(shard, query, local);
    if (score > 0) out.push({ local, score });
  }
  return topK(out, depth);
}
