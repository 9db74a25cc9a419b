import { claimKey } from '../evidence/claims';
import type { Chain } from '../evidence/model';

export interface MergedBranches {
  /** Deduplicated chains in merged rank order. */
  chains: Chain[];
  /** The requirement ids whose branches retrieved each chain (a duplicate's branch is added to the kept chain). */
  retrievedBy: Map<Chain, Set<string>>;
}

/**
 * Merges the branches' ranked chains round-robin (each branch's best, then each branch's second, ...), so every
 * requirement's best evidence ranks near the top whatever the relevance scales of the different branch queries.
 * A chain whose claims all appear in an already kept chain is a duplicate (two branches often find the same
 * table row); its branch is credited to the kept chain. Capped at `max` chains, the effort plan's chain count,
 * so agentic mode returns as many chains as research mode would.
 */
export function mergeBranches(branches: readonly (readonly Chain[])[], ids: readonly string[], max: number): MergedBranches {
  const chains: Chain[] = [];
  const retrievedBy = new Map<Chain, Set<string>>();
  const claimsOf = new Map<Chain, Set<string>>();
  const depth = Math.max(0, ...branches.map((b) => b.length));
  for (let rank = 0; rank < depth; rank++) {
    for (let b = 0; b < branches.length; b++) {
      const chain = branches[b]![rank];
      if (!chain) continue;
      const claims = new Set(chain.entries.map((e) => claimKey(e.consensus)));
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
