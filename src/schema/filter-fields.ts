import { FILTER_FIELDS, type FilterField, TEN_K_ITEM_TITLES, TEN_Q_ITEM_TITLES } from '../../index-format/fields';

/**
 * The rules of the eight public filter fields (spec 2.2): their operators and value formats, and the item tags with
 * display values and aliases. The fields and the form items themselves are in index-format/fields.ts; the catalog of
 * the published index supplies the values that really occur and their aliases.
 */

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
      "Company's own fiscal-year label, FY-YYYY (the calendar year in which the fiscal year ends; years " +
      "ending January 1-7 take the previous year's label).",
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
      'Filing section: 10K-Item-<item> for annual reports (e.g. 10K-Item-7 is MD&A); ' +
      '10Q-Part<I|II>-Item-<item> for quarterly reports (e.g. 10Q-PartI-Item-2 is MD&A).',
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
