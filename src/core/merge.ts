import { mergeKey, RANKING } from '../search/ranking';

/**
 * What merging passes reads of a chain: its relevance and its statements' claims (hashes from the shard heads,
 * src/evidence/chains.ts PendingChain), so chains merge before their texts are read.
 */
export interface Mergeable {
  relevance: number;
  /** Its rank score: relevance_score plus its order within it (src/search/ranking.ts chainOrder). */
  score: number;
  claims: readonly (number | string)[];
  /**
   * Relevance points the chain earned from its pass's ranking preference (a named section, quarter or statement):
   * later merges of the request's passes order by relevance plus these, so a pass's preference survives them.
   */
  earned?: number;
}

export interface MergedBranches<C extends Pick<Mergeable, 'claims'>> {
  /** Deduplicated chains in merged rank order. */
  chains: C[];
  /** The requirement ids whose branches retrieved each chain (a duplicate's branch is added to the kept chain). */
  retrievedBy: Map<C, Set<string>>;
}

/**
 * Merges the branches' ranked chains round-robin (each branch's best, then each branch's second, ...), so every
 * requirement's best evidence ranks near the top whatever the relevance scales of the different branch queries.
 * A chain whose claims all appear in an already kept chain is a duplicate (two branches often find the same
 * table row); its branch is credited to the kept chain. Capped at `max` chains, the effort limits' chain count,
 * so agentic mode returns as many chains as research mode would.
 */
export function mergeBranches<C extends Pick<Mergeable, 'claims'>>(
  branches: readonly (readonly C[])[],
  ids: readonly string[],
  max: number,
): MergedBranches<C> {
  const chains: C[] = [];
  const retrievedBy = new Map<C, Set<string>>();
  const claimsOf = new Map<C, Set<number | string>>();
  const depth = Math.max(0, ...branches.map((b) => b.length));
  for (let rank = 0; rank < depth; rank++) {
    for (let b = 0; b < branches.length; b++) {
      const chain = branches[b]![rank];
      if (!chain) continue;
      const claims = new Set(chain.claims);
      const dup = chains.find((kept) => [...claims].every((k) => claimsOf.get(kept)!.has(k)));
      if (dup) {
        retrievedBy.get(dup)!.add(ids[b]!);
        continue;
      }
      if (chains.length >= max) continue;
      chains.push(chain);
      claimsOf.set(chain, claims);
      retrievedBy.set(chain, new Set([ids[b]!]));
    }
  }
  return { chains, retrievedBy };
}

/**
 * Merges chains from the preferred side (a pass's preference sub-pass, or the chains so far before a `below` or
 * `fill` pass) with the general ones. A preferred chain ranks as if its relevance were `bonus` higher (its reported
 * relevance_score is unchanged), so a clearly better general chain still comes first; a general chain repeating a
 * claim of a preferred chain is dropped. Each side's chains keep what they earned in earlier merges
 * (Mergeable.earned). Capped at `max` chains.
 */
export function mergePreferred<C extends Mergeable>(
  preferred: readonly C[],
  general: readonly C[],
  max: number,
  bonus: number = RANKING.preferenceBonus,
): C[] {
  const claims = new Set(preferred.flatMap((c) => c.claims));
  const rest = general.filter((c) => !c.claims.some((k) => claims.has(k)));
  const keyed = [
    ...preferred.map((c) => [c, mergeKey(c.score, true, bonus, c.earned)] as const),
    ...rest.map((c) => [c, mergeKey(c.score, false, bonus, c.earned)] as const),
  ];
  // Stable: equal keys keep preferred-before-general and each list's own order.
  return keyed
    .map(([c, k], i) => ({ c, k, i }))
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .slice(0, max)
    .map((x) => x.c);
}
