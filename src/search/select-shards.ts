import type { CatalogHeader, Lexicon } from '../../index-format/types';
import { heldIndexes, heldSources } from '../../index-format/views';

/** Shards of the catalog's scope holding at least one allowed source (all of them when nothing is filtered). */
export function candidateShards(catalog: CatalogHeader, allowedSources: Uint8Array | null): number[] {
  if (!allowedSources) return [...heldIndexes(catalog.shards)]; // sparse: the scope's shards only
  const set = new Set<number>();
  for (const i of heldSources(catalog.sources)) if (allowedSources[i]) set.add(catalog.sources[i]!.shard);
  return [...set].sort((a, b) => a - b);
}

/**
 * Ranks candidate shards by the sum over query terms of each term's best BM25 contribution in the shard (an
 * upper bound stored by the builder; shards a term's capped list leaves out get its rest bound), and keeps the best
 * `max`. Ties keep catalog order, so plans are stable.
 */
export function rankShards(
  lexicon: Lexicon,
  candidates: readonly number[],
  queryTerms: readonly string[],
  max: number,
): number[] {
  const score = new Map<number, number>(candidates.map((c) => [c, 0]));
  for (const term of new Set(queryTerms)) {
    const t = lexicon.termIndex.get(term);
    if (t === undefined) continue;
    const rest = lexicon.restImpact[t]!;
    const listed = rest ? new Set<number>() : null;
    for (let p = lexicon.shardOffsets[t]!; p < lexicon.shardOffsets[t + 1]!; p++) {
      const shard = lexicon.shardIds[p]!;
      listed?.add(shard);
      if (score.has(shard)) score.set(shard, score.get(shard)! + lexicon.shardImpact[p]!);
    }
    if (listed) for (const [shard, s] of score) if (!listed.has(shard)) score.set(shard, s + rest);
  }
  return [...score.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, max)
    .map(([shard]) => shard);
}
