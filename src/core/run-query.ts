import { estimateTokens, selectWithinBudget, selectWithinBudgetLazily, TOKEN_ESTIMATOR, type BudgetSelection, type LazyCandidate } from '../evidence/budget';
import {
  AGREEING_SOURCES_CITED,
  chainTerms,
  draftChains,
  materializeChain,
  pendingChains,
  recordTextTokens,
  skeletonChain,
  unreadRecords,
  withoutRepeatedStatements,
  type AllowedStatement,
  type ChainDraft,
  type EntryTerms,
  type PendingChain,
} from '../evidence/chains';
import { membershipQuery, statementQueryTerms } from '../search/term-membership';
import type { Chain } from '../evidence/model';
import { matchesConditions } from '../filters/match';
import { inferFilters, sectionPreference, withStatementPreference, type InferredFilters, type QueryNotice, type RankingPreference } from '../filters/infer';
import { conditionsToObject, parseMetadataFilters, type Condition, type FilterVocabulary } from '../filters/parse';
import type { CatalogHeader, Directory } from '../format/types';
import { heldSourceList, heldSources } from '../format/views';
import { renderAgentContext } from '../render/agent-context';
import { renderDashboard } from '../render/dashboard';
import { profileEvidence, toMetadataDistribution } from '../render/distribution';
import { renderEvidence } from '../render/evidence';
import { EVIDENCE_INSTRUCTIONS } from '../render/instructions';
import { bm25Idf } from '../search/bm25';
import { planFor, type EffortPlan } from '../search/plan';
import { mergeKey, RANKING } from '../search/ranking';
import { readRecords, retrieve, shardsOfHits, type Hit, type RetrievalTrace } from '../search/retrieve';
import type { ResearchRequest } from '../schema/request';
import type { ResearchResponse } from '../schema/response';
import { financialStatementCode } from '../text/financial-statements';
import { tokenize } from '../text/tokenize';
import type { IndexReader } from './index-reader';
import { assessCoverage, requirementsOfChain } from '../plan/coverage';
import { mergeBranches, type Mergeable } from '../plan/merge';
import { planRequirements, type RequirementPlan } from '../plan/requirements';
import { facetsOfChain, lineItemFacets, periodFacets, type Facet } from '../plan/facets';
import { latestAnnualSources } from '../plan/periods';
import { planScope, routeScope, type Scope } from '../plan/scope';
import { planPasses, type RetrievalPass } from '../plan/passes';
import { issuerNames, withoutIssuerNames, type LexicalQuery } from '../search/query-terms';
import { analyzeQuery, type QueryAnalysis } from '../plan/analyze';

/** A pass as executed: the plan's value plus what it searched (searchedShards is empty for a skipped fill). */
export type PassTrace = RetrievalPass & {
  searchedShards: string[];
  allowedSources: number | null;
  hits: number;
  /** The ranking preference's own retrieval within this pass (named sections or quarters), if it took one. */
  preference: RetrievalTrace | null;
  skipped?: true;
};

/** A request after validation and query normalization (the HTTP layer's output; basic mode carries no filters). */
export type ValidRequest = ResearchRequest & { normalizedQuery: string };

export interface QueryOutcome {
  body: Omit<ResearchResponse, 'request_id'>;
  trace: RetrievalTrace & {
    /** The question's analysis (src/plan/analyze.ts), computed once; everything below consumed it. */
    analysis: QueryAnalysis;
    /** The issuers the request read (src/plan/scope.ts). */
    scope: Scope;
    /** The ranking preference inferred from the question, and the extra retrieval pass it took (item hints). */
    preference?: { label: string; preferredChains: number; pass: RetrievalTrace | null };
    /** Soft periods: the later annual reports searched for a named fiscal year, and that pass (filters/infer.ts). */
    widened?: { years: string[]; chains: number; pass: RetrievalTrace };
    /** Every pass of the plan (src/plan/passes.ts) as executed: its shards, hits and preference pass; skipped fills. */
    passes: PassTrace[];
    /** Each returned chain's ranking signals (src/search/ranking.ts), in the order of the evidence. */
    explain?: (Chain['explain'] | null)[];
    /** The effort plan the request ran with (src/search/plan.ts planFor: effort and question shape). */
    plan: EffortPlan;
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
  for (const i of heldSources(catalog.sources)) if (docs.has(catalog.sources[i]!.doc_id) && (!within || within.has(i))) out.add(i);
  return out;
}

/**
 * Merges chains built from preferred sources with the general ones. A preferred chain ranks as if its relevance
 * were `bonus` higher (its reported relevance_score is unchanged), so a clearly better general chain still comes
 * first; a general chain repeating a claim of a preferred chain is dropped. Each side's chains keep what they earned
 * in earlier merges (Mergeable.earned). Capped at the plan's chain count.
 */
export function mergePreferred<C extends Mergeable>(preferred: readonly C[], general: readonly C[], plan: EffortPlan, bonus: number = RANKING.preferenceBonus): C[] {
  const claims = new Set(preferred.flatMap((c) => c.claims));
  const rest = general.filter((c) => !c.claims.some((k) => claims.has(k)));
  const keyed = [
    ...preferred.map((c) => [c, mergeKey(c.relevance, true, bonus, c.earned)] as const),
    ...rest.map((c) => [c, mergeKey(c.relevance, false, bonus, c.earned)] as const),
  ];
  // Stable: equal keys keep preferred-before-general and each list's own order.
  return keyed
    .map(([c, k], i) => ({ c, k, i }))
    .sort((a, b) => b.k - a.k || a.i - b.i)
    .slice(0, plan.maxChains)
    .map((x) => x.c);
}

/** How a query reads its chains' records (tests and benchmarks compare the two). */
export interface RunOptions {
  /**
   * 'budget' (the default): under a token budget without a coverage pass, only the chains the budget may keep;
   * 'every_chain': every chain returned by the passes (the slow twin: the same response, more records read).
   */
  recordReads?: 'budget' | 'every_chain';
}

/**
 * The pure query pipeline: caller filters -> inferred filters and preferences -> retrieval -> chains -> caps and
 * token budget -> rendered sections. Everything here is deterministic for a given index and request.
 */
export async function runQuery(reader: IndexReader, req: ValidRequest, options: RunOptions = {}): Promise<QueryOutcome> {
  const submitted = req.metadata_filters && Object.keys(req.metadata_filters).length ? req.metadata_filters : null;
  const callerConditions: Condition[] = submitted ? parseMetadataFilters(submitted, filterVocabulary(reader.directory)) : [];
  // The issuers this request reads; everything below sees their sources and shards only.
  const analysis = analyzeQuery(req.normalizedQuery, reader.directory);
  // How many chains, how deep: by effort, and at medium by the question's shape (src/search/plan.ts planFor).
  const plan = planFor(req.effort, analysis.shape);
  const scopePlan = planScope(analysis, reader.directory, callerConditions);
  let scope: Scope;
  if (scopePlan.kind === 'issuers') {
    scope = { tickers: scopePlan.tickers, source: scopePlan.source };
    // Retrieval reads the question's term blocks first thing; they depend on its words only, so they are read now,
    // alongside the issuers' tables, not after them (one round trip to storage less; the reader keeps them). The
    // issuers' names are left out, as retrieval leaves them out once its filters name those issuers.
    const named = new Set(scope.tickers);
    const names = issuerNames(reader.directory.companies.filter((c) => named.has(c.ticker)));
    reader.terms(withoutIssuerNames(analysis.lexical.terms, names)).catch(() => undefined);
  } else {
    const { terms } = analysis.lexical;
    const { lexicon } = await reader.terms(terms);
    scope = routeScope(reader.directory, lexicon, scopePlan.conditions, terms, plan.maxShards);
  }
  const catalog = await reader.scope(scope.tickers);
  const notices: QueryNotice[] = [];
  let conditions = callerConditions;
  let preference: RankingPreference | null = null;
  let widened: InferredFilters['widened'] = null;
  if (req.mode !== 'basic') {
    const inferred = inferFilters(analysis, catalog, callerConditions);
    conditions = [...callerConditions, ...inferred.conditions];
    preference = inferred.preference;
    widened = inferred.widened;
    if (inferred.conditions.length) {
      notices.push({ code: 'FILTERS_INFERRED', message: `Filters inferred from the query and applied: ${JSON.stringify(conditionsToObject(inferred.conditions))}.`, level: 'info' });
    }
    notices.push(...inferred.notices);
  }

  // basic mode infers nothing, but the companies and years a question names still pick where to look first, and
  // the sections it is about are preferred as in research (a named quarter is not: it is a filing, and basic mode
  // routes filings by year).
  let basicRoute: Condition[] = [];
  if (req.mode === 'basic') {
    basicRoute = inferFilters(analysis, catalog, []).conditions;
    preference = sectionPreference(analysis.sectionIntents, heldSourceList(catalog.sources).filter((s) => matchesConditions(s.meta, basicRoute)));
  }

  preference = withStatementPreference(preference, analysis.statements.list);
  // A statement the question names ("only in the income statement") is a stronger preference than one inferred.
  const preferenceBonus = analysis.statements.named ? RANKING.namedStatementBonus : RANKING.preferenceBonus;
  const preferredStatements = preference?.statements ? new Set(preference.statements.map(financialStatementCode)) : undefined;

  // agentic_research: one branch per planned requirement, each with its own filters and focused text.
  const requirementPlan: RequirementPlan =
    req.mode === 'agentic_research' ? planRequirements(analysis, catalog, conditions) : { decomposed: false, requirements: [], omitted: [] };
  // Research questions that need several line items, or one issuer's figures across several filings; basic-mode
  // questions that need several line items, within the filings the question names (its routing).
  let facets: Facet[] = [];
  if (req.mode === 'research') {
    facets = lineItemFacets(analysis);
    // A named quarter already picks its filing (the ranking preference); spreading over others would dilute it.
    if (!facets.length && !preference?.filings) facets = periodFacets(analysis, catalog.sources, conditions);
  } else if (basicRoute.length) facets = lineItemFacets(analysis);

  const include = req.include;
  const wantsEvidence = include.evidence || include.agent_context;
  const tokenCap = req.retrieval?.max_evidence_tokens ?? null;
  const render = (c: readonly Chain[]) => renderEvidence(catalog, c, include.evidence_format);
  // Under a token budget, unless a coverage pass reads every chain (agentic mode's requirements and coverage
  // report, facets), only the records of the chains the budget may keep are read (selectWithinBudgetLazily).
  const budgetReads = tokenCap !== null && options.recordReads !== 'every_chain' && req.mode !== 'agentic_research' && !facets.length;
  const skeletons = new Map<ChainDraft, Chain>();
  const skeletonOf = (p: PendingChain) => {
    let chain = skeletons.get(p.draft);
    if (!chain) skeletons.set(p.draft, (chain = skeletonChain(p.draft, p.shards)));
    return chain;
  };

  // A caller's filters bound every source the response cites, agreeing and disagreeing filings included.
  const citableUnderCallerFilters = (source: number) => matchesConditions(catalog.sources[source]!.meta, callerConditions);
  // Under a token budget an entry cites its nearest agreeing filing and counts the others (chains.ts).
  const agreeingCited = tokenCap === null ? Infinity : AGREEING_SOURCES_CITED;

  /**
   * One retrieval pass and its chains: retrieval -> chains ranked over the hits' shards (loaded by retrieval: their
   * heads carry the evidence graph, claim and row-label hashes, their posting lists the query terms) -> the records
   * of the chains kept, read exactly -> the ranking preference's extra pass.
   */
  const gather = async (query: LexicalQuery, conds: readonly Condition[], onlySources?: ReadonlySet<number>) => {
    // The preference gets its own retrieval pass: item hints restricted to those items (their statements may rank
    // below the general pass's depth), named quarters restricted to those filings' sources (the general pass spreads
    // its depth over every 10-Q of the fiscal year, and the named filing's rows fell below it). It depends on
    // nothing the general pass finds, so both run at once.
    let extra: ReturnType<typeof retrieve> | null = null;
    if (preference && (preference.itemTags || preference.filings || preference.statements)) {
      const within = preference.filings ? preferredSources(catalog, preference.filings, onlySources) : onlySources;
      const itemConds: Condition[] = preference.itemTags ? [{ field: 'sec_item_tag', op: 'in', values: preference.itemTags }] : [];
      extra = retrieve(reader, catalog, query, [...conds, ...itemConds], plan, within, preferredStatements);
      extra.catch(() => undefined);
    }
    const retrieval = await retrieve(reader, catalog, query, conds, plan, onlySources);
    // Query-term weights for relevance scores: IDF from corpus-wide document frequencies.
    const { lexicon } = retrieval;
    const weights = new Map<string, number>();
    for (const t of new Set(retrieval.queryTerms)) {
      const id = lexicon.termIndex.get(t);
      weights.set(t, bm25Idf(lexicon.totalStatements, id === undefined ? 0 : lexicon.df[id]!));
    }
    const allowed: AllowedStatement = (shard, local) => matchesConditions(catalog.sources[shard.source[local]!]!.meta, conds);
    const chainsOf = async (hits: readonly Hit[]) => {
      const shards = await shardsOfHits(reader, hits);
      // Which query terms each entry covers, from the shards' posting lists of those terms (every chain statement
      // is in a loaded shard; a hit without one falls back to its text).
      const query = membershipQuery([...weights.keys()]);
      const terms: EntryTerms = (shard, local, hit) => (shard ? statementQueryTerms(shard, local, query) : chainTerms(hit!.text, 0, tokenize));
      // Drafted from the heads alone (chains.ts draftChains); records are read once the passes are merged, for the
      // chains the response may return.
      return pendingChains(draftChains(hits, plan, weights, terms, shards, allowed), shards);
    };
    const main = chainsOf(retrieval.hits);
    main.catch(() => undefined); // awaited below; this only keeps it from counting as unhandled if `extra` fails first
    let chains: PendingChain[];
    let pref: NonNullable<QueryOutcome['trace']['preference']> | undefined;
    if (preference) {
      let pass: RetrievalTrace | null = null;
      let hits = retrieval.hits;
      if (extra) {
        const r = await extra;
        pass = r.trace;
        hits = r.hits;
      }
      const isPreferred = (h: Hit) => isPreferredSource(catalog, preference!, h.source) && (!preferredStatements || preferredStatements.has(h.statement));
      const [general, preferredAll] = await Promise.all([main, chainsOf(hits.filter(isPreferred))]);
      // A statement's rows fill every chain the plan keeps when a question names it; the rest of the room stays for
      // the notes and MD&A, where a figure the statement does not print is (docs/PARAMETERS.md).
      const preferred = preferredStatements ? preferredAll.slice(0, Math.ceil(plan.maxChains * RANKING.statementChainShare)) : preferredAll;
      // The preferred chains carry their bonus into the merges of later passes (the later 10-Ks of soft periods).
      const earning = preferred.map((c) => ({ ...c, earned: preferenceBonus }));
      chains = mergePreferred(earning, general, plan, 0);
      pref = { label: preference.label, preferredChains: preferred.length, pass };
    } else chains = await main;
    return { chains, hitCount: retrieval.hits.length, trace: retrieval.trace, pref };
  };

  // A question that names no period is about each named company now: its latest annual report is searched first.
  const latest = requirementPlan.decomposed ? [] : latestAnnualSources(analysis, catalog.sources, req.mode === 'basic' ? basicRoute : conditions);

  // The passes as data (src/plan/passes.ts), then executed in order; each merges into the chains so far.
  const passes = planPasses({
    mode: req.mode,
    analysis,
    conditions,
    callerConditions,
    basicRoute,
    widened,
    latest,
    facets,
    requirements: requirementPlan,
  });
  let chains: PendingChain[] = [];
  let hitCount = 0;
  let retrievedBy = new Map<PendingChain, Set<string>>();
  let prefInfo: QueryOutcome['trace']['preference'];
  let firstTrace: RetrievalTrace | null = null;
  const searchedShards = new Set<string>();
  const passTraces: PassTrace[] = [];
  const gatherPass = (pass: RetrievalPass) => gather(pass.lexical, pass.conditions, pass.sources && new Set(pass.sources));
  // A pass's retrieval and chains do not depend on the passes before it (only merging does), so every pass starts at
  // once and its reads overlap the others' instead of waiting for them: a request's latency from storage is its
  // longest chain of dependent reads, not the sum over passes. A 'fill' pass runs only if it is needed. Each started
  // pass is awaited in order below; the catch only keeps a failure of one that is never awaited (an earlier pass
  // failed first) from being reported as unhandled.
  const started = passes.map((pass) => {
    if (pass.merge === 'fill') return null;
    const p = gatherPass(pass);
    p.catch(() => undefined);
    return p;
  });
  const run = (pass: RetrievalPass) => started[passes.indexOf(pass)] ?? gatherPass(pass);
  const record = (pass: RetrievalPass, r: Awaited<ReturnType<typeof gather>>) => {
    hitCount += r.hitCount;
    firstTrace ??= r.trace;
    prefInfo ??= r.pref;
    for (const s of [...r.trace.searchedShards, ...(r.pref?.pass?.searchedShards ?? [])]) searchedShards.add(s);
    passTraces.push({ ...pass, searchedShards: r.trace.searchedShards, allowedSources: r.trace.allowedSources, hits: r.hitCount, preference: r.pref?.pass ?? null });
  };
  let widenedInfo: QueryOutcome['trace']['widened'];
  for (let i = 0; i < passes.length; ) {
    const pass = passes[i]!;
    if (pass.merge === 'round_robin') {
      // Consecutive round-robin passes run together and merge one chain each in turn, after the chains so far.
      let end = i;
      while (end < passes.length && passes[end]!.merge === 'round_robin') end++;
      const group = passes.slice(i, end);
      const results = await Promise.all(group.map(run));
      group.forEach((p, k) => record(p, results[k]!));
      const branches = results.map((r) => r.chains);
      const ids = group.map((p) => p.id);
      const merged = i > 0 ? mergeBranches([chains, ...branches], [passes[0]!.id, ...ids], plan.maxChains) : mergeBranches(branches, ids, plan.maxChains);
      chains = merged.chains;
      if (i === 0) retrievedBy = merged.retrievedBy;
      i = end;
      continue;
    }
    if (pass.merge === 'fill' && chains.length >= plan.maxChains) {
      passTraces.push({ ...pass, searchedShards: [], allowedSources: null, hits: 0, preference: null, skipped: true });
      i++;
      continue;
    }
    const r = await run(pass);
    record(pass, r);
    // 'below' and 'fill': the chains so far rank as if RANKING.preferenceBonus higher (the named filings, the named year).
    chains = pass.merge === 'first' ? r.chains : mergePreferred(chains, r.chains, plan);
    // Basic mode adds no notice for its priors, as for its ranking preference below.
    if (pass.purpose === 'latest' && req.mode !== 'basic') {
      const filings = [...new Set(latest.map((i) => catalog.sources[i]!.doc_id))];
      notices.push({
        code: 'LATEST_FILING_PREFERRED',
        message: `The question names no period: evidence from the latest annual report (${filings.length} filing${filings.length > 1 ? 's' : ''}) is ranked first; this is a preference, not a filter.`,
        level: 'info',
      });
    }
    if (pass.purpose === 'later_years' && widened) {
      widenedInfo = { years: widened.years, chains: chains.filter((c) => r.chains.includes(c)).length, pass: r.trace };
      notices.push({
        code: 'PERIOD_WIDENED',
        message: `Later annual reports (${widened.years.join(', ')}), which restate the fiscal year the question names as a comparative period, were searched too; their evidence ranks below that year's own filings.`,
        level: 'info',
      });
    }
    i++;
  }
  const trace: Omit<QueryOutcome['trace'], 'scope' | 'analysis' | 'plan'> = {
    ...firstTrace!,
    searchedShards: [...searchedShards],
    passes: passTraces,
    ...(widenedInfo ? { widened: widenedInfo } : {}),
  };
  if (prefInfo) trace.preference = prefInfo;
  // Basic mode adds no notice for its priors, as for its routing (spec rule 1: a body with only `query` returns a
  // fixed set of sections).
  if (prefInfo && req.mode !== 'basic') {
    notices.push({
      code: 'RANKING_PREFERENCE',
      message: `Evidence from ${prefInfo.label} is ranked first; this is a preference, not a filter.`,
      level: 'info',
    });
  }

  // A statement two merged passes both found is shown once, in the better-ranked chain. A trimmed chain keeps the
  // branches that retrieved the chain it came from (agentic coverage credits them).
  const distinct = withoutRepeatedStatements(chains);
  const branchesOf = retrievedBy;
  chains = distinct.chains;
  retrievedBy = new Map();
  for (const c of chains) {
    const by = branchesOf.get(distinct.from.get(c)!);
    if (by) retrievedBy.set(c, by);
  }
  const cap = req.retrieval?.max_evidence ?? null;
  if (cap !== null) chains = chains.slice(0, cap);

  // The chains' entries: the records of their statements, read for the chains a response may return only.
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
      const chain = materializeChain(p.draft, read ? new Map([...p.shards, ...read]) : p.shards, citableUnderCallerFilters, agreeingCited);
      // The explain trace shows the preference bonus the chain ranked with in the merges, beside its own signals.
      if (p.earned && chain.explain) chain.explain = { ...chain.explain, preference: p.earned };
      materialized.set(p, chain);
      pendingOf.set(chain, p);
    }
  };
  const readAll = async () => {
    await readChains(chains);
    return chains.map((p) => materialized.get(p)!);
  };
  // Memoized: budget selection asks again on every pass and coverage once more; each answer scans entry texts.
  const supported = new Map<Chain, string[]>();
  const supports = (c: Chain) => {
    let ids = supported.get(c);
    if (!ids) supported.set(c, (ids = requirementsOfChain(c, requirementPlan, catalog.sources, retrievedBy.get(pendingOf.get(c)!) ?? new Set())));
    return ids;
  };
  // Spec 2.4: under a token cap, chains covering still-uncovered requirements are tried first. Their coverage reads
  // entry texts and agreeing sources, so with a coverage pass (or no cap) every chain is read; otherwise only those
  // the budget may keep (selectWithinBudgetLazily: the same selection, fewer records read).
  const coverage = requirementPlan.decomposed ? supports : facets.length ? (c: Chain) => facetsOfChain(c, facets) : undefined;
  let selection: BudgetSelection;
  if (budgetReads) {
    const candidates = chains.map((p): LazyCandidate => ({ chain: () => materialized.get(p), skeleton: skeletonOf(p), textTokens: recordTextTokens(p.draft, p.shards) }));
    const pendingByCandidate = new Map(candidates.map((c, i) => [c, chains[i]!]));
    selection = await selectWithinBudgetLazily(candidates, (batch) => readChains(batch.map((c) => pendingByCandidate.get(c)!)), render, tokenCap);
  } else selection = selectWithinBudget(await readAll(), render, tokenCap, coverage);

  let noEvidenceReason = 'No evidence matched the query and filters.';
  if (!hitCount) {
    notices.push({ code: 'NO_MATCHING_EVIDENCE', message: 'No statement in the index matched the query and filters.', level: 'warning' });
  } else if (!chains.length) {
    notices.push({ code: 'NO_MATCHING_EVIDENCE', message: 'No evidence chain was relevant enough to the query to return.', level: 'warning' });
  } else if (!selection.chains.length) {
    const smallest = Math.min(...(await readAll()).map((c) => estimateTokens(render([c]))));
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
    body.coverage = assessCoverage(requirementPlan, await readAll(), selection.chains, supports);
    // The pass plan itself: every retrieval branch with its own filters.
    body.retrieval_plan = {
      queries: passes.map((p) => ({ query: p.query, label: p.label, applied_metadata_filters: conditionsToObject(p.conditions) })),
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
  return { body: ordered, trace: { ...trace, analysis, scope, plan, explain: selection.chains.map((c) => c.explain ?? null) } };
}
