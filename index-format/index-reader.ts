import type { CatalogHeader, Directory, EmbeddingModel, Lexicon, Manifest, Shard } from './types';

/** k-NN result of a graph: shard-local statement ids, best first, with hnswlib's ip distances (1 - dot). */
export interface GraphSearchResult {
  labels: number[];
  distances: number[];
}

/**
 * A shard's loaded HNSW graph (labels are the shard's local statement ids). It may live in a cache that frees it
 * when evicted, so use it right after getting it, without awaiting anything in between.
 */
export interface HnswIndexHandle {
  /** Vectors in the graph (= the shard's statement count). */
  readonly count: number;
  /**
   * The k nearest allowed statements by inner product (efSearch = beam width, raised to k if lower), or null when
   * the graph has been freed meanwhile (another request evicted it); the caller then scans exactly instead.
   */
  search(
    query: Float32Array,
    k: number,
    efSearch: number,
    isAllowed?: (local: number) => boolean,
  ): GraphSearchResult | null;
}

/**
 * Parts of a shard a step reads beyond its head (which holds the binary codes): posting lists of terms, records (text,
 * consensus) of statements.
 */
export interface ShardNeed {
  terms?: readonly string[];
  records?: Iterable<number>;
}

/** Lexicon and word vectors of some terms (index-format/views.ts termTable). */
export interface TermTable {
  lexicon: Lexicon;
  model: EmbeddingModel;
}

/**
 * What the pure core needs from a published index. The Worker implements it over R2/KV with a per-isolate cache;
 * tests and the bench implement it over files. Everything is read on demand and by part: the directory once, then
 * the issuer tables of a request's scope, the term blocks of its terms and the shards it searches.
 */
export interface IndexReader {
  readonly manifest: Manifest;
  readonly directory: Directory;
  /** The catalog scoped to these issuers (unknown tickers are ignored): their sources and shards, every company. */
  scope(tickers: readonly string[]): Promise<CatalogHeader>;
  /** Corpus statistics, shard postings and word vectors of these terms (terms not in the index are absent). */
  terms(terms: readonly string[]): Promise<TermTable>;
  /**
   * A shard by its global number; its issuer's table is read first if needed. A reader of byte ranges returns it
   * with its head only (Shard.parts): ask shardParts for the postings, codes and records a step reads.
   */
  shard(index: number): Promise<Shard>;
  /** The shard with these parts filled in (read by range where missing; a whole shard has them all). */
  shardParts(index: number, need: ShardNeed): Promise<Shard>;
  /**
   * The shard's HNSW graph, or null when it has none (small shards) or it cannot be kept within the memory budget.
   * Optional: a reader without it always gets exact scans.
   */
  graph?(index: number): Promise<HnswIndexHandle | null>;
}
