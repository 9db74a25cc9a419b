/**
 * Notice codes the service returns in `notices[].code` (spec 2.5 leaves the values open). Listed once here for the
 * OpenAPI document; test/unit/openapi.test.ts checks that every notice code used in src/ is in this table.
 */
export const NOTICE_CODES = {
  FILTERS_INFERRED: 'Filters were inferred from the question and applied (see summary.applied_metadata_filters).',
  RANKING_PREFERENCE: 'A section or quarter named in the question is ranked first; a preference, not a filter.',
  EVIDENCE_TRUNCATED_BY_TOKEN_BUDGET: 'Some complete chains did not fit max_evidence_tokens and were left out.',
  EVIDENCE_OMITTED_BY_TOKEN_BUDGET:
    'No complete chain fits max_evidence_tokens; evidence is omitted (not a no-data result).',
  COMPANY_NOT_IN_INDEX: 'A company named in the question has no filing in the index.',
  PERIOD_NOT_IN_INDEX: 'A period named in the question has no filing in the index.',
  LATEST_FILING_PREFERRED:
    "The question names no period: each named company's latest annual report is ranked first; a preference, not a filter.",
  PERIOD_WIDENED:
    'The annual reports after a named fiscal year were searched too (they restate it); their evidence ranks below.',
  PERIOD_SUBSTITUTED:
    'A named fiscal year was replaced by the following years, whose filings report it as a comparison year.',
  INFERRED_FILTER_DROPPED: 'An inferred filter left no filing and was dropped.',
  FILTER_VALUE_UNMATCHED: 'A caller filter value matches no filing in the index.',
  FILTERS_MATCH_NOTHING: 'The filters together match no filing in the index.',
  NO_MATCHING_EVIDENCE: 'No statement matched the question and filters.',
} as const;
export type NoticeCode = keyof typeof NOTICE_CODES;
