import {
  estimateTokens,
  selectWithinBudget,
  selectWithinBudgetLazily,
  type BudgetSelection,
  type LazyCandidate,
  type SelectedEvidence,
} from '../evidence/budget';
import {
  materializeChain,
  recordTextTokens,
  skeletonChain,
  unreadRecords,
  type PendingChain,
} from '../evidence/chains';
import type { Chain } from '../evidence/model';
import { matchesConditions } from '../filters/match';
import type { CatalogHeader } from '../../index-format/types';
import { assessCoverage, facetsOfChain, requirementsOfChain } from './coverage';

import type { QueryPlan } from '../plan/query-plan';
import { readRecords } from '../search/retrieve';
import { RANKING } from '../search/ranking';
import { withLeadPassages, withPassages } from './passages';
import type { ExecutedPlan } from './execute';
import type { IndexReader } from '../../index-format/index-reader';

export interface SelectOptions {
  maxEvidence: number | null;
  /** How the chosen chains render (the evidence format): the budget measures what is returned. */
  render: (chains: readonly Chain[]) => string;
}

/**
 * max_evidence, then the token budget (spec 2.4). The chains' records are read for the chains a response may return
 * only: under a budget without a coverage rule, those the budget may keep (selectWithinBudgetLazily); with a coverage
 * rule (chains covering still-uncovered requirements or facets are tried first, which reads their entries) or no
 * cap, every candidate.
 */
export async function selectEvidence(
  reader: IndexReader,
  catalog: CatalogHeader,
  plan: QueryPlan,
  executed: ExecutedPlan,
  options: SelectOptions,
): Promise<SelectedEvidence> {
  const ranked = options.maxEvidence === null ? executed.chains : executed.chains.slice(0, options.maxEvidence);
  // Uncapped, every entry shows its whole passage anyway (withPassages).
  const chains = plan.tokenCap === null ? ranked : withLeadPassages(ranked);
  // A caller's filters bound every source the response cites, agreeing and disagreeing filings included.
  const citable = (source: number) => matchesConditions(catalog.sources[source]!.meta, plan.callerConditions);
  const materialized = new Map<PendingChain, Chain>();
  const pendingOf = new Map<Chain, PendingChain>();
  const readChains = async (list: readonly PendingChain[]) => {
    const todo = list.filter((p) => !materialized.has(p));
    const unread = unreadRecords(
      todo.flatMap((p) => p.draft.nodes),
      new Map(todo.flatMap((p) => [...p.shards])),
    );
    const read = unread.size ? await readRecords(reader, unread) : null;
    for (const p of todo) {
      const chain = materializeChain(
        p.draft,
        read ? new Map([...p.shards, ...read]) : p.shards,
        citable,
        plan.agreeingCited,
      );
      materialized.set(p, chain);
      pendingOf.set(chain, p);
    }
  };
  const readAll = async () => {
    await readChains(chains);
    return chains.map((p) => materialized.get(p)!);
  };
  const requirements = plan.requirements ?? { decomposed: false, requirements: [], omitted: [] };
  // Memoized: budget selection asks again on every pass and coverage once more; each answer scans entry texts.
  const supported = new Map<Chain, string[]>();
  const supports = (c: Chain) => {
    let ids = supported.get(c);
    if (!ids)
      supported.set(
        c,
        (ids = requirementsOfChain(
          c,
          requirements,
          catalog.sources,
          executed.retrievedBy.get(pendingOf.get(c)!) ?? new Set(),
        )),
      );
    return ids;
  };
  const rule = plan.coverage;
  const covers =
    rule?.kind === 'requirements'
      ? supports
      : rule?.kind === 'facets'
        ? (c: Chain) => facetsOfChain(c, rule.facets)
        : undefined;
  let selection: BudgetSelection;
  if (plan.reads === 'budget' && plan.tokenCap !== null) {
    const candidates = chains.map(
      (p): LazyCandidate => ({
        chain: () => materialized.get(p),
        skeleton: skeletonChain(p.draft, p.shards),
        textTokens: recordTextTokens(p.draft, p.shards),
      }),
    );
    const pendingByCandidate = new Map(candidates.map((c, i) => [c, chains[i]!]));
    selection = await selectWithinBudgetLazily(
      candidates,
      (batch) => readChains(batch.map((c) => pendingByCandidate.get(c)!)),
      options.render,
      plan.tokenCap,
    );
  } else selection = selectWithinBudget(await readAll(), options.render, plan.tokenCap, covers);
  // Coverage counts the chains chosen, as read (the passages below copy them).
  const chosenChains = selection.chains;
  if (selection.chains.length && RANKING.chains.passageStatements) {
    const chosen = selection.chains.map((chain) => ({ chain, pending: pendingOf.get(chain)! }));
    const grown = await withPassages(
      reader,
      chosen,
      (draft, shards) => materializeChain(draft, shards, citable, plan.agreeingCited),
      options.render,
      plan.tokenCap,
      selection.evidence!,
    );
    selection = { chains: grown.chains, evidence: grown.evidence, estimatedTokens: estimateTokens(grown.evidence) };
  }

  const out: SelectedEvidence = { available: chains.length, selection };
  if (executed.hitCount && chains.length && !selection.chains.length) {
    out.smallestChainTokens = Math.min(...(await readAll()).map((c) => estimateTokens(options.render([c]))));
  }
  // Coverage from what was actually returned; a plan that did not decompose is the original question.
  if (plan.requirements) out.coverage = assessCoverage(plan.requirements, await readAll(), chosenChains, supports);
  return out;
}
