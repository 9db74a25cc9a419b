import { z } from 'zod';
import { FILTER_LIMITS } from './filter-fields';

/** Spec section 8. The filter limits are the filter language's own (src/schema/filter-fields.ts). */
export const LIMITS = {
  MAX_BODY_BYTES: 65_536,
  MAX_QUERY_CHARS: 4_000,
  ...FILTER_LIMITS,
  MAX_AGENTIC_REQUIREMENTS: 4,
} as const;

export const Mode = z.enum(['basic', 'research', 'agentic_research']);
export type Mode = z.infer<typeof Mode>;

export const Effort = z.enum(['low', 'medium', 'high']);
export type Effort = z.infer<typeof Effort>;

export const EvidenceFormat = z.enum(['rendered', 'xml']);
export type EvidenceFormat = z.infer<typeof EvidenceFormat>;

export const IncludeOptions = z
  .strictObject({
    evidence: z.boolean().default(true).describe('Return top-level evidence.'),
    evidence_instructions: z
      .boolean()
      .default(true)
      .describe('Return evidence_instructions (only together with evidence).'),
    agent_context: z.boolean().default(false).describe('Return agent_context (Markdown for hand-off to an LLM).'),
    evidence_format: EvidenceFormat.default('rendered').describe(
      'rendered adds a trailing <source_key> footer; xml omits it.',
    ),
    metadata_distribution: z.boolean().default(false).describe('Return metadata_distribution.'),
    metadata_dashboard: z.boolean().default(false).describe('Return metadata_dashboard.'),
    summary: z.boolean().default(true).describe('Return summary.'),
  })
  .describe('Response sections to return. Unknown keys are rejected.');
export type IncludeOptions = z.infer<typeof IncludeOptions>;

const PositiveCap = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional();

export const RetrievalControls = z
  .strictObject({
    max_evidence: PositiveCap.describe('Maximum number of evidence chains; omitted or null: no cap.'),
    max_evidence_tokens: PositiveCap.describe(
      'Strict cap on the estimated evidence size (chars_div_4_v1: ceil(characters / 4)); only complete ' +
        'chains are returned.',
    ),
  })
  .describe('Retrieval caps. Unknown keys are rejected.');
export type RetrievalControls = z.infer<typeof RetrievalControls>;

/**
 * A JSON object. Not z.record: zod's plain-object check reads `value.constructor.prototype` and throws a TypeError
 * on a body such as `{"metadata_filters": {"constructor": null}}` (found by the fuzz tests).
 */
const FilterObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  {
    message: 'expected an object of filter fields',
  },
);

/**
 * The filter object is only shape-checked here (an object or null); its fields, operators, values and limits are
 * validated by `parseMetadataFilters`, which needs the index's catalog for aliases and reports precise codes.
 */
export const ResearchRequest = z.strictObject({
  query: z
    .string()
    .describe(
      `Natural-language question. At most ${LIMITS.MAX_QUERY_CHARS} characters after normalization (NFKC, ` +
        `whitespace runs collapsed, trimmed); not empty.`,
    ),
  mode: Mode.default('basic').describe(
    'basic: fastest, no filters; research: filtered retrieval; agentic_research: decomposition, coverage and ' +
      'a retrieval plan.',
  ),
  effort: Effort.default('medium').describe('How much work goes into supporting evidence.'),
  // Shape only; see FilterObject. The OpenAPI document describes the full filter schema (schema/metadata-filters.ts).
  metadata_filters: FilterObject.nullable().optional(),
  include: IncludeOptions.default(IncludeOptions.parse({})),
  retrieval: RetrievalControls.nullable().optional(),
});
export type ResearchRequest = z.infer<typeof ResearchRequest>;
