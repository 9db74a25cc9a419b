import type { z } from 'zod';
import type { Chain } from '../evidence/model';
import type { CatalogSource } from '../../index-format/types';
import type { Coverage } from '../schema/response';
import { metricCode, metricCodes, METRICS } from '../../index-format/metrics';
import type { Facet } from '../plan/facets';
import type { Requirement, RequirementSet } from '../plan/requirements';

type CoverageValue = z.infer<typeof Coverage>;

/** Does any entry of the chain state the metric (its tagged metric, or the metric named in its text)? */
export function namesMetric(chain: Chain, code: number): boolean {
  return chain.entries.some((e) => e.metric === code || metricCodes(e.consensus, METRICS.length).includes(code));
}

/** Does the chain hold what the facet asks for: its line item, or evidence from its filing? */
export function coversFacet(chain: Chain, facet: Facet): boolean {
  const covers = facet.covers;
  if ('metric' in covers) return namesMetric(chain, covers.metric);
  return chain.entries.some((e) => e.sources.some((s) => covers.sources.has(s.source)));
}

/** The facets a chain covers. */
export function facetsOfChain(chain: Chain, facets: readonly Facet[]): string[] {
  return facets.filter((f) => coversFacet(chain, f)).map((f) => f.id);
}

/** Does any cited source of the chain belong to the requirement's issuer and fiscal year (each when set)? */
function fromScope(chain: Chain, r: Requirement, sources: readonly CatalogSource[]): boolean {
  // A period requirement is one filing: two 10-Qs share issuer and fiscal year, so only the filing itself counts.
  if (r.sources) return chain.entries.some((e) => e.sources.some((s) => r.sources!.has(s.source)));
  return chain.entries.some((e) =>
    e.sources.some((s) => {
      const meta = sources[s.source]?.meta;
      if (!meta) return false;
      return (!r.ticker || meta.sec_ticker === r.ticker) && (!r.fiscalYear || meta.sec_fiscal_year === r.fiscalYear);
    }),
  );
}

/**
 * Requirement ids a chain supports. A chain supports a requirement when it was retrieved by that requirement's
 * branch (whose filters already fix issuer and year) or cites a source of the requirement's issuer and year, and,
 * for a requirement with a metric, states that metric. The metric check applies to branch chains too: a branch
 * returns its best chains even when none is about the metric, and counting those would call a requirement covered
 * by evidence about something else. So one chain can support several requirements (a table row for two years).
 */
export function requirementsOfChain(
  chain: Chain,
  plan: RequirementSet,
  sources: readonly CatalogSource[],
  retrievedBy: ReadonlySet<string>,
): string[] {
  return plan.requirements
    .filter(
      (r) =>
        (retrievedBy.has(r.id) || fromScope(chain, r, sources)) &&
        (!r.metric || namesMetric(chain, metricCode(r.metric))),
    )
    .map((r) => r.id);
}

/**
 * Coverage (spec 2.5, 3) from what was actually returned. `available` are the chains that reached budget
 * selection (after retrieval, dedupe and max_evidence), `returned` those that fit max_evidence_tokens.
 * A requirement is covered when a returned chain supports it, omitted_by_budget when only chains that did not fit
 * supported it, missing otherwise. Limitations: requirement_limit (plan cut), missing_evidence (a requirement
 * missing), token_budget (a requirement omitted by the budget).
 */
export function assessCoverage(
  plan: RequirementSet,
  available: readonly Chain[],
  returned: readonly Chain[],
  supports: (chain: Chain) => readonly string[],
): CoverageValue {
  if (!plan.decomposed)
    return {
      status: 'not_assessed',
      requirement_count: 0,
      covered_requirement_count: 0,
      limitations: ['planning_fallback'],
    };
  const returnedSet = new Set(returned);
  const requirements = plan.requirements.map((r) => {
    const retrieved = available.filter((c) => supports(c).includes(r.id));
    const delivered = retrieved.filter((c) => returnedSet.has(c)).length;
    const status = delivered > 0 ? 'covered' : retrieved.length > 0 ? 'omitted_by_budget' : 'missing';
    return {
      id: r.id,
      label: r.label,
      query: r.query,
      status,
      retrieved_evidence_count: retrieved.length,
      returned_evidence_count: delivered,
    } as const;
  });
  const covered = requirements.filter((r) => r.status === 'covered').length;
  const status =
    covered === 0 ? 'none' : covered === requirements.length && !plan.omitted.length ? 'complete' : 'partial';
  const limitations: NonNullable<CoverageValue['limitations']> = [];
  if (plan.omitted.length) limitations.push('requirement_limit');
  if (requirements.some((r) => r.status === 'missing')) limitations.push('missing_evidence');
  if (requirements.some((r) => r.status === 'omitted_by_budget')) limitations.push('token_budget');
  return {
    status,
    requirement_count: requirements.length,
    covered_requirement_count: covered,
    requirements,
    ...(plan.omitted.length ? { omitted_requirements: plan.omitted } : {}),
    ...(limitations.length ? { limitations } : {}),
  };
}
