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

/** Spec section 8: how large a metadata_filters object may be (src/schema/request.ts LIMITS includes them). */
export const FILTER_LIMITS = {
  MAX_FILTER_CONDITIONS: 50,
  MAX_VALUES_PER_CONDITION: 100,
  MAX_FILTER_VALUES_TOTAL: 250,
  MAX_FILTER_VALUE_LENGTH: 256,
} as const;

export type FilterOperator = 'eq' | 'neq' | 'in' | 'gte' | 'lte';

export interface FieldRule {
  description: string;
  value_type: 'date' | 'fiscal_year' | 'month_day' | 'form_type' | 'string' | 'item_tag' | 'ticker';
  operators: readonly FilterOperator[];
  /** Fields with a closed set of values list them (with aliases) in the listing. */
  has_values: boolean;
  /** Title of the field in metadata_distribution and the dashboard. */
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
    description:
      "Company's own fiscal-year label, FY-YYYY (the calendar year in which the fiscal year ends; years ending January 1-7 take the previous year's label).",
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
    description:
      'Filing section: 10K-Item-<item> for annual reports (e.g. 10K-Item-7 is MD&A); 10Q-Part<I|II>-Item-<item> for quarterly reports (e.g. 10Q-PartI-Item-2 is MD&A).',
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
    display_name: 'Ticker symbols',
  },
};

/** 10-K items (Regulation S-K order) and their standard titles, used for display values and aliases. */
// An array, not an object: object keys that look like integers would be reordered ahead of '1A', '7A', ...
export const TEN_K_ITEM_TITLES: readonly (readonly [string, string])[] = [
  ['1', 'Business'],
  ['1A', 'Risk Factors'],
  ['1B', 'Unresolved Staff Comments'],
  ['1C', 'Cybersecurity'],
  ['2', 'Properties'],
  ['3', 'Legal Proceedings'],
  ['4', 'Mine Safety Disclosures'],
  ['5', "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities"],
  ['6', '[Reserved] (formerly Selected Financial Data)'],
  ['7', "Management's Discussion and Analysis of Financial Condition and Results of Operations"],
  ['7A', 'Quantitative and Qualitative Disclosures About Market Risk'],
  ['8', 'Financial Statements and Supplementary Data'],
  ['9', 'Changes in and Disagreements with Accountants on Accounting and Financial Disclosure'],
  ['9A', 'Controls and Procedures'],
  ['9B', 'Other Information'],
  ['9C', 'Disclosure Regarding Foreign Jurisdictions that Prevent Inspections'],
  ['10', 'Directors, Executive Officers and Corporate Governance'],
  ['11', 'Executive Compensation'],
  ['12', 'Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters'],
  ['13', 'Certain Relationships and Related Transactions, and Director Independence'],
  ['14', 'Principal Accountant Fees and Services'],
  ['15', 'Exhibits and Financial Statement Schedules'],
  ['16', 'Form 10-K Summary'],
];
export const TEN_K_ITEMS: readonly string[] = TEN_K_ITEM_TITLES.map(([item]) => item);

/** 10-Q items per part; the part is part of the tag because both parts reuse item numbers. */
export const TEN_Q_ITEM_TITLES: Readonly<Record<'I' | 'II', readonly (readonly [string, string])[]>> = {
  I: [
    ['1', 'Financial Statements'],
    ['2', "Management's Discussion and Analysis of Financial Condition and Results of Operations"],
    ['3', 'Quantitative and Qualitative Disclosures About Market Risk'],
    ['4', 'Controls and Procedures'],
  ],
  II: [
    ['1', 'Legal Proceedings'],
    ['1A', 'Risk Factors'],
    ['2', 'Unregistered Sales of Equity Securities and Use of Proceeds'],
    ['3', 'Defaults Upon Senior Securities'],
    ['4', 'Mine Safety Disclosures'],
    ['5', 'Other Information'],
    ['6', 'Exhibits'],
  ],
};

export const TEN_Q_ITEMS = {
  I: TEN_Q_ITEM_TITLES.I.map(([item]) => item),
  II: TEN_Q_ITEM_TITLES.II.map(([item]) => item),
} as const;

export interface ItemTagInfo {
  tag: string;
  display_value: string;
  /** Other spellings accepted as filter values (case-insensitive). */
  aliases: string[];
}

function tenKInfo([item, title]: readonly [string, string]): ItemTagInfo {
  // "Item 1A" and the plain title ("risk factors") name the 10-K item; 10-Q items need their full tag because the
  // same numbers and titles recur in both parts of a 10-Q.
  const aliases = [`item ${item.toLowerCase()}`, `10-k item ${item.toLowerCase()}`];
  if (!title.startsWith('[')) aliases.push(title.toLowerCase());
  return { tag: `10K-Item-${item}`, display_value: `10-K Item ${item}. ${title}`, aliases };
}

/**
 * The cover pages: not items of the forms, but they hold the registrant's securities registered under Section 12(b)
 * (class, trading symbol, exchange), its shares outstanding and public float. The 10-K tag keeps the form
 * `10K-Item-<item>` every annual-report tag has (docs/DECISIONS.md "Cover pages").
 */
export const COVER_ITEM_TAGS: readonly ItemTagInfo[] = [
  { tag: '10K-Item-Cover', display_value: '10-K cover page', aliases: ['cover page', '10-k cover page', 'item cover'] },
  { tag: '10Q-Cover', display_value: '10-Q cover page', aliases: ['10-q cover page'] },
];

/** Every item tag the service defines, 10-K then 10-Q, with display values and aliases. */
export const ITEM_TAGS: readonly ItemTagInfo[] = [
  ...TEN_K_ITEM_TITLES.map(tenKInfo),
  ...(['I', 'II'] as const).flatMap((part) =>
    TEN_Q_ITEM_TITLES[part].map(([item, title]) => ({
      tag: `10Q-Part${part}-Item-${item}`,
      display_value: `10-Q Part ${part} Item ${item}. ${title}`,
      aliases: [`10-q part ${part.toLowerCase()} item ${item.toLowerCase()}`],
    })),
  ),
  ...COVER_ITEM_TAGS,
];
export const ALL_ITEM_TAGS: readonly string[] = ITEM_TAGS.map((t) => t.tag);

const ITEM_TAG_BY_SPELLING = new Map<string, string>(
  ITEM_TAGS.flatMap((t) => [[t.tag.toLowerCase(), t.tag] as const, ...t.aliases.map((a) => [a, t.tag] as const)]),
);

/** The canonical tag for a tag or one of its aliases (case and spacing ignored), or undefined. */
export function itemTagOf(value: string): string | undefined {
  return ITEM_TAG_BY_SPELLING.get(value.trim().replace(/\s+/g, ' ').toLowerCase());
}

export function isFilterField(name: string): name is FilterField {
  return (FILTER_FIELDS as readonly string[]).includes(name);
}
