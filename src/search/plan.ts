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

/** Reciprocal-rank-fusion constant: 60 is the value of the original RRF paper and insensitive in practice. */
export const RRF_K = 60;

/**
 * Rank bonus of a chain from a source the question prefers (a named section such as "risk factors", or a named
 * fiscal quarter), in relevance_score points (0-10 scale). 1 breaks ties and near-ties in favour of the named
 * section or quarter. It was 3 while preferred chains came only from the general pass (quarters) or one item pass;
 * since the named quarter has its own pass too, 3 pushed that filing's boilerplate above clearly better chains
 * (docugami 39 -> 41/126 at 1, hold-out support +3.8 points; 0 lost FinanceBench hit; docs/PARAMETERS.md).
 * The reported relevance_score is not changed.
 */
export const PREFERENCE_BONUS = 1;

/**
 * Weight of each leg in the fusion. The vector leg's corpus-trained PPMI vectors rank boilerplate that shares the
 * question's topic ("cash flows" disclosures) above the row that states the figure; at full weight they cost
 * 10-20 points of gold-page hit on FinanceBench dev, off entirely they cost answer support on the hold-out.
 * 0.3 was the best of 0, 0.15, 0.3, 0.5, 0.6, 1 on both sets (docs/PARAMETERS.md, "Ranking").
 */
export const RRF_WEIGHTS: Readonly<Record<'lexical' | 'cosine', number>> = { lexical: 1, cosine: 0.3 };

/**
 * Lexical score factor of a table row that states a metric the question names (its metric tag, or its whole
 * label): plain BM25 ranks prose that repeats more of the question's words above it (3M's FY2018 purchases of PP&E
 * row was 22nd). 1.5 reached the dev figures of 2-3 with better hold-out answer support.
 */
export const METRIC_ROW_BOOST = 1.5;
/** The same for a sentence tagged with a named metric: a mild preference only, prose is rarely the figure. */
export const METRIC_BOOST = 1.2;

/**
 * Shards searched when nothing filters the corpus (basic mode): the best by the lexicon's impact bounds. Every
 * shard is a candidate there, and the effort plans' 6/12 shards per request cycled the Worker's 64 MB artifact
 * cache (warm p50 84 / 337 ms); 4 gave equal or better dev and hold-out figures than 6 or 12 (2 lost hold-out hits).
 */
export const UNFILTERED_MAX_SHARDS = 4;
