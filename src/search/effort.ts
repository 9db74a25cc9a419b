import type { QuestionShape } from '../question/analyze';
import type { Effort } from '../schema/request';
import { RANKING } from './ranking';

/** How much work each effort level buys; docs/PARAMETERS.md explains the numbers. */
export interface EffortLimits {
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

export const EFFORT_LIMITS: Record<Effort, EffortLimits> = {
  low: { maxShards: 3, depth: 40, maxChains: 5, entriesPerChain: 2, efSearch: 64 },
  medium: { maxShards: 6, depth: 100, maxChains: 12, entriesPerChain: 3, efSearch: 128 },
  high: { maxShards: 12, depth: 200, maxChains: 12, entriesPerChain: 4, efSearch: 256 },
};

/** The limits of a request: its effort's, with the breadth variant for a medium lookup or ratio question. */
export function effortLimits(effort: Effort, shape: QuestionShape): EffortLimits {
  const limits = EFFORT_LIMITS[effort];
  const { deepShapes, ...breadth } = RANKING.mediumBreadth;
  return effort === 'medium' && !(deepShapes as readonly QuestionShape[]).includes(shape)
    ? { ...limits, ...breadth }
    : limits;
}
