import {
  inferFilters,
  sectionPreference,
  withStatementPreference,
  type InferredFilters,
  type RankingPreference,
} from '../filters/infer';
import { matchesConditions } from '../filters/match';
import { conditionsToObject, type Condition } from '../filters/parse';
import type { CatalogHeader } from '../../index-format/types';
import { heldSourceList, heldSources } from '../../index-format/views';
import type { QuestionAnalysis } from '../question/analyze';
import { NOTICES, type ResponseNotice } from '../schema/notices';
import type { Mode } from '../schema/request';
import type { EffortLimits } from '../search/effort';
import { RANKING } from '../search/ranking';
import { financialStatementCode } from '../../index-format/financial-statements';
import { lineItemFacets, periodFacets, type Facet } from './facets';
import { planPasses, type RetrievalPass } from './passes';
import { latestAnnualSources } from './periods';
import { QUARTER_WORDS } from '../question/periods';
import type { PeriodCredit } from '../question/terms';
import { planRequirements, type RequirementSet } from './requirements';

/** What the planner reads of a request besides its question: the mode, the caller's filters and the budget. */
export interface PlanRequest {
  mode: Mode;
  /** The effort limits of the request's effort and question shape (src/search/effort.ts effortLimits). */
  effort: EffortLimits;
  callerConditions: Condition[];
  tokenCap: number | null;
  /** 'every_chain' reads every chain's records (the budget path's slow twin, RunOptions.recordReads). */
  recordReads: 'budget' | 'every_chain';
}

/**
 * A pass's ranking-preference sub-pass: the same text over the sections, quarters or statements the question
 * prefers, retrieved on its own (their statements may rank below the general pass's depth), whose chains rank as if
 * `bonus` relevance points higher than the pass's general chains.
 */
export interface PreferredSubPass {
  /** For notices and the trace: "risk factors (10K-Item-1A)", "Q2 2023 (1 quarterly report)". */
  label: string;
  /** The pass's conditions and the preferred item tags. */
  conditions: Condition[];
  /** Catalog sources it may search (the preferred filings within the pass's own sources); absent = any allowed. */
  sources?: number[];
  /**
   * Primary financial statement codes its hits must be printed on (index-format/financial-statements.ts); absent = any.
   */
  statements?: number[];
  itemTags: string[] | null;
  filings: string[] | null;
  /** Relevance points its chains carry into every merge (RANKING.preferenceBonus, or namedStatementBonus). */
  bonus: number;
  /** At most this many preferred chains (a statement preference leaves room for notes and MD&A); null = no cap. */
  maxChains: number | null;
}

export type PlannedPass = RetrievalPass & { preferred: PreferredSubPass | null };

/**
 * What the token budget covers first, when it must: an agentic plan's requirements, or a research question's facets.
 * Coverage reads every chain's entries, so with a rule every candidate chain is read before selection.
 */
export type CoverageRule =
  | { kind: 'requirements'; requirements: RequirementSet }
  | { kind: 'facets'; facets: Facet[] }
  | null;

/** The whole plan of one request, as a value: the executor runs it, the trace prints it, tests pin it. */
export interface QueryPlan {
  effort: EffortLimits;
  callerConditions: Condition[];
  /** The caller's filters and the inferred ones (summary.applied_metadata_filters). */
  conditions: Condition[];
  /** Executed in order; each pass's chains join the chains so far as its `merge` says (src/plan/passes.ts). */
  passes: PlannedPass[];
  /** Soft periods: the later fiscal years whose 10-Ks a `later_years` pass searches, or null. */
  laterYears: string[] | null;
  /** The notices the plan itself implies (inferred filters, preferences, widened periods), in response order. */
  notices: ResponseNotice[];
  coverage: CoverageRule;
  /** agentic_research reports its requirements (coverage) and its passes (retrieval_plan); null otherwise. */
  requirements: RequirementSet | null;
  /** max_evidence_tokens, or null for no cap. */
  tokenCap: number | null;
  /** 'budget': only the chains the token budget may keep are read; 'every_chain': all (coverage, no cap, the twin). */
  reads: 'budget' | 'every_chain';
  /** Agreeing filings an entry cites: the nearest under a token budget, the others counted (src/evidence/chains.ts). */
  agreeingCited: number;
}

/** Filters and preferences the question implies, by mode: research and agentic infer filters, basic only routes. */
interface Reading {
  conditions: Condition[];
  /** Basic mode: the companies and years the question names, as conditions for its routed pass (never a filter). */
  route: Condition[];
  preference: RankingPreference | null;
  /** Filings (doc ids) of the quarters and period ends the question names, in every mode (periodCredit). */
  periodFilings: readonly string[] | null;
  widened: InferredFilters['widened'];
  notices: ResponseNotice[];
}

function readFilters(analysis: QuestionAnalysis, catalog: CatalogHeader, mode: Mode, caller: Condition[]): Reading {
  if (mode === 'basic') {
    // basic mode infers nothing, but the companies and years a question names still pick where to look first, and
    // the sections it is about are preferred as in research (a named quarter is not: it is a filing, and basic mode
    // routes filings by year; its words are credited to that filing's statements, periodCredit).
    const inferred = inferFilters(analysis, catalog, []);
    const route = inferred.conditions;
    const routed = heldSourceList(catalog.sources).filter((s) => matchesConditions(s.meta, route));
    return {
      conditions: caller,
      route,
      preference: sectionPreference(analysis.sectionIntents, routed),
      periodFilings: inferred.preference?.filings ?? null,
      widened: null,
      // Routing and priors add no notice, but a name the question uses as a ticker that no indexed company has is the
      // caller's to know: the evidence then comes from whichever companies match the words.
      notices: inferred.notices.filter((n) => n.code === 'COMPANY_NOT_IN_INDEX'),
    };
  }
  const inferred = inferFilters(analysis, catalog, caller);
  const notices: ResponseNotice[] = [];
  if (inferred.conditions.length) {
    notices.push(NOTICES.filtersInferred(JSON.stringify(conditionsToObject(inferred.conditions))));
  }
  notices.push(...inferred.notices);
  return {
    conditions: [...caller, ...inferred.conditions],
    route: [],
    preference: inferred.preference,
    periodFilings: inferred.preference?.filings ?? null,
    widened: inferred.widened,
    notices,
  };
}

/**
 * Facets: research questions that need several line items, or one issuer's figures across several filings;
 * basic-mode questions that need several line items, within the filings the question names (its routing).
 */
function facetsOf(analysis: QuestionAnalysis, catalog: CatalogHeader, mode: Mode, reading: Reading): Facet[] {
  if (mode === 'research') {
    const lineItems = lineItemFacets(analysis);
    // A named quarter already picks its filing (the ranking preference); spreading over others would dilute it.
    return lineItems.length || reading.preference?.filings
      ? lineItems
      : periodFacets(analysis, catalog.sources, reading.conditions);
  }
  return mode === 'basic' && reading.route.length ? lineItemFacets(analysis) : [];
}

/**
 * A question naming a quarter or a year to date ("the first quarter of 2023", "the first half of fiscal 2023"): its
 * words for that period count, in the lexical leg, as held by every statement of the filings that report it, in every
 * mode. Those filings' table rows are indexed by the period as "three months ended April 1, 2023" or "Apr 1,
 * 2023", never as "first quarter", so without it the sentences that merely repeat "in the first quarter of 2023"
 * outranked the row that answers ("cash at the end of the first quarter": the balance sheet's cash row). The words
 * keep their weight elsewhere: a sentence of another filing saying "first quarter" still matches them, and the years
 * stay topic terms (they pick the column and the year's sentence: docs/EXPERIMENTS.md "Reading the question"). Null
 * when the question names no quarter or no filing reports it.
 */
function periodCredit(analysis: QuestionAnalysis, catalog: CatalogHeader, reading: Reading): PeriodCredit | null {
  if (!analysis.periods.quarters.length || !reading.periodFilings?.length) return null;
  const terms = analysis.lexical.terms.filter((t) => QUARTER_WORDS.has(t));
  if (!terms.length) return null;
  const docs = new Set(reading.periodFilings);
  return { terms, sources: [...heldSources(catalog.sources)].filter((i) => docs.has(catalog.sources[i]!.doc_id)) };
}

/** The pass's lexical query with the credit of the period words it searches with, when it has any. */
function withPeriodCredit(pass: RetrievalPass, credit: PeriodCredit | null): RetrievalPass {
  const terms = credit?.terms.filter((t) => pass.lexical.terms.includes(t)) ?? [];
  return terms.length
    ? { ...pass, lexical: { ...pass.lexical, periodCredit: { terms, sources: credit!.sources } } }
    : pass;
}

/** Catalog sources of the preferred filings, within a pass's own sources when it has them. */
function preferredSources(
  catalog: CatalogHeader,
  filings: readonly string[],
  within: readonly number[] | undefined,
): number[] {
  const docs = new Set(filings);
  const inside = within && new Set(within);
  return [...heldSources(catalog.sources)].filter(
    (i) => docs.has(catalog.sources[i]!.doc_id) && (!inside || inside.has(i)),
  );
}

function preferredSubPass(
  pass: RetrievalPass,
  preference: RankingPreference,
  catalog: CatalogHeader,
  analysis: QuestionAnalysis,
  effort: EffortLimits,
): PreferredSubPass {
  const sources = preference.filings ? preferredSources(catalog, preference.filings, pass.sources) : pass.sources;
  const itemConditions: Condition[] = preference.itemTags
    ? [{ field: 'sec_item_tag', op: 'in', values: preference.itemTags }]
    : [];
  return {
    label: preference.label,
    conditions: [...pass.conditions, ...itemConditions],
    ...(sources ? { sources } : {}),
    ...(preference.statements ? { statements: preference.statements.map(financialStatementCode) } : {}),
    itemTags: preference.itemTags,
    filings: preference.filings,
    // A statement the question names ("only in the income statement") is a stronger preference than one inferred.
    bonus: analysis.statements.named ? RANKING.namedStatementBonus : RANKING.preferenceBonus,
    // A statement's rows fill every chain the plan keeps when a question names it; the rest of the room stays for the
    // notes and MD&A, where a figure the statement does not print is (docs/PARAMETERS.md).
    maxChains: preference.statements ? Math.ceil(effort.maxChains * RANKING.statementChainShare) : null,
  };
}

/** The notices of the plan's passes and preference (basic mode adds none: spec rule 1, a fixed set of sections). */
function passNotices(
  passes: readonly PlannedPass[],
  reading: Reading,
  catalog: CatalogHeader,
  latest: readonly number[],
): ResponseNotice[] {
  const notices: ResponseNotice[] = [];
  if (passes.some((p) => p.purpose === 'latest')) {
    const filings = new Set(latest.map((i) => catalog.sources[i]!.doc_id)).size;
    notices.push(NOTICES.latestFilingPreferred(filings));
  }
  if (passes.some((p) => p.purpose === 'later_years') && reading.widened) {
    notices.push(NOTICES.periodWidened(reading.widened.years));
  }
  if (reading.preference) {
    notices.push(NOTICES.rankingPreference(reading.preference.label));
  }
  return notices;
}

/**
 * The plan of a request: its filters (the caller's and those inferred), the ranking preference, the agentic
 * requirements or research facets, and from them every retrieval pass with its preference sub-pass, the notices the
 * plan implies and how the evidence is read and covered. Pure: it reads the analysis and the scoped catalog only.
 */
export function planQuery(analysis: QuestionAnalysis, catalog: CatalogHeader, request: PlanRequest): QueryPlan {
  const { mode, effort, callerConditions, tokenCap } = request;
  const read = readFilters(analysis, catalog, mode, callerConditions);
  // A statement the question is about narrows the preference to its rows, whatever else it prefers.
  const reading: Reading = { ...read, preference: withStatementPreference(read.preference, analysis.statements.list) };
  const { preference } = reading;
  const requirements: RequirementSet =
    mode === 'agentic_research'
      ? planRequirements(analysis, catalog, reading.conditions)
      : { decomposed: false, requirements: [], omitted: [] };
  const facets = facetsOf(analysis, catalog, mode, reading);
  // A question that names no period is about each named company now: its latest annual report is searched first.
  const latest = requirements.decomposed
    ? []
    : latestAnnualSources(analysis, catalog.sources, mode === 'basic' ? reading.route : reading.conditions);
  const credit = periodCredit(analysis, catalog, reading);
  const passes: PlannedPass[] = planPasses({
    mode,
    analysis,
    conditions: reading.conditions,
    callerConditions,
    basicRoute: reading.route,
    widened: reading.widened,
    latest,
    facets,
    requirements,
  })
    .map((pass) => withPeriodCredit(pass, credit))
    .map((pass) => ({
      ...pass,
      preferred: preference && preferredSubPass(pass, preference, catalog, analysis, effort),
    }));
  const coverage: CoverageRule = requirements.decomposed
    ? { kind: 'requirements', requirements }
    : facets.length
      ? { kind: 'facets', facets }
      : null;
  return {
    effort,
    callerConditions,
    conditions: reading.conditions,
    passes,
    laterYears: passes.some((p) => p.purpose === 'later_years') ? (reading.widened?.years ?? null) : null,
    notices: [...reading.notices, ...(mode === 'basic' ? [] : passNotices(passes, reading, catalog, latest))],
    coverage,
    requirements: mode === 'agentic_research' ? requirements : null,
    tokenCap,
    reads:
      tokenCap !== null && request.recordReads !== 'every_chain' && mode !== 'agentic_research' && !facets.length
        ? 'budget'
        : 'every_chain',
    agreeingCited: tokenCap === null ? Infinity : RANKING.agreeingSourcesCited,
  };
}
