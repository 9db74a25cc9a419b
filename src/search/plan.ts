import type { Effort } from '../schema/request';

/** How much work each effort level buys; docs/PARAMETERS.md explains the numbers. */
export interface EffortPlan {
  /** Shards searched when the filters leave more than this many (ranked by the lexicon's impact bounds). */
  maxShards: number;
  /** Candidates kept per leg (lexical, vector) across the searched shards. */
  depth: number;
  /** Evidence chains built before the caller's caps. */
  maxChains: number;
  /** Entries per chain. */
  entriesPerChain: number;
  /**
   * Beam width of an HNSW graph search (shards with a graph, see search/vector-strategy.ts); hnswlib raises it to
   * `depth` when lower. Larger = better recall, proportionally slower.
   */
  efSearch: number;
}

export const EFFORT_PLANS: Record<Effort, EffortPlan> = {
  low: { maxShards: 3, depth: 40, maxChains: 5, entriesPerChain: 2, efSearch: 64 },
  medium: { maxShards: 6, depth: 100, maxChains: 12, entriesPerChain: 3, efSearch: 128 },
  high: { maxShards: 12, depth: 200, maxChains: 12, entriesPerChain: 4, efSearch: 256 },
};

/**
 * Shards searched when nothing filters the corpus (basic mode): the best by the lexicon's impact bounds. Every
 * shard is a candidate there, and the effort plans' 6/12 shards per request cycled the Worker's 64 MB artifact
 * cache (warm p50 84 / 337 ms); 4 gave equal or better dev and hold-out figures than 6 or 12 (2 lost hold-out hits).
 */
export const UNFILTERED_MAX_SHARDS = 4;
