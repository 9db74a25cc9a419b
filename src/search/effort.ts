import type { QuestionShape } from '../question/analyze';
import type { Effort } from '../schema/request';

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

/**
 * Shards searched when nothing filters the corpus (basic mode): the best by the lexicon's impact bounds. Every
 * shard is a candidate there, and the effort limits' 6/12 shards per request cycled the Worker's 64 MB artifact
 * cache (warm p50 84 / 337 ms); 4 gave equal or better dev and hold-out figures than 6 or 12 (2 lost hold-out hits).
 */
export const UNFILTERED_MAX_SHARDS = 4;

/**
 * Shapes whose chains stay deep: a trend gathers the same line across periods and a comparison the same line across
 * issuers (a chain's further entries are those periods and issuers: the period edge, the filing's neighbouring hits),
 * and a descriptive answer is a passage, read better as three statements than two. A lookup or a ratio asks for a
 * figure, and its best candidates are spread over many chains.
 */
const DEPTH_SHAPES: readonly QuestionShape[] = ['trend', 'comparison', 'descriptive'];

/**
 * The medium plan for a lookup or a ratio: one entry fewer per chain, four chains more. Under a token budget a
 * chain's third entry (an outlook sentence, a period row, a nearby hit) took the room of the next chain, whose anchor
 * may be the row that answers; uncapped, 16 x 2 = 32 statements against 12 x 3 = 36. docs/PARAMETERS.md has the
 * measurements. Low (5 x 2) is already shallow; high keeps its depth for every shape (the effort for multi-part and
 * comparative questions, not measured by the benchmarks).
 */
const MEDIUM_BREADTH: Pick<EffortLimits, 'maxChains' | 'entriesPerChain'> = { maxChains: 16, entriesPerChain: 2 };

/** The plan of a request: its effort's, with the breadth variant for a medium lookup or ratio question. */
export function effortLimits(effort: Effort, shape: QuestionShape): EffortLimits {
  const plan = EFFORT_LIMITS[effort];
  return effort === 'medium' && !DEPTH_SHAPES.includes(shape) ? { ...plan, ...MEDIUM_BREADTH } : plan;
}
