import { z } from 'zod';
import { Effort, Mode } from './request';

export const Notice = z.strictObject({ code: z.string(), message: z.string() });

export const EvidenceBudget = z.strictObject({
  requested_max_tokens: z.number().int().min(1).nullable().optional(),
  estimator: z.literal('chars_div_4_v1').optional(),
  estimated_tokens: z.number().int().min(0),
  available_evidence_count: z.number().int().min(0),
  returned_evidence_count: z.number().int().min(0),
  truncated: z.boolean(),
});

export const ResponseSummary = z.strictObject({
  domain: z.string(),
  mode: Mode,
  effort: Effort,
  evidence_count: z.number().int().min(0),
  submitted_metadata_filters: z.record(z.string(), z.unknown()).optional(),
  applied_metadata_filters: z.record(z.string(), z.unknown()).optional(),
  warnings: z.array(z.string()).optional(),
});

export const CoverageRequirement = z.strictObject({
  id: z.string(),
  label: z.string(),
  query: z.string(),
  status: z.enum(['covered', 'missing', 'omitted_by_budget']),
  retrieved_evidence_count: z.number().int().min(0),
  returned_evidence_count: z.number().int().min(0),
});

export const Coverage = z.strictObject({
  status: z.enum(['complete', 'partial', 'none', 'not_assessed']),
  requirement_count: z.number().int().min(0),
  covered_requirement_count: z.number().int().min(0),
  requirements: z.array(CoverageRequirement).optional(),
  omitted_requirements: z.array(z.string()).optional(),
  limitations: z
    .array(z.enum(['planning_fallback', 'requirement_limit', 'missing_evidence', 'token_budget']))
    .optional(),
});

export const RetrievalPlan = z.strictObject({
  queries: z.array(
    z.strictObject({
      query: z.string(),
      label: z.string().optional(),
      applied_metadata_filters: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

export const AgentContext = z.strictObject({
  text: z.string(),
  content_type: z.literal('text/markdown').optional(),
  source_fields: z.array(z.string()).optional(),
});

const DistributionEntry = z.union([
  z.strictObject({ display_name: z.string(), values: z.record(z.string(), z.number()) }),
  z.strictObject({ display_name: z.string(), value: z.string() }),
]);
export const MetadataDistribution = z.record(z.string(), z.union([z.number().int().min(0), DistributionEntry]));

export const ResearchResponse = z.strictObject({
  request_id: z.string(),
  notices: z.array(Notice).optional(),
  metadata_distribution: MetadataDistribution.optional(),
  metadata_dashboard: z.string().optional(),
  evidence: z.string().optional(),
  evidence_instructions: z.string().optional(),
  agent_context: AgentContext.optional(),
  summary: ResponseSummary.optional(),
  coverage: Coverage.optional(),
  evidence_budget: EvidenceBudget.optional(),
  retrieval_plan: RetrievalPlan.optional(),
});
export type ResearchResponse = z.infer<typeof ResearchResponse>;

export const ErrorDetail = z
  .looseObject({
    code: z.string().describe('Stable error code (see the error-code table in the API description).'),
    errors: z
      .array(z.strictObject({ path: z.string(), message: z.string() }))
      .optional()
      .describe('Validation failures, one per offending field path.'),
    request_id: z.string().optional(),
  })
  .describe('Machine-readable detail; validation errors list every offending field path.');

export const ErrorResponse = z.strictObject({
  status_code: z.number().int(),
  message: z.string(),
  detail: ErrorDetail.nullable().optional(),
});

export const AllowedValue = z.strictObject({
  value: z.string(),
  display_value: z.string(),
  aliases: z.array(z.string()).describe('Other spellings accepted as filter values (case-insensitive).'),
});

export const FieldDescriptor = z.strictObject({
  name: z.string(),
  description: z.string(),
  value_type: z.enum(['date', 'fiscal_year', 'month_day', 'form_type', 'string', 'item_tag', 'ticker']),
  operators: z.array(z.enum(['eq', 'neq', 'in', 'gte', 'lte'])),
  has_values: z.boolean().describe('True when the field has a closed set of values, listed with include_values=true.'),
  numeric_bounds: z
    .strictObject({ min: z.number(), max: z.number() })
    .optional()
    .describe('Bounds of the values in the index: years for sec_fiscal_year, YYYYMMDD numbers for report_filing_date.'),
  max_values_per_condition: z.number().int(),
  max_value_length: z.number().int(),
  allowed_values: z.array(AllowedValue).optional().describe('Present when include_values=true and has_values.'),
});

export const MetadataFiltersListing = z.strictObject({
  domain: z.string(),
  schema_version: z.string(),
  fields: z.array(FieldDescriptor),
});
export type MetadataFiltersListing = z.infer<typeof MetadataFiltersListing>;
