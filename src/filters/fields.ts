/**
 * The eight public filter fields (spec 2.2), their operators and value formats. The catalog of the published
 * index supplies the values that really occur and their aliases; this table supplies the rules.
 */
export const FILTER_FIELDS = [
  'report_filing_date',
  'sec_fiscal_year',
  'sec_fiscal_year_end',
  'sec_form_type',
  'sec_gics_sector',
  'sec_gics_sub_industry',
  'sec_item_tag',
  'sec_ticker',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

export type FilterOperator = 'eq' | 'neq' | 'in' | 'gte' | 'lte';

export interface FieldRule {
  description: string;
  value_type: 'date' | 'fiscal_year' | 'month_day' | 'form_type' | 'string' | 'item_tag' | 'ticker';
  operators: readonly FilterOperator[];
  /** Fields with a closed set of values list them (with aliases) in the listing. */
  has_values: boolean;
  display_name: string;
}

export const FIELD_RULES: Record<FilterField, FieldRule> = {
  report_filing_date: {
    description: 'Date the filing was filed (YYYY-MM-DD). Filings with an unknown date never match a date filter.',
    value_type: 'date',
    operators: ['eq', 'gte', 'lte'],
    has_values: false,
    display_name: 'Filing dates',
  },
  sec_fiscal_year: {
    description: "Company's own fiscal-year label, FY-YYYY (the calendar year in which the fiscal year ends; years ending January 1-7 take the previous year's label).",
    value_type: 'fiscal_year',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Fiscal years',
  },
  sec_fiscal_year_end: {
    description: "Fiscal year end as MM-DD: a 10-K's own period end; for a 10-Q the company's latest fiscal year end.",
    value_type: 'month_day',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Fiscal year ends',
  },
  sec_form_type: {
    description: 'SEC form type: 10-K (annual report) or 10-Q (quarterly report).',
    value_type: 'form_type',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Form types',
  },
  sec_gics_sector: {
    description: 'GICS sector of the issuer.',
    value_type: 'string',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Sectors',
  },
  sec_gics_sub_industry: {
    description: 'GICS sub-industry of the issuer.',
    value_type: 'string',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Sub-industries',
  },
  sec_item_tag: {
    description: 'Filing section: 10K-Item-<item> for annual reports (e.g. 10K-Item-7 is MD&A); 10Q-Part<I|II>-Item-<item> for quarterly reports (e.g. 10Q-PartI-Item-2 is MD&A).',
    value_type: 'item_tag',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Item tags',
  },
  sec_ticker: {
    description: 'Primary ticker symbol of the issuer. Company names are accepted as aliases.',
    value_type: 'ticker',
    operators: ['eq', 'neq', 'in'],
    has_values: true,
    display_name: 'Tickers',
  },
};

export const TEN_K_ITEMS = [
  '1', '1A', '1B', '1C', '2', '3', '4', '5', '6', '7', '7A', '8', '9', '9A', '9B', '9C',
  '10', '11', '12', '13', '14', '15', '16',
] as const;
export const TEN_Q_ITEMS = {
  I: ['1', '2', '3', '4'],
  II: ['1', '1A', '2', '3', '4', '5', '6'],
} as const;

/** Every item tag the service defines, 10-K and 10-Q; the listing shows the ones present in the index. */
export const ALL_ITEM_TAGS: readonly string[] = [
  ...TEN_K_ITEMS.map((i) => `10K-Item-${i}`),
  ...TEN_Q_ITEMS.I.map((i) => `10Q-PartI-Item-${i}`),
  ...TEN_Q_ITEMS.II.map((i) => `10Q-PartII-Item-${i}`),
];

export function isFilterField(name: string): name is FilterField {
  return (FILTER_FIELDS as readonly string[]).includes(name);
}
