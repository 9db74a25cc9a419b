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
    "The question names no period: each named company's latest annual report is ranked first; " +
    'a preference, not a filter.',
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

/** A message for the caller: `warning`s also go to summary.warnings, every notice to the top-level `notices`. */
export interface ResponseNotice {
  code: NoticeCode;
  message: string;
  level: 'info' | 'warning';
}

const info = (code: NoticeCode, message: string): ResponseNotice => ({ code, message, level: 'info' });
const warning = (code: NoticeCode, message: string): ResponseNotice => ({ code, message, level: 'warning' });

/**
 * The wording of every notice, in one place: the stages that find a reason for a notice (inference, planning, the
 * response) pass the facts; these say them. Filters and conditions arrive already described as text.
 */
export const NOTICES = {
  // Planning (src/plan/query-plan.ts).
  filtersInferred: (filters: string) =>
    info('FILTERS_INFERRED', `Filters inferred from the query and applied: ${filters}.`),
  latestFilingPreferred: (filings: number) =>
    info(
      'LATEST_FILING_PREFERRED',
      'The question names no period: evidence from the latest annual report ' +
        `(${filings} filing${filings > 1 ? 's' : ''}) is ranked first; this is a preference, not a filter.`,
    ),
  periodWidened: (years: readonly string[]) =>
    info(
      'PERIOD_WIDENED',
      `Later annual reports (${years.join(', ')}), which restate the fiscal year the question names as a comparative ` +
        "period, were searched too; their evidence ranks below that year's own filings.",
    ),
  rankingPreference: (label: string) =>
    info('RANKING_PREFERENCE', `Evidence from ${label} is ranked first; this is a preference, not a filter.`),

  // Inferring filters (src/filters/infer.ts).
  unknownTicker: (ticker: string) =>
    warning(
      'COMPANY_NOT_IN_INDEX',
      `"${ticker}" looks like a ticker symbol, but no company with that ticker is in the index; ` +
        'it was not used as a filter.',
    ),
  quarterNotInIndex: (quarter: string, scope: string) =>
    warning(
      'PERIOD_NOT_IN_INDEX',
      `No quarterly report for ${quarter} matches the filters${scope}; evidence from other periods may be returned.`,
    ),
  yearsNotInIndex: (years: readonly string[], covers: string) =>
    warning(
      'PERIOD_NOT_IN_INDEX',
      `No filings for ${years.join(', ')} in the index${covers}; ` +
        `${years.length > 1 ? 'those periods were' : 'that period was'} not used as a filter.`,
    ),
  yearsSubstituted: (years: readonly string[], covers: string, substitutions: readonly string[]) =>
    warning(
      'PERIOD_SUBSTITUTED',
      `No filings for ${years.join(', ')} in the index${covers}; used the next fiscal years instead ` +
        `(${substitutions.join('; ')}), whose filings report it as a comparative period.`,
    ),
  yearFilterSubstituted: (filter: string, usable: readonly string[], years: readonly string[]) =>
    warning(
      'PERIOD_SUBSTITUTED',
      `No indexed filing matches ${filter} with the other filters; used ${usable.join(', ')} instead, ` +
        `whose filings report ${years.join(', ')} as a comparative period.`,
    ),
  callerFiltersMatchNothing: (filters: string) =>
    warning('FILTERS_MATCH_NOTHING', `No indexed filing matches the metadata_filters (${filters}).`),
  filtersMatchNothing: (filters: string) => warning('FILTERS_MATCH_NOTHING', `No indexed filing matches ${filters}.`),
  inferredFilterDropped: (filter: string) =>
    warning(
      'INFERRED_FILTER_DROPPED',
      `No indexed filing matches ${filter} together with the other filters; that inferred filter was not applied.`,
    ),
  filterValueUnmatched: (field: string, value: string, others: string) =>
    warning(
      'FILTER_VALUE_UNMATCHED',
      `No indexed filing matches ${field}=${value} together with the other filters (${others || 'none'}).`,
    ),

  // The outcome (src/render/response.ts).
  noMatchingStatement: () =>
    warning('NO_MATCHING_EVIDENCE', 'No statement in the index matched the query and filters.'),
  noRelevantChain: () =>
    warning('NO_MATCHING_EVIDENCE', 'No evidence chain was relevant enough to the query to return.'),
  /** Also the response's no_evidence_reason. */
  budgetShortfall: (tokenCap: number | null, available: number, smallest: number | undefined) =>
    `No complete evidence chain fits max_evidence_tokens=${tokenCap}; ` +
    `the smallest of the ${available} available chains needs ${smallest} tokens.`,
  evidenceOmittedByBudget: (reason: string) =>
    warning('EVIDENCE_OMITTED_BY_TOKEN_BUDGET', `${reason} Evidence was omitted; this is not a no-data result.`),
  evidenceTruncatedByBudget: (tokenCap: number | null, kept: number, available: number, tokens: number) =>
    info(
      'EVIDENCE_TRUNCATED_BY_TOKEN_BUDGET',
      `max_evidence_tokens=${tokenCap} kept ${kept} of ${available} evidence chains (${tokens} estimated tokens).`,
    ),
} as const satisfies Record<string, (...args: never[]) => ResponseNotice | string>;
