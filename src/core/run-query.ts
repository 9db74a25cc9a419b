import type { Chain } from '../evidence/model';
import { filterVocabulary, parseMetadataFilters } from '../filters/parse';
import { planQuery, type QueryPlan } from '../plan/query-plan';
import type { Scope } from '../plan/scope';
import { analyzeQuestion, type QuestionAnalysis } from '../question/analyze';
import { renderEvidence } from '../render/evidence';
import { renderResponse, type ResponseBody } from '../render/response';
import type { ResearchRequest } from '../schema/request';
import { effortLimits } from '../search/effort';
import type { RetrievalTrace } from '../search/retrieve';
import { executePlan, type ExecutedPlan, type PassTrace } from './execute';
import type { IndexReader } from '../../index-format/index-reader';
import { resolveScope } from './resolve-scope';
import { selectEvidence } from './select-evidence';

export type { PassTrace } from './execute';

/** A request after validation and query normalization (the HTTP layer's output; basic mode carries no filters). */
export type ValidRequest = ResearchRequest & { normalizedQuery: string };

export interface QueryOutcome {
  body: ResponseBody;
  /** The first pass's retrieval at the top level, and every step's value below it (for logs, tests and the bench). */
  trace: RetrievalTrace & {
    analysis: QuestionAnalysis;
    scope: Scope;
    plan: QueryPlan;
    passes: PassTrace[];
    retrieveCalls: number;
    /** The ranking preference's label and its first sub-pass (chains it kept, its retrieval), when there was one. */
    preference?: { label: string; preferredChains: number; pass: RetrievalTrace | null };
    /** Soft periods: the later annual reports searched for a named fiscal year, and that pass. */
    widened?: { years: string[]; chains: number; pass: RetrievalTrace };
    /** Each returned chain's ranking signals (src/search/ranking.ts), in the order of the evidence. */
    explain: (Chain['explain'] | null)[];
  };
}

/** How a query reads its chains' records (tests and benchmarks compare the two). */
export interface RunOptions {
  /**
   * 'budget' (the default): under a token budget without a coverage rule, only the chains the budget may keep;
   * 'every_chain': every chain the passes return (the slow twin: the same response, more records read).
   */
  recordReads?: 'budget' | 'every_chain';
}

/**
 * The query pipeline, one way: analyse the question -> resolve the issuers it reads -> plan -> execute the passes ->
 * select the evidence within the caps -> render the response. Deterministic for a given index and request.
 */
export async function runQuery(
  reader: IndexReader,
  req: ValidRequest,
  options: RunOptions = {},
): Promise<QueryOutcome> {
  const submitted = req.metadata_filters && Object.keys(req.metadata_filters).length ? req.metadata_filters : null;
  const callerConditions = submitted ? parseMetadataFilters(submitted, filterVocabulary(reader.directory)) : [];
  const analysis = analyzeQuestion(req.normalizedQuery, reader.directory);
  const effort = effortLimits(req.effort, analysis.shape);
  const scope = await resolveScope(reader, analysis, callerConditions, effort);
  const catalog = await reader.scope(scope.tickers);
  const tokenCap = req.retrieval?.max_evidence_tokens ?? null;
  const plan = planQuery(analysis, catalog, {
    mode: req.mode,
    effort,
    callerConditions,
    tokenCap,
    recordReads: options.recordReads ?? 'budget',
  });
  const executed = await executePlan(reader, catalog, plan);
  const render = (chains: readonly Chain[]) => renderEvidence(catalog, chains, req.include.evidence_format);
  const selected = await selectEvidence(reader, catalog, plan, executed, {
    maxEvidence: req.retrieval?.max_evidence ?? null,
    render,
  });
  const body = renderResponse({ catalog, request: req, plan, hitCount: executed.hitCount, selected });
  return { body, trace: traceOf(analysis, scope, plan, executed, selected.selection.chains) };
}

function traceOf(
  analysis: QuestionAnalysis,
  scope: Scope,
  plan: QueryPlan,
  executed: ExecutedPlan,
  returned: readonly Chain[],
): QueryOutcome['trace'] {
  const { passes } = executed;
  const first = passes.find((p) => p.retrieval)!;
  const preferred = passes.find((p) => p.preferredChains !== null);
  const later = passes.find((p) => p.purpose === 'later_years' && p.retrieval);
  return {
    ...first.retrieval!,
    searchedShards: executed.searchedShards,
    analysis,
    scope,
    plan,
    passes,
    retrieveCalls: executed.retrieveCalls,
    ...(preferred
      ? {
          preference: {
            label: plan.passes.find((p) => p.preferred)!.preferred!.label,
            preferredChains: preferred.preferredChains!,
            pass: preferred.preference,
          },
        }
      : {}),
    ...(later && plan.laterYears
      ? { widened: { years: plan.laterYears, chains: later.kept, pass: later.retrieval! } }
      : {}),
    explain: returned.map((c) => c.explain ?? null),
  };
}
