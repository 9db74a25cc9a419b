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
      for (const x of gains) if (x === fitting || !fitting || gains.indexOf(x) < gains.indexOf(fitting)) rest.splice(rest.indexOf(x.c), 1);
      if (!fitting) break;
      for (const r of requirementsOf(fitting.c)) covered.add(r);
    }
  }
  // Fill pass: the remaining chains in rerank order; a chain that does not fit is skipped, later smaller ones may.
  for (const candidate of rest) tryAdd(candidate);
  return { chains: selected, evidence, estimatedTokens: evidence ? estimateTokens(evidence) : 0 };
}
