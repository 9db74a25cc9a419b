import { estimateTokens, selectWithinBudget, TOKEN_ESTIMATOR } from '../evidence/budget';
import { buildChains, claimKey } from '../evidence/chains';
import type { Chain } from '../evidence/model';
import { matchesConditions } from '../filters/match';
import { inferFilters, type InferredFilters, type QueryNotice, type RankingPreference } from '../filters/infer';
import { conditionsToObject, parseMetadataFilters, type Condition, type FilterVocabulary } from '../filters/parse';
import type { CatalogHeader, Directory } from '../format/types';
import { renderAgentContext } from '../render/agent-context';
import { renderDashboard } from '../render/dashboard';
import { profileEvidence, toMetadataDistribution } from '../render/distribution';
import { renderEvidence } from '../render/evidence';
import { EVIDENCE_INSTRUCTIONS } from '../render/instructions';
import { bm25Idf } from '../search/bm25';
import { EFFORT_PLANS, PREFERENCE_BONUS, type EffortPlan } from '../search/plan';
import { retrieve, type Hit, type RequestCosines, type RetrievalTrace } from '../search/retrieve';
import type { ResearchRequest } from '../schema/request';
import type { ResearchResponse } from '../schema/response';
import { tokenize } from '../text/tokenize';
import type { IndexReader } from './index-reader';
import { assessCoverage, requirementsOfChain } from '../plan/coverage';
import { mergeBranches } from '../plan/merge';
import { planRequirements, type RequirementPlan } from '../plan/requirements';
import { facetsOfChain, lineItemFacets, periodFacets, type Facet } from '../plan/facets';
import { planScope, routeScope, type Scope } from '../plan/scope';
import { queryTerms as toQueryTerms } from '../search/query-terms';

/** A request after validation and query normalization (the HTTP layer's output; basic mode carries no filters). */
export type ValidRequest = ResearchRequest & { normalizedQuery: string };

export interface QueryOutcome {
  body: Omit<ResearchResponse, 'request_id'>;
  trace: RetrievalTrace & {
    /** The issuers the request read (src/plan/scope.ts). */
    scope: Scope;
    /** The ranking preference inferred from the question, and the extra retrieval pass it took (item hints). */
    preference?: { label: string; preferredChains: number; pass: RetrievalTrace | null };
    /** Soft periods: the later annual reports searched for a named fiscal year, and that pass (filters/infer.ts). */
    widened?: { years: string[]; chains: number; pass: RetrievalTrace };
  };
}

/** Filter vocabulary from the directory: company names and tickers for sec_ticker, case-folded known values. */
export function filterVocabulary(catalog: Pick<Directory, 'companies' | 'field_values'>): FilterVocabulary {
  const aliases: FilterVocabulary['aliases'] = {};
  const tickers = new Map<string, string>();
  for (const c of catalog.companies) for (const a of [...c.aliases, c.ticker.toLowerCase()]) tickers.set(a, c.ticker);
  aliases.sec_ticker = tickers;
  for (const field of ['sec_gics_sector', 'sec_gics_sub_industry'] as const) {
    aliases[field] = new Map(Object.keys(catalog.field_values[field]).map((v) => [v.toLowerCase(), v]));
  }
  return { aliases };
}

/** Does a catalog source satisfy the preference (its item and its quarter, each when set)? */
function isPreferredSource(catalog: CatalogHeader, pref: RankingPreference, source: number): boolean {
  const s = catalog.sources[source]!;
  if (pref.itemTags && !pref.itemTags.includes(s.meta.sec_item_tag ?? '')) return false;
  if (pref.filings && !pref.filings.includes(s.doc_id)) return false;
  return true;
}

/** Catalog sources of the preferred filings, within a branch's own scope when it has one. */
function preferredSources(catalog: CatalogHeader, filings: readonly string[], within?: ReadonlySet<number>): Set<number> {
  const docs = new Set(filings);
  const out = new Set<number>();
  catalog.sources.forEach((s, i) => {
    if (docs.has(s.doc_id) && (!within || within.has(i))) out.add(i);
  });
  return out;
}

/**
 * Merges chains built from preferred sources with the general ones. A preferred chain ranks as if its relevance
 * were PREFERENCE_BONUS higher (its reported relevance_score is unchanged), so a clearly better general chain still
 * comes first; a general chain repeating a claim of a preferred chain is dropped. Capped at the plan's chain count.
 */
export function mergePreferred(preferred: readonly Chain[], general: readonly Chain[], plan: EffortPlan): Chain[] {
  const claims = new Set(preferred.flatMap((c) => c.entries.map((e) => claimKey(e.consensus))));
  const rest = general.filter((c) => !c.entries.some((e) => claims.has(claimKey(e.consensus))));
  const keyed = [...preferred.map((c) => [c, c.relevance + PREFERENCE_BONUS] as const), ...rest.map((c) => [c, c.relevance] as const)];
  // Stable: equal keys keep preferred-before-general and each list's own order.
  return keyed
    .map(([c, k], i) => ({ c, k, i }))
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .slice(0, plan.maxChains)
    .map((x) => x.c);
}

/**
 * The pure query pipeline: caller filters -> inferred filters and preferences -> retrieval -> chains -> caps and
 * token budget -> rendered sections. Everything here is deterministic for a given index and request.
 */
export async function runQuery(reader: IndexReader, req: ValidRequest): Promise<QueryOutcome> {
  const plan = EFFORT_PLANS[req.effort];
  const submitted = req.metadata_filters && Object.keys(req.metadata_filters).length ? req.metadata_filters : null;
  const callerConditions: Condition[] = submitted ? parseMetadataFilters(submitted, filterVocabulary(reader.directory)) : [];
  // The issuers this request reads; everything below sees their sources and shards only.
  const scopePlan = planScope(req.normalizedQuery, reader.directory, callerConditions);
  let scope: Scope;
  if (scopePlan.kind === 'issuers') scope = { tickers: scopePlan.tickers, source: scopePlan.source };
  else {
    const terms = toQueryTerms(req.normalizedQuery);
    const { lexicon } = await reader.terms(terms);
    scope = routeScope(reader.directory, lexicon, scopePlan.conditions, terms, plan.maxShards);
  }
  const catalog = await reader.scope(scope.tickers);
  const notices: QueryNotice[] = [];
  let conditions = callerConditions;
  let preference: RankingPreference | null = null;
  let widened: InferredFilters['widened'] = null;
  if (req.mode !== 'basic') {
    const inferred = inferFilters(req.normalizedQuery, catalog, callerConditions);
    conditions = [...callerConditions, ...inferred.conditions];
    preference = inferred.preference;
    widened = inferred.widened;
    if (inferred.conditions.length) {
      notices.push({ code: 'FILTERS_INFERRED', message: `Filters inferred from the query and applied: ${JSON.stringify(conditionsToObject(inferred.conditions))}.`, level: 'info' });
    }
    notices.push(...inferred.notices);
  }

  // basic mode infers nothing, but the companies and years a question names still pick where to look first.
  const basicRoute = req.mode === 'basic' ? inferFilters(req.normalizedQuery, catalog, []).conditions : [];

  const cosines: RequestCosines = new Map();
  // Entry texts recur across a request's passes (question, preference, later years, facets): tokenized once.
  const tokens = new Map<string, readonly string[]>();
  const tokenizeOnce = (text: string): string[] => {
    let t = tokens.get(text);
    if (!t) tokens.set(text, (t = tokenize(text)));
    return [...t];
  };

  // A caller's filters bound every source the response cites, agreeing and disagreeing filings included.
  const citableUnderCallerFilters = (source: number) => matchesConditions(catalog.sources[source]!.meta, callerConditions);

  /**
   * One retrieval pass and its chains: retrieval -> chains over the hits' shards (already loaded and cached by
   * retrieval; they carry the evidence graph consensus chains follow) -> the ranking preference's extra pass.
   */
  const gather = async (text: string, conds: readonly Condition[], onlySources?: ReadonlySet<number>) => {
    const retrieval = await retrieve(reader, catalog, text, conds, plan, onlySources, cosines);
    // Query-term weights for relevance scores: IDF from corpus-wide document frequencies.
    const { lexicon } = retrieval;
    const weights = new Map<string, number>();
    for (const t of new Set(retrieval.queryTerms)) {
      const id = lexicon.termIndex.get(t);
      weights.set(t, bm25Idf(lexicon.totalStatements, id === undefined ? 0 : lexicon.df[id]!));
    }
    const chainsOf = async (hits: readonly Hit[]) => {
      const hitShards = [...new Set(hits.map((h) => h.shard))];
      const shards = new Map(await Promise.all(hitShards.map(async (i) => [i, await reader.shard(i)] as const)));
      return buildChains(
        hits,
        plan,
        weights,
        tokenizeOnce,
        shards,
        (shard, local) => matchesConditions(catalog.sources[shard.source[local]!]!.meta, conds),
        citableUnderCallerFilters,
      );
    };
    let chains: Chain[] = await chainsOf(retrieval.hits);
    let pref: NonNullable<QueryOutcome['trace']['preference']> | undefined;
    if (preference) {
      // The preference gets its own retrieval pass: item hints restricted to those items (their statements may rank
      // below the general pass's depth), named quarters restricted to those filings' sources (the general pass
      // spreads its depth over every 10-Q of the fiscal year, and the named filing's rows fell below it).
      let pass: RetrievalTrace | null = null;
      let hits = retrieval.hits;
      const within = preference.filings ? preferredSources(catalog, preference.filings, onlySources) : onlySources;
      if (preference.itemTags || preference.filings) {
        const itemConds: Condition[] = preference.itemTags ? [{ field: 'sec_item_tag', op: 'in', values: preference.itemTags }] : [];
        const extra = await retrieve(reader, catalog, text, [...conds, ...itemConds], plan, within, cosines);
        pass = extra.trace;
        hits = extra.hits;
      }
      const preferred = await chainsOf(hits.filter((h) => isPreferredSource(catalog, preference!, h.source)));
      chains = mergePreferred(preferred, chains, plan);
      pref = { label: preference.label, preferredChains: preferred.length, pass };
    }
    return { chains, hitCount: retrieval.hits.length, trace: retrieval.trace, pref };
  };

  // agentic_research: one branch per planned requirement, each with its own filters and focused text.
  const requirementPlan: RequirementPlan =
    req.mode === 'agentic_research' ? planRequirements(req.normalizedQuery, catalog, conditions) : { decomposed: false, requirements: [], omitted: [] };
  let chains: Chain[];
  let hitCount: number;
  let trace: Omit<QueryOutcome['trace'], 'scope'>;
  let retrievedBy = new Map<Chain, Set<string>>();
  let prefInfo: QueryOutcome['trace']['preference'];
  // Research questions that need several line items, or one issuer's figures across several filings; basic-mode
  // questions that need several line items, within the filings the question names (its routing).
  let facets: Facet[] = [];
  if (req.mode === 'research') {
    facets = lineItemFacets(req.normalizedQuery);
    // A named quarter already picks its filing (the ranking preference); spreading over others would dilute it.
    if (!facets.length && !preference?.filings) facets = periodFacets(req.normalizedQuery, catalog.sources, conditions);
  } else if (basicRoute.length) facets = lineItemFacets(req.normalizedQuery);
  if (requirementPlan.decomposed) {
    const branches = await Promise.all(requirementPlan.requirements.map((r) => gather(r.query, r.conditions, r.sources)));
    ({ chains, retrievedBy } = mergeBranches(
      branches.map((b) => b.chains),
      requirementPlan.requirements.map((r) => r.id),
      plan.maxChains,
    ));
    hitCount = branches.reduce((n, b) => n + b.hitCount, 0);
    trace = { ...branches[0]!.trace };
    prefInfo = branches.find((b) => b.pref)?.pref;
  } else if (basicRoute.length) {
    // basic mode: the company and period the question names route retrieval to their filings. A ranking prior, never
    // a filter: nothing is reported as applied, a clearly better chain from elsewhere still ranks first
    // (mergePreferred), and other filings fill the chains the named ones leave.
    const routed = await gather(req.normalizedQuery, basicRoute);
    ({ chains, hitCount } = routed);
    trace = { ...routed.trace };
    if (chains.length < plan.maxChains) {
      const general = await gather(req.normalizedQuery, []);
      chains = mergePreferred(chains, general.chains, plan);
      hitCount += general.hitCount;
      trace.searchedShards = [...new Set([...trace.searchedShards, ...general.trace.searchedShards])];
    }
    if (facets.length) {
      // The line items a computed answer needs, each from the routed filings (the shards already searched).
      const passes = await Promise.all(facets.map((f) => gather(f.query, basicRoute, f.sources)));
      chains = mergeBranches([chains, ...passes.map((p) => p.chains)], ['question', ...facets.map((f) => f.id)], plan.maxChains).chains;
      hitCount += passes.reduce((n, p) => n + p.hitCount, 0);
    }
  } else {
    const single = await gather(req.normalizedQuery, conditions);
    ({ chains, hitCount, pref: prefInfo } = single);
    trace = { ...single.trace };
    if (widened) {
      // Soft periods: the later 10-Ks that restate the named year, ranked below the named year's own filings.
      const wider = await gather(req.normalizedQuery, [...callerConditions, ...widened.conditions]);
      chains = mergePreferred(chains, wider.chains, plan);
      hitCount += wider.hitCount;
      trace.searchedShards = [...new Set([...trace.searchedShards, ...wider.trace.searchedShards])];
      trace.widened = { years: widened.years, chains: chains.filter((c) => wider.chains.includes(c)).length, pass: wider.trace };
      notices.push({
        code: 'PERIOD_WIDENED',
        message: `Later annual reports (${widened.years.join(', ')}), which restate the fiscal year the question names as a comparative period, were searched too; their evidence ranks below that year's own filings.`,
        level: 'info',
      });
    }
    if (facets.length) {
      // One pass per facet (line item or filing), merged round-robin after the question's own pass, so each facet's
      // best evidence reaches the budget (src/plan/facets.ts).
      const passes = await Promise.all(facets.map((f) => gather(f.query, conditions, f.sources)));
      chains = mergeBranches([chains, ...passes.map((p) => p.chains)], ['question', ...facets.map((f) => f.id)], plan.maxChains).chains;
      hitCount += passes.reduce((n, p) => n + p.hitCount, 0);
    }
  }
  if (prefInfo) {
    trace.preference = prefInfo;
    notices.push({
      code: 'RANKING_PREFERENCE',
      message: `Evidence from ${prefInfo.label} is ranked first; this is a preference, not a filter.`,
      level: 'info',
    });
  }

  const cap = req.retrieval?.max_evidence ?? null;
  if (cap !== null) chains = chains.slice(0, cap);

  const include = req.include;
  const wantsEvidence = include.evidence || include.agent_context;
  const tokenCap = req.retrieval?.max_evidence_tokens ?? null;
  const render = (c: readonly Chain[]) => renderEvidence(catalog, c, include.evidence_format);
  // Memoized: budget selection asks again on every pass and coverage once more; each answer scans entry texts.
  const supported = new Map<Chain, string[]>();
  const supports = (c: Chain) => {
    let ids = supported.get(c);
    if (!ids) supported.set(c, (ids = requirementsOfChain(c, requirementPlan, catalog.sources, retrievedBy.get(c) ?? new Set())));
    return ids;
  };
  // Spec 2.4: under a token cap, chains covering still-uncovered requirements are tried first.
  const selection = selectWithinBudget(
    chains,
    render,
    tokenCap,
    requirementPlan.decomposed ? supports : facets.length ? (c: Chain) => facetsOfChain(c, facets) : undefined,
  );

  let noEvidenceReason = 'No evidence matched the query and filters.';
  if (!hitCount) {
    notices.push({ code: 'NO_MATCHING_EVIDENCE', message: 'No statement in the index matched the query and filters.', level: 'warning' });
  } else if (!chains.length) {
    notices.push({ code: 'NO_MATCHING_EVIDENCE', message: 'No evidence chain was relevant enough to the query to return.', level: 'warning' });
  } else if (!selection.chains.length) {
    const smallest = Math.min(...chains.map((c) => estimateTokens(render([c]))));
    noEvidenceReason = `No complete evidence chain fits max_evidence_tokens=${tokenCap}; the smallest of the ${chains.length} available chains needs ${smallest} tokens.`;
    notices.push({ code: 'EVIDENCE_OMITTED_BY_TOKEN_BUDGET', message: `${noEvidenceReason} Evidence was omitted; this is not a no-data result.`, level: 'warning' });
  } else if (selection.chains.length < chains.length) {
    notices.push({
      code: 'EVIDENCE_TRUNCATED_BY_TOKEN_BUDGET',
      message: `max_evidence_tokens=${tokenCap} kept ${selection.chains.length} of ${chains.length} evidence chains (${selection.estimatedTokens} estimated tokens).`,
      level: 'info',
    });
  }
  const warnings = notices.filter((n) => n.level === 'warning').map((n) => n.message);

  const body: QueryOutcome['body'] = {};
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
  if (req.mode === 'agentic_research') {
    // Coverage from what was actually returned; a plan that did not decompose is the original question.
    body.coverage = assessCoverage(requirementPlan, chains, selection.chains, supports);
    body.retrieval_plan = {
      queries: requirementPlan.decomposed
        ? requirementPlan.requirements.map((r) => ({ query: r.query, label: `${r.id}: ${r.label}`, applied_metadata_filters: conditionsToObject(r.conditions) }))
        : [{ query: req.normalizedQuery, label: 'original question', applied_metadata_filters: conditionsToObject(conditions) }],
    };
  }
  if (include.agent_context) {
    body.agent_context = renderAgentContext({
      instructions: EVIDENCE_INSTRUCTIONS,
      evidence: selection.evidence,
      noEvidenceReason,
      ...(body.coverage ? { coverage: body.coverage } : {}),
      warnings,
    });
  }
  if (wantsEvidence) {
    body.evidence_budget = {
      requested_max_tokens: tokenCap,
      estimator: TOKEN_ESTIMATOR,
      estimated_tokens: selection.estimatedTokens,
      available_evidence_count: chains.length,
      returned_evidence_count: selection.chains.length,
      truncated: selection.chains.length < chains.length,
    };
  }
  if (include.summary) {
    body.summary = {
      domain: catalog.domain,
      mode: req.mode,
      effort: req.effort,
      evidence_count: selection.chains.length,
      ...(submitted ? { submitted_metadata_filters: submitted } : {}),
      ...(conditions.length ? { applied_metadata_filters: conditionsToObject(conditions) } : {}),
      ...(warnings.length ? { warnings } : {}),
    };
  }
  // Spec 2.5's field order, so responses read the same way every time.
  const ORDER = ['notices', 'metadata_distribution', 'metadata_dashboard', 'evidence', 'evidence_instructions', 'agent_context', 'summary', 'coverage', 'evidence_budget', 'retrieval_plan'] as const;
  const ordered: QueryOutcome['body'] = {};
  for (const k of ORDER) if (body[k] !== undefined) (ordered as Record<string, unknown>)[k] = body[k];
  return { body: ordered, trace: { ...trace, scope } };
}
