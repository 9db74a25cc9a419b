/**
 * The eight metadata fields every source carries (spec 2.2), and the items of the 10-K and 10-Q forms that name a
 * section. The builder writes them into the catalog and tags sections with the items; the Worker filters by them
 * (src/schema/filter-fields.ts adds the filter rules, display values and aliases).
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
