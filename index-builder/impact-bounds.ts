import type { Shard } from '../index-format/types';

/**
 * What a shard's impact bounds need of its postings, without corpus statistics: per term, for each distinct term
 * frequency, the shortest statement with that frequency. A term's impact bound in a shard is its best BM25
 * contribution there, which depends on the corpus (document frequency, statement count, average length), so a
 * partition job cannot compute it; these candidates let the merge compute it exactly. For one frequency a longer
 * statement never scores higher (BM25's length norm only grows with length, and every floating-point step of
 * bm25TermScore is monotone in it), so the maximum over the candidates is the maximum over every posting, bit for
 * bit. Terms are the shard's, sorted.
 */
export interface TermBounds {
  terms: string[];
  /** Candidates of term i: offsets[i] .. offsets[i + 1] - 1. */
  offsets: Uint32Array;
  tf: Uint8Array;
  len: Uint16Array;
}

/** Collects the candidates of one term: the shortest length seen per term frequency. */
class Candidates {
  private readonly shortest = new Map<number, number>();
  add(tf: number, len: number): void {
    const seen = this.shortest.get(tf);
    if (seen === undefined || len < seen) this.shortest.set(tf, len);
  }
  /** [tf, len] pairs by ascending tf. */
  pairs(): [number, number][] {
    return [...this.shortest].sort((a, b) => a[0] - b[0]);
  }
}

function packBounds(terms: string[], perTerm: Candidates[]): TermBounds {
  const lists = perTerm.map((c) => c.pairs());
  const offsets = new Uint32Array(terms.length + 1);
  let total = 0;
  lists.forEach((l, i) => {
    offsets[i] = total;
    total += l.length;
  });
  offsets[terms.length] = total;
  const tf = new Uint8Array(total);
  const len = new Uint16Array(total);
  lists.forEach((l, i) => {
    l.forEach(([f, n], k) => {
      tf[offsets[i]! + k] = f;
      len[offsets[i]! + k] = n;
    });
  });
  return { terms, offsets, tf, len };
}

/** The candidates of a shard's postings given as parallel arrays (as encodeShardStatements builds them). */
export function termBoundsOf(
  terms: string[],
  postOffsets: Uint32Array,
  postDocs: Uint32Array,
  postTfs: Uint8Array,
  docLen: Uint16Array,
): TermBounds {
  const perTerm = terms.map((_, i) => {
    const c = new Candidates();
    for (let p = postOffsets[i]!; p < postOffsets[i + 1]!; p++) c.add(postTfs[p]!, docLen[postDocs[p]!]!);
    return c;
  });
  return packBounds(terms, perTerm);
}

/** The candidates of a decoded shard (an issuer an incremental build takes from the previous version). */
export const shardTermBounds = (shard: Shard): TermBounds =>
  termBoundsOf(shard.terms.toArray(), shard.postOffsets, shard.postDocs, shard.postTfs, shard.docLen);
