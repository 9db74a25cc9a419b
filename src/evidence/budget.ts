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
  const order: Chain[] = [];
  if (requirementsOf) {
    // Greedy pass: repeatedly take the highest-ranked chain that covers the most still-uncovered requirements.
    const covered = new Set<string>();
    const rest = [...ranked];
    for (;;) {
      let bestIdx = -1;
      let bestGain = 0;
      rest.forEach((c, i) => {
        const gain = requirementsOf(c).filter((r) => !covered.has(r)).length;
        if (gain > bestGain) [bestIdx, bestGain] = [i, gain];
      });
      if (bestIdx < 0) break;
      const [chosen] = rest.splice(bestIdx, 1);
      order.push(chosen!);
      for (const r of requirementsOf(chosen!)) covered.add(r);
    }
    order.push(...rest);
  } else order.push(...ranked);

  const selected: Chain[] = [];
  let evidence: string | null = null;
  for (const candidate of order) {
    const trial = [...selected, candidate];
    // Keep rerank order in the output whatever order the candidates were tried in.
    trial.sort((a, b) => ranked.indexOf(a) - ranked.indexOf(b));
    const text = render(trial);
    if (estimateTokens(text) <= cap) {
      selected.splice(0, selected.length, ...trial);
      evidence = text;
    }
  }
  return { chains: selected, evidence, estimatedTokens: evidence ? estimateTokens(evidence) : 0 };
}
