import { z } from 'zod';

/** Spec section 8. */
export const LIMITS = {
  MAX_BODY_BYTES: 65_536,
  MAX_QUERY_CHARS: 4_000,
  MAX_FILTER_CONDITIONS: 50,
  MAX_VALUES_PER_CONDITION: 100,
  MAX_FILTER_VALUES_TOTAL: 250,
  MAX_FILTER_VALUE_LENGTH: 256,
  MAX_AGENTIC_REQUIREMENTS: 4,
} as const;

export const Mode = z.enum(['basic', 'research', 'agentic_research']);
export type Mode = z.infer<typeof Mode>;

export const Effort = z.enum(['low', 'medium', 'high']);
export type Effort = z.infer<typeof Effort>;

export const EvidenceFormat = z.enum(['rendered', 'xml']);
export type EvidenceFormat = z.infer<typeof EvidenceFormat>;

export const IncludeOptions = z.strictObject({
  evidence: z.boolean().default(true),
  evidence_instructions: z.boolean().default(true),
  agent_context: z.boolean().default(false),
  evidence_format: EvidenceFormat.default('rendered'),
  metadata_distribution: z.boolean().default(false),
  metadata_dashboard: z.boolean().default(false),
  summary: z.boolean().default(true),
});
export type IncludeOptions = z.infer<typeof IncludeOptions>;

const PositiveCap = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional();

export const RetrievalControls = z.strictObject({
  max_evidence: PositiveCap,
  max_evidence_tokens: PositiveCap,
});
export type RetrievalControls = z.infer<typeof RetrievalControls>;

/**
 * The filter object is only shape-checked here (an object or null); its fields, operators, values and limits are
 * validated by `parseMetadataFilters`, which needs the index's catalog for aliases and reports precise codes.
 */
export const ResearchRequest = z.strictObject({
  query: z.string(),
  mode: Mode.default('basic'),
  effort: Effort.default('medium'),
  metadata_filters: z.record(z.string(), z.unknown()).nullable().optional(),
  include: IncludeOptions.default(IncludeOptions.parse({})),
  retrieval: RetrievalControls.nullable().optional(),
});
export type ResearchRequest = z.infer<typeof ResearchRequest>;
