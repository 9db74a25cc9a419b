import { bm25Idf, bm25Norm, bm25ScoreWithNorm } from '../../index-format/bm25';
import type { EmbeddingModel } from '../../index-format/types';
import { cappedShards, cappedUnordered, TermBlockTables } from './partitioned';
import { BoundsPostingReader, BoundsTermReader } from './term-bounds-file';

/** One partition's term-major bounds (term-bounds-file.ts) and where its shards land in the corpus. */
export interface LexiconPart {
  dir: string;
  /** The corpus shard number of each of the partition's shards (numbered within it). */
  shardNumbers: Uint32Array;
}

/** What the directory says of the lexicon. */
export interface MergedLexicon {
  blocks: number;
  terms: number;
  impactScale: number;
}

/** A growable list of term numbers. */
class TermList {
  items = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.items.length) {
      const grown = new Uint32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = v;
  }
}

/** A growable set of term numbers, a bit each: which terms a partition's postings.bin holds, in term order. */
class TermBits {
  bits = new Uint8Array(1024);
  add(t: number): void {
    if (t >> 3 >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, (t >> 3) + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[t >> 3]! |= 1 << (t & 7);
  }
  has(t: number): boolean {
    return t >> 3 < this.bits.length && (this.bits[t >> 3]! & (1 << (t & 7))) !== 0;
  }
}

/**
 * The corpus lexicon's term blocks from the partitions' term-major bounds, in two passes over them, each a k-way
 * merge in term order:
 * 1. terms.bin: each term's corpus document frequency (the sum of the partitions'), shard count and highest impact
 *    (from the partitions' frontiers), hence the terms, the block sizes and the impact scale;
 * 2. postings.bin: each term's shards with their impact bounds under the corpus statistics, quantized to a byte on
 *    that scale, into its block.
 * Memory is the vocabulary and the term blocks; time is the (term, shard) pairs' arithmetic and no string hashing,
 * the same impacts, bit for bit, as bounds computed shard by shard (impactsOf).
 */
export function mergeLexicon(
  parts: readonly LexiconPart[],
  corpus: { statements: number; avgLen: number },
  model: Omit<EmbeddingModel, 'vocabIndex' | 'byteSize'>,
  write: (file: string, bytes: Uint8Array) => void,
  stage: (name: 'terms' | 'impacts' | 'blocks', step: number, of: number) => void = () => {},
): MergedLexicon {
  const { statements, avgLen } = corpus;
  // Statement lengths are 16-bit in the bounds: every length's BM25 normalization, computed once.
  const norms = Float64Array.from({ length: 0x10000 }, (_, len) => bm25Norm(len, avgLen));
  // Pass 1.
  stage('terms', 0, 1);
  const terms: string[] = [];
  const df = new TermList();
  const shardCounts = new TermList();
  /**
   * By partition: which corpus terms its postings.bin holds (its terms with shards, in term order), a bit per corpus
   * term: a partition holds much of the vocabulary, so bits cost less than a list of term numbers.
   */
  const bodies = parts.map(() => new TermBits());
  let maxImpact = 0;
  const readers = parts.map((p) => new BoundsTermReader(p.dir));
  const at: number[] = [];
  for (;;) {
    let least: string | null = null;
    for (const r of readers) if (!r.done && (least === null || r.current.term < least)) least = r.current.term;
    if (least === null) break;
    at.length = 0;
    let termDf = 0;
    let shards = 0;
    readers.forEach((r, p) => {
      if (r.done || r.current.term !== least) return;
      at.push(p);
      termDf += r.current.df;
      shards += r.current.shards;
    });
    if (shards) {
      const t = terms.push(least) - 1;
      df.push(termDf);
      shardCounts.push(shards);
      const idf = bm25Idf(statements, termDf);
      for (const p of at) {
        const c = readers[p]!.current;
        if (c.shards) bodies[p]!.add(t);
        for (let k = 0; k < c.frontierSize; k++) {
          const impact = bm25ScoreWithNorm(idf, c.frontierTf[k]!, norms[c.frontierLen[k]!]!);
          if (impact > maxImpact) maxImpact = impact;
        }
      }
    }
    for (const p of at) readers[p]!.next();
  }
  const impactScale = maxImpact / 255 || 1;
  // Exact-sized copies: the lists grew by doubling, and live on through pass 2.
  const dfs = df.items.slice(0, df.length);
  const counts = shardCounts.items.slice(0, shardCounts.length);
  const tables = new TermBlockTables(terms, dfs, counts, model);
  // Pass 2.
  const postings = parts.map((p) => new BoundsPostingReader(p.dir));
  let widest = 0;
  for (let t = 0; t < terms.length; t++) widest = Math.max(widest, counts[t]!);
  const ids = new Uint16Array(widest);
  const impacts = new Uint8Array(widest);
  const local = new Uint32Array(widest);
  const best = new Float64Array(widest);
  for (let t = 0; t < terms.length; t++) {
    if (t % 4096 === 0) stage('impacts', t, terms.length);
    const idf = bm25Idf(statements, dfs[t]!);
    let n = 0;
    let from = 0;
    for (let p = 0; p < parts.length; p++) {
      if (!bodies[p]!.has(t)) continue;
      from++;
      const count = postings[p]!.readTerm(idf, norms, local, best, n);
      const numbers = parts[p]!.shardNumbers;
      for (let k = n; k < n + count; k++) {
        ids[k] = numbers[local[k]!]!;
        impacts[k] = Math.max(1, Math.min(255, Math.ceil(best[k]! / impactScale)));
      }
      n += count;
    }
    // One partition's list is in corpus shard order; several partitions' interleave, and are capped unsorted.
    const list = [ids.subarray(0, n), impacts.subarray(0, n)] as const;
    tables.addCapped(t, from > 1 ? cappedUnordered(...list) : cappedShards(...list));
  }
  for (const r of postings) r.close();
  stage('impacts', terms.length, terms.length);
  let written = 0;
  for (const [file, bytes] of tables.files()) {
    if (written % 256 === 0) stage('blocks', written, tables.blocks);
    write(file, bytes);
    written++;
  }
  stage('blocks', written, tables.blocks);
  return { blocks: tables.blocks, terms: terms.length, impactScale };
}
