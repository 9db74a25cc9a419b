import type { SelectedEvidence } from '../evidence/budget';
import { TOKEN_ESTIMATOR } from '../evidence/budget';
import { NOTICES, type ResponseNotice } from '../schema/notices';
import { conditionsToObject } from '../filters/parse';
import type { CatalogHeader } from '../../index-format/types';
import type { QueryPlan } from '../plan/query-plan';
import type { ResearchRequest } from '../schema/request';
import type { ResearchResponse } from '../schema/response';
import { renderAgentContext } from './agent-context';
import { renderDashboard } from './dashboard';
import { profileEvidence, toMetadataDistribution } from './distribution';
import { EVIDENCE_INSTRUCTIONS } from './instructions';

export type ResponseBody = Omit<ResearchResponse, 'request_id'>;

/** Spec 2.5's field order, so responses read the same way every time. */
const FIELD_ORDER = [
  'notices',
  'metadata_distribution',
  'metadata_dashboard',
  'evidence',
  'evidence_instructions',
  'agent_context',
  'summary',
  'coverage',
  'evidence_budget',
  'retrieval_plan',
] as const;

const DEFAULT_NO_EVIDENCE = 'No evidence matched the query and filters.';

/** What the outcome adds to the plan's notices: no evidence, or evidence cut by the token budget. */
function outcomeNotices(
  hitCount: number,
  selected: SelectedEvidence,
  tokenCap: number | null,
): { notices: ResponseNotice[]; noEvidenceReason: string } {
  const { available, selection } = selected;
  if (!hitCount)
    return {
      notices: [NOTICES.noMatchingStatement()],
      noEvidenceReason: DEFAULT_NO_EVIDENCE,
    };
  if (!available)
    return {
      notices: [NOTICES.noRelevantChain()],
      noEvidenceReason: DEFAULT_NO_EVIDENCE,
    };
  if (!selection.chains.length) {
    const reason = NOTICES.budgetShortfall(tokenCap, available, selected.smallestChainTokens);
    return {
      notices: [NOTICES.evidenceOmittedByBudget(reason)],
      noEvidenceReason: reason,
    };
  }
  if (selection.chains.length < available) {
    return {
      notices: [
        NOTICES.evidenceTruncatedByBudget(tokenCap, selection.chains.length, available, selection.estimatedTokens),
      ],
      noEvidenceReason: DEFAULT_NO_EVIDENCE,
    };
  }
  return { notices: [], noEvidenceReason: DEFAULT_NO_EVIDENCE };
}

export interface ResponseInput {
  catalog: CatalogHeader;
  request: Pick<ResearchRequest, 'mode' | 'effort' | 'include' | 'metadata_filters'>;
  plan: QueryPlan;
  hitCount: number;
  selected: SelectedEvidence;
}

/** The response body: every section the request includes, in spec 2.5's order. The one place that builds it. */
export function renderResponse({ catalog, request, plan, hitCount, selected }: ResponseInput): ResponseBody {
  const { tokenCap } = plan;
  const { include } = request;
  const { selection } = selected;
  const outcome = outcomeNotices(hitCount, selected, tokenCap);
  const notices = [...plan.notices, ...outcome.notices];
  const warnings = notices.filter((n) => n.level === 'warning').map((n) => n.message);
  const submitted =
    request.metadata_filters && Object.keys(request.metadata_filters).length ? request.metadata_filters : null;
  const body: ResponseBody = {};
  if (notices.length) body.notices = notices.map(({ code, message }) => ({ code, message }));
  if (include.metadata_distribution || include.metadata_dashboard) {
    const profile = profileEvidence(catalog, selection.chains);
    if (include.metadata_distribution) body.metadata_distribution = toMetadataDistribution(profile);
    if (include.metadata_dashboard) body.metadata_dashboard = renderDashboard(profile);
  }
  if (include.evidence && selection.evidence) {
    body.evidence = selection.evidence;
    if (include.evidence_instructions) body.evidence_instructions = EVIDENCE_INSTRUCTIONS;
  }
  if (selected.coverage) body.coverage = selected.coverage;
  // The pass plan itself: every retrieval branch with its own filters.
  if (plan.requirements) {
    body.retrieval_plan = {
      queries: plan.passes.map((p) => ({
        query: p.query,
        label: p.label,
        applied_metadata_filters: conditionsToObject(p.conditions),
      })),
    };
  }
  if (include.agent_context) {
    body.agent_context = renderAgentContext({
      instructions: EVIDENCE_INSTRUCTIONS,
      evidence: selection.evidence,
      noEvidenceReason: outcome.noEvidenceReason,
      ...(body.coverage ? { coverage: body.coverage } : {}),
      warnings,
    });
  }
  if (include.evidence || include.agent_context) {
    body.evidence_budget = {
      requested_max_tokens: tokenCap,
      estimator: TOKEN_ESTIMATOR,
      estimated_tokens: selection.estimatedTokens,
      available_evidence_count: selected.available,
      returned_evidence_count: selection.chains.length,
      truncated: selection.chains.length < selected.available,
    };
  }
  if (include.summary) {
    body.summary = {
      domain: catalog.domain,
      mode: request.mode,
      effort: request.effort,
      evidence_count: selection.chains.length,
      ...(submitted ? { submitted_metadata_filters: submitted } : {}),
      ...(plan.conditions.length ? { applied_metadata_filters: conditionsToObject(plan.conditions) } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  }
  const ordered: ResponseBody = {};
  for (const k of FIELD_ORDER) if (body[k] !== undefined) (ordered as Record<string, unknown>)[k] = body[k];
  return ordered;
}
