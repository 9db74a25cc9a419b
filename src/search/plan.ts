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
  medium: { maxShards: 6, depth: 100, maxChains: 8, entriesPerChain: 3, efSearch: 128 },
  high: { maxShards: 12, depth: 200, maxChains: 12, entriesPerChain: 4, efSearch: 256 },
};

/** Reciprocal-rank-fusion constant: 60 is the value of the original RRF paper and insensitive in practice. */
export const RRF_K = 60;

/** Weight of each leg in the fusion. */
export const RRF_WEIGHTS: Record<'lexical' | 'cosine', number> = { lexical: 1, cosine: Number(globalThis.process?.env?.VW ?? 0.3) };

/**
 * Rank bonus of a chain from a source the question prefers (a named section such as "risk factors", or a named
 * fiscal quarter), in relevance_score points (0-10 scale). 3 puts a preferred chain of relevance 6 level with a
 * general one of 9: the named section comes first unless other evidence matches the question clearly better.
 * The reported relevance_score is not changed.
 */
export const PREFERENCE_BONUS = 3;

export const METRIC_ROW_BOOST = Number(globalThis.process?.env?.MRB ?? 1.5);
export const METRIC_BOOST = Number(globalThis.process?.env?.MB ?? 1.2);
