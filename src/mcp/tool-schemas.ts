import { z } from 'zod';
import { FILTER_FIELDS } from '../../index-format/fields';
import { metadataFiltersSchema } from '../schema/metadata-filters';
import { LIMITS, ResearchRequest, RetrievalControls } from '../schema/request';
import { MetadataFiltersListing, ResearchResponse } from '../schema/response';

/**
 * Tool schemas of the MCP endpoint, assembled from the HTTP contract's own zod schemas (src/schema), so the two
 * surfaces cannot drift: every field description an agent reads in tools/list is the one the OpenAPI document shows.
 */

/**
 * The MCP body cap: the query body's 65,536 bytes plus room for the JSON-RPC envelope around the tool arguments
 * (jsonrpc, id, method, params.name, _meta). Counted while streaming, like POST /query; the tool's arguments are
 * then held to the query cap on their own.
 */
export const MCP_ENVELOPE_BYTES = 8_192;
export const MCP_MAX_BODY_BYTES = LIMITS.MAX_BODY_BYTES + MCP_ENVELOPE_BYTES;

/** Default evidence budget of the MCP tool: a result stays far below the 25,000-token limit some agents apply. */
export const MCP_DEFAULT_EVIDENCE_TOKENS = 8_000;

const maxEvidenceTokens = RetrievalControls.shape.max_evidence_tokens;

export const SearchToolArgs = z.strictObject({
  query: ResearchRequest.shape.query,
  mode: ResearchRequest.shape.mode,
  effort: ResearchRequest.shape.effort,
  metadata_filters: metadataFiltersSchema().nullable().optional(),
  max_evidence_tokens: z
    .number()
    .int()
    .min(1)
    .default(MCP_DEFAULT_EVIDENCE_TOKENS)
    .describe(`${maxEvidenceTokens.description} Default here: ${MCP_DEFAULT_EVIDENCE_TOKENS.toLocaleString('en-US')}.`),
  max_evidence: RetrievalControls.shape.max_evidence,
});
export type SearchToolArgs = z.input<typeof SearchToolArgs>;

export const ListFiltersToolArgs = z.strictObject({
  field: z.enum(FILTER_FIELDS).optional().describe('Describe only this field.'),
  include_values: z
    .boolean()
    .default(false)
    .describe('List the values present in the index, with display values and aliases.'),
});

export const SEARCH_TOOL_OUTPUT = ResearchResponse;
export const LIST_FILTERS_TOOL_OUTPUT = MetadataFiltersListing;

/**
 * The tool descriptions. Short, because agents read them on every turn; exact, because they are the only manual an
 * agent gets. Field-level detail lives in the schemas above.
 */
export const SEARCH_TOOL_DESCRIPTION = [
  "Grounding evidence from S&P 500 companies' 10-K and 10-Q filings: cited statements and table rows with their",
  'epistemic status (FACT, PREDICTION, ...), agreement across filings and source metadata. It returns evidence, never',
  'an answer: answer only from it and cite the source ids.',
  'Modes: basic (default, fastest; no filters) for a quick look-up; research when you know the company, period, form',
  'or section, and set metadata_filters (e.g. ' +
    '{"sec_ticker":"AAPL","sec_fiscal_year":"FY-2023","sec_form_type":"10-K"});',
  'agentic_research for questions with several parts (two companies, two periods, a ratio): it plans up to four',
  'requirements and reports coverage per requirement (covered / missing / omitted_by_budget); retry a missing one as',
  'its own research query. Filters: call list_metadata_filters for fields and accepted values; filters are hard',
  'constraints on every cited source. max_evidence_tokens caps the evidence exactly (default 8,000).',
].join(' ');

export const LIST_FILTERS_TOOL_DESCRIPTION = [
  'The metadata filter fields search_filing_evidence accepts (ticker, fiscal year, form type, item/section tag, filing',
  'date, GICS sector and sub-industry, fiscal year end), their operators and formats; with include_values=true, the',
  'values present in the index with their aliases (company names for tickers, "risk factors" for 10K-Item-1A).',
].join(' ');
