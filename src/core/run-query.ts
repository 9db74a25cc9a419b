import { selectWithinBudget, TOKEN_ESTIMATOR } from '../evidence/budget';
import { buildChains } from '../evidence/chains';
import type { Chain } from '../evidence/model';
import type { FilterField } from '../filters/fields';
import { inferFilters } from '../filters/infer';
import { conditionsToObject, parseMetadataFilters, type Condition, type FilterVocabulary } from '../filters/parse';
import type { CatalogHeader } from '../format/types';
import { EVIDENCE_INSTRUCTIONS, renderEvidence } from '../render/evidence';
import { bm25Idf } from '../search/bm25';
import { EFFORT_PLANS } from '../search/plan';
import { retrieve, type RetrievalTrace } from '../search/retrieve';
import type { ResearchRequest } from '../schema/request';
import type { ResearchResponse } from '../schema/response';
import { tokenize } from '../text/tokenize';
import type { IndexReader } from './index-reader';

/** A request after validation and query normalization (the HTTP layer's output; basic mode carries no filters). */
export type ValidRequest = ResearchRequest & { normalizedQuery: string };

export interface QueryOutcome {
  body: Omit<ResearchResponse, 'request_id'>;
  trace: RetrievalTrace;
}

/** Filter vocabulary from the catalog: company names and tickers for sec_ticker, case-folded known values. */
export function filterVocabulary(catalog: CatalogHeader): FilterVocabulary {
  const aliases: FilterVocabulary['aliases'] = {};
  const tickers = new Map<string, string>();
  for (const c of catalog.companies) for (const a of [...c.aliases, c.ticker.toLowerCase()]) tickers.set(a, c.ticker);
  aliases.sec_ticker = tickers;
  for (const field of ['sec_gics_sector', 'sec_gics_sub_industry'] as const) {
    aliases[field] = new Map(Object.keys(catalog.field_values[field]).map((v) => [v.toLowerCase(), v]));
  }
  return { aliases };
}

/**
 * The pure query pipeline: caller filters -> inferred filters -> retrieval -> chains -> caps and token budget ->
 * rendered sections. Everything here is deterministic for a given index and request.
 */
export async function runQuery(reader: IndexReader, req: ValidRequest): Promise<QueryOutcome> {
  const { catalog } = reader;
  const plan = EFFORT_PLANS[req.effort];
  const submitted = req.metadata_filters && Object.keys(req.metadata_filters).length ? req.metadata_filters : null;
  const callerConditions: Condition[] = submitted ? parseMetadataFilters(submitted, filterVocabulary(catalog)) : [];
  const warnings: string[] = [];
  let conditions = callerConditions;
  if (req.mode !== 'basic') {
    const inferred = inferFilters(req.normalizedQuery, catalog, new Set<FilterField>(callerConditions.map((c) => c.field)));
    conditions = [...callerConditions, ...inferred.conditions];
    warnings.push(...inferred.warnings);
  }

  const retrieval = await retrieve(reader, req.normalizedQuery, conditions, plan);
  // Query-term weights for relevance scores: IDF from corpus-wide document frequencies.
  const lexicon = await reader.lexicon();
  const weights = new Map<string, number>();
  for (const t of new Set(retrieval.queryTerms)) {
    const id = lexicon.termIndex.get(t);
    weights.set(t, bm25Idf(lexicon.totalStatements, id === undefined ? 0 : lexicon.df[id]!));
  }
  // The hits' shards (already loaded and cached by retrieval) carry the evidence graph and consensus chains follow.
  const hitShards = [...new Set(retrieval.hits.map((h) => h.shard))];
  const shards = new Map(await Promise.all(hitShards.map(async (i) => [i, await reader.shard(i)] as const)));
  let chains: Chain[] = buildChains(retrieval.hits, plan, weights, tokenize, shards);
  const cap = req.retrieval?.max_evidence ?? null;
  if (cap !== null) chains = chains.slice(0, cap);

  const include = req.include;
  const wantsEvidence = include.evidence || include.agent_context;
  const tokenCap = req.retrieval?.max_evidence_tokens ?? null;
  const selection = selectWithinBudget(chains, (c) => renderEvidence(catalog, c, include.evidence_format), tokenCap);
  if (!retrieval.hits.length) warnings.push('No statement in the index matched the query and filters.');

  const body: QueryOutcome['body'] = {};
  if (include.evidence && selection.evidence) {
    body.evidence = selection.evidence;
    if (include.evidence_instructions) body.evidence_instructions = EVIDENCE_INSTRUCTIONS;
  }
  if (include.agent_context) {
    const parts = [];
    const fields: string[] = [];
    if (include.evidence_instructions || !include.evidence) {
      parts.push(`## How to use this evidence\n\n${EVIDENCE_INSTRUCTIONS}`);
      fields.push('evidence_instructions');
    }
    if (selection.evidence) {
      parts.push(`## Evidence\n\n${selection.evidence}`);
      fields.push('evidence');
    } else parts.push('## Evidence\n\nNo evidence fits the request.');
    body.agent_context = { text: parts.join('\n\n'), content_type: 'text/markdown', source_fields: fields };
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
  if (req.mode === 'agentic_research') {
    // First version: no decomposition yet, so the plan is the original question (spec 3: not_assessed).
    body.coverage = {
      status: 'not_assessed',
      requirement_count: 0,
      covered_requirement_count: 0,
      limitations: ['planning_fallback'],
    };
    body.retrieval_plan = {
      queries: [{ query: req.normalizedQuery, label: 'original question', applied_metadata_filters: conditionsToObject(conditions) }],
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
  return { body, trace: retrieval.trace };
}
