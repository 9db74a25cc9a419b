import type { HnswIndexHandle } from '../../index-format/index-reader';
import type { Shard } from '../../index-format/types';
import { searchHnsw, type HnswIndex } from '../../index-format/hnsw';
import { RANKING } from './ranking';
import { topK, type ScoredStatement } from './top-k';
import { codeScorer } from './vector';

export type VectorStrategy = 'exact_scan' | 'hnsw';

/** Why a shard got its strategy; 'graph_unavailable' = chose the graph but the reader had none to give. */
export type VectorStrategyReason = 'no_graph' | 'selective_filter' | 'graph' | 'graph_unavailable';

/** One line of the retrieval trace per searched shard (a plain value, like the rest of the trace). */
export interface ShardVectorStrategy {
  shard: string;
  strategy: VectorStrategy;
  reason: VectorStrategyReason;
  /** Statements in the shard. */
  statements: number;
  /** Of those, allowed by the filters (= statements without filters). */
  allowed: number;
}

export interface StrategyInput {
  hasGraph: boolean;
  statements: number;
  allowed: number;
}

/** The choice table: graph iff the shard has one and at least RANKING.graphMinPassRate of it passes the filters. */
export function chooseVectorStrategy(input: StrategyInput): { strategy: VectorStrategy; reason: VectorStrategyReason } {
  if (!input.hasGraph || input.statements <= 0) return { strategy: 'exact_scan', reason: 'no_graph' };
  if (input.allowed / input.statements < RANKING.graphMinPassRate)
    return { strategy: 'exact_scan', reason: 'selective_filter' };
  return { strategy: 'hnsw', reason: 'graph' };
}

/** Statements of the shard the filter allows (one pass over a typed array: ~0.05 ms per 20k statements). */
export function countAllowed(shard: Shard, isAllowed: (local: number) => boolean): number {
  let n = 0;
  for (let local = 0; local < shard.count; local++) if (isAllowed(local)) n++;
  return n;
}

/** Wraps a loaded graph; search answers null once the graph has been freed (evicted by the cache). */
export function hnswHandle(index: HnswIndex): HnswIndexHandle {
  return {
    count: index.count,
    search(query, k, efSearch, isAllowed) {
      if (index.native.isDeleted()) return null;
      return searchHnsw(index, query, k, efSearch, isAllowed);
    },
  };
}

/**
 * Vector leg through the graph: the `depth` nearest allowed statements, rescored by their binary codes
 * (the scan's score) so graph and scan results rank on one scale across shards. Null if the graph was freed.
 * `isAllowed` undefined = no filter (no per-candidate callback from the wasm).
 */
export function searchVectorGraph(
  shard: Shard,
  graph: HnswIndexHandle,
  query: Float32Array,
  isAllowed: ((local: number) => boolean) | undefined,
  depth: number,
  efSearch: number,
): ScoredStatement[] | null {
  const found = graph.search(query, depth, efSearch, isAllowed);
  if (!found) return null;
  const n = shard.count;
  const scorer = codeScorer(shard, query);
  const out: ScoredStatement[] = [];
  for (const local of found.labels) {
    if (!Number.isInteger(local) || local < 0 || local >= n) continue; // a label outside the shard is not trusted
    const score = scorer.score(local);
    if (score > 0) out.push({ local, score }); // same cut as the exact scan
  }
  return topK(out, depth);
}
