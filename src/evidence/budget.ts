import type { z } from 'zod';
import type { Coverage } from '../schema/response';
import { RANKING } from '../search/ranking';
import type { Chain } from './model';

export const TOKEN_ESTIMATOR = 'chars_div_4_v1';

/** chars_div_4_v1: ceil(characters / 4), counting UTF-16 code units of the evidence string as returned. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface BudgetSelection {
  chains: Chain[];
  evidence: string | null;
  estimatedTokens: number;
}

/** The evidence a response returns, chosen from the executed plan's chains. */
export interface SelectedEvidence {
  /** Chains that reached budget selection (after dedupe and max_evidence). */
  available: number;
  selection: BudgetSelection;
  /** agentic_research: the requirements' coverage by what was returned. */
  coverage?: z.infer<typeof Coverage>;
  /** When chains exist but none fits the token budget: the smallest one's size in tokens. */
  smallestChainTokens?: number;
}

/**
 * Spec 2.4: keep complete chains only. Chains covering still-uncovered requirements go first (agentic mode passes
 * `requirementsOf`), then the rest in rerank order; after each candidate the evidence is re-rendered with its
 * regenerated source registry and re-estimated, so the final estimate never exceeds the cap. A chain that does
 * not fit is skipped and later, smaller chains may still fill the budget. No chain fits -> no evidence.
 */
export function selectWithinBudget(
  ranked: readonly Chain[],
  render: (chains: readonly Chain[]) => string,
  cap: number | null,
  requirementsOf?: (chain: Chain) => readonly string[],
): BudgetSelection {
  if (!ranked.length) return { chains: [], evidence: null, estimatedTokens: 0 };
  if (cap === null) {
    const evidence = render(ranked);
    return { chains: [...ranked], evidence, estimatedTokens: estimateTokens(evidence) };
  }
  const selected: Chain[] = [];
  let evidence: string | null = null;
  // Adds the candidate when the selection with it (in rerank order, registry regenerated) fits the cap.
  const tryAdd = (candidate: Chain): boolean => {
    const trial = [...selected, candidate].sort((a, b) => ranked.indexOf(a) - ranked.indexOf(b));
    const text = render(trial);
    if (estimateTokens(text) > cap) return false;
    selected.splice(0, selected.length, ...trial);
    evidence = text;
    return true;
  };
  const rest = [...ranked];
  if (requirementsOf) {
    // Coverage pass: repeatedly add the chain that covers the most still-uncovered requirements (ties: rerank
    // order) among those that still fit. A requirement counts as covered only once a chain of it fits, so when
    // its best chain is too large a smaller chain of the same requirement gets its turn. A chain that does not fit
    // now never will (the selection only grows), so it leaves the candidates.
    const covered = new Set<string>();
    for (;;) {
      const gains = rest
        .map((c, i) => ({ c, i, gain: requirementsOf(c).filter((r) => !covered.has(r)).length }))
        .filter((x) => x.gain > 0)
        .sort((a, b) => b.gain - a.gain || a.i - b.i);
      if (!gains.length) break;
      const fitting = gains.find((x) => tryAdd(x.c));
      for (const x of gains)
        if (x === fitting || !fitting || gains.indexOf(x) < gains.indexOf(fitting)) rest.splice(rest.indexOf(x.c), 1);
      if (!fitting) break;
      for (const r of requirementsOf(fitting.c)) covered.add(r);
    }
  }
  // Fill pass: the remaining chains in rerank order; a chain that does not fit is skipped, later smaller ones may.
  for (const candidate of rest) tryAdd(candidate);
  return { chains: selected, evidence, estimatedTokens: evidence ? estimateTokens(evidence) : 0 };
}

/** A chain to select whose entries may not be read yet (src/core/select-evidence.ts reads them on demand). */
export interface LazyCandidate {
  /** The chain, once its records are read. */
  chain(): Chain | undefined;
  /** The least it can render to, from the shard heads (src/evidence/chains.ts skeletonChain). */
  skeleton: Chain;
  /** Tokens its texts may add to the skeleton (its records' sizes): only decides how many chains one read takes. */
  textTokens: number;
}

/**
 * selectWithinBudget without a coverage pass, over chains read on demand: the same selection as over every chain
 * read (its slow twin, tested against it), reading fewer. A chain whose skeleton does not fit next to the chains
 * already kept cannot fit read, so it is skipped unread. The first read takes the best chains until their estimated
 * sizes reach RANKING.firstReadShare times the budget; should an unread chain still fit after that, one more read takes
 * every unread chain that may (the room left is then small).
 */
export async function selectWithinBudgetLazily(
  ranked: readonly LazyCandidate[],
  read: (batch: readonly LazyCandidate[]) => Promise<void>,
  render: (chains: readonly Chain[]) => string,
  cap: number,
): Promise<BudgetSelection> {
  const selected: { chain: Chain; rank: number }[] = [];
  let evidence: string | null = null;
  const renderWith = (chain: Chain, rank: number) =>
    render([...selected, { chain, rank }].sort((a, b) => a.rank - b.rank).map((s) => s.chain));
  const used = () => (evidence ? estimateTokens(evidence) : 0);
  // Tokens of the selection with this unread chain's skeleton added: at least what the chain read would take.
  const skeletonTokens = (rank: number) => estimateTokens(renderWith(ranked[rank]!.skeleton, rank));
  let reads = 0;
  for (let rank = 0; rank < ranked.length; rank++) {
    const candidate = ranked[rank]!;
    if (!candidate.chain()) {
      if (skeletonTokens(rank) > cap) continue;
      // The unread chains from here that may fit; the first read only the best of them, until their skeletons and
      // estimated texts reach RANKING.firstReadShare budgets, and the one after.
      const batch: LazyCandidate[] = [];
      let room = reads++ === 0 ? cap * RANKING.firstReadShare : Infinity;
      for (let r = rank; r < ranked.length && room >= 0; r++) {
        const c = ranked[r]!;
        if (c.chain()) continue;
        const tokens = skeletonTokens(r);
        if (tokens > cap) continue;
        batch.push(c);
        room -= tokens - used() + c.textTokens;
      }
      await read(batch);
    }
    const chain = candidate.chain();
    if (!chain) throw new Error('a chain read for the token budget has no entries');
    const text = renderWith(chain, rank);
    if (estimateTokens(text) > cap) continue;
    selected.push({ chain, rank });
    selected.sort((a, b) => a.rank - b.rank);
    evidence = text;
  }
  return { chains: selected.map((s) => s.chain), evidence, estimatedTokens: used() };
}
