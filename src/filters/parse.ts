import { ApiError, type FieldError } from '../errors';
import type { Directory } from '../../index-format/types';
import type { FilterField } from '../../index-format/fields';
import { FIELD_RULES, FILTER_LIMITS, itemTagOf, isFilterField, type FilterOperator } from '../schema/filter-fields';

/** One normalized condition; a filter object is the AND of its conditions. */
export interface Condition {
  field: FilterField;
  op: FilterOperator;
  values: string[];
}

/** What a field's values resolve against: values in the index and aliases (company names -> tickers). */
export interface FilterVocabulary {
  /** Canonical value by lower-case alias, per field (case-insensitive matching of known values). */
  aliases: Partial<Record<FilterField, Map<string, string>>>;
}

/** Spellings of the two form types accepted besides `10k`, `10 K`, `10-k` (listed as aliases by /metadata-filters). */
export const FORM_TYPE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  '10-K': ['10k', 'annual report'],
  '10-Q': ['10q', 'quarterly report'],
};

const EXPRESSION_ROOTS = new Set(['and', 'or', 'not', 'field']);
const OPERATORS = new Set<FilterOperator>(['eq', 'neq', 'in', 'gte', 'lte']);

function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Normalizes one value of a field, or explains why it is invalid. With `vocab` null (request validation, before
 * the index is loaded) values that need the catalog (company names, sector spellings) are only shape-checked; the
 * query pipeline parses again with the catalog's vocabulary.
 */
export function normalizeFilterValue(
  field: FilterField,
  raw: string,
  vocab: FilterVocabulary | null,
): { value: string } | { error: string } {
  const v = raw.normalize('NFKC').trim();
  if (!v) return { error: 'empty value' };
  switch (FIELD_RULES[field].value_type) {
    case 'date':
      return isRealDate(v) ? { value: v } : { error: `"${raw}" is not a calendar date YYYY-MM-DD` };
    case 'fiscal_year': {
      const m = /^(?:fy)?[\s-]?(\d{4})$/i.exec(v);
      return m ? { value: `FY-${m[1]}` } : { error: `"${raw}" is not a fiscal year FY-YYYY` };
    }
    case 'month_day': {
      const m = /^(\d{2})-(\d{2})$/.exec(v);
      const ok =
        m &&
        Number(m[1]) >= 1 &&
        Number(m[1]) <= 12 &&
        Number(m[2]) >= 1 &&
        Number(m[2]) <= DAYS_IN_MONTH[Number(m[1]) - 1]!;
      return ok ? { value: v } : { error: `"${raw}" is not a month-day MM-DD` };
    }
    case 'form_type': {
      const m = /^10[\s-]?([kq])$/i.exec(v);
      if (m) return { value: `10-${m[1]!.toUpperCase()}` };
      const named = Object.entries(FORM_TYPE_ALIASES).find(([, aliases]) => aliases.includes(v.toLowerCase()));
      return named ? { value: named[0] } : { error: `"${raw}" is not a supported form type (10-K, 10-Q)` };
    }
    case 'item_tag': {
      const tag = itemTagOf(v);
      return tag ? { value: tag } : { error: `"${raw}" is not a known item tag (e.g. 10K-Item-7, 10Q-PartI-Item-2)` };
    }
    case 'ticker': {
      if (!vocab) return { value: v };
      const alias = vocab.aliases.sec_ticker?.get(v.toLowerCase());
      if (alias) return { value: alias };
      return /^[A-Za-z][A-Za-z0-9.-]{0,9}$/.test(v)
        ? { value: v.toUpperCase() }
        : { error: `"${raw}" is not a ticker or known company name` };
    }
    default: {
      const alias = vocab?.aliases[field]?.get(v.toLowerCase());
      return { value: alias ?? v };
    }
  }
}

/**
 * Validates and normalizes a caller's `metadata_filters` (spec 2.2, 7, 8): the three value forms, operators allowed
 * per field, value formats, aliases and limits. Throws ApiError with a precise code; collects every field error.
 */
export function parseMetadataFilters(input: Record<string, unknown>, vocab: FilterVocabulary | null): Condition[] {
  const keys = Object.keys(input);
  const roots = keys.filter((k) => EXPRESSION_ROOTS.has(k.toLowerCase()));
  if (roots.length) {
    throw new ApiError('FILTER_EXPRESSION_UNSUPPORTED', {
      errors: roots.map((k) => ({
        path: `metadata_filters.${k}`,
        message: 'boolean expression roots are not supported',
      })),
    });
  }
  if (keys.length > FILTER_LIMITS.MAX_FILTER_CONDITIONS) {
    throw new ApiError('FILTER_LIMIT_EXCEEDED', {
      errors: [{ path: 'metadata_filters', message: `at most ${FILTER_LIMITS.MAX_FILTER_CONDITIONS} conditions` }],
    });
  }
  const errors: FieldError[] = [];
  // Violations of the spec's section 8 limits get their own code, reported with every other error found.
  const limitErrors: FieldError[] = [];
  const conditions: Condition[] = [];
  let totalValues = 0;
  let conditionCount = 0;

  for (const key of keys) {
    const path = `metadata_filters.${key}`;
    if (!isFilterField(key)) {
      errors.push({ path, message: `unknown filter field; known fields: ${Object.keys(FIELD_RULES).join(', ')}` });
      continue;
    }
    const rule = FIELD_RULES[key];
    const raw = input[key];
    const forms: [FilterOperator, unknown, string][] = [];
    if (typeof raw === 'string') forms.push(['eq', raw, path]);
    else if (Array.isArray(raw)) forms.push(['in', raw, path]);
    else if (raw && typeof raw === 'object') {
      const opKeys = Object.keys(raw);
      if (!opKeys.length) errors.push({ path, message: 'operator object is empty' });
      for (const op of opKeys) {
        if (EXPRESSION_ROOTS.has(op.toLowerCase())) {
          throw new ApiError('FILTER_EXPRESSION_UNSUPPORTED', {
            errors: [{ path: `${path}.${op}`, message: 'boolean expressions are not supported' }],
          });
        }
        forms.push([op as FilterOperator, (raw as Record<string, unknown>)[op], `${path}.${op}`]);
      }
    } else {
      errors.push({ path, message: 'expected a string, an array of strings or an operator object' });
      continue;
    }
    // A condition is one (field, operator) pair; an operator object holds one per key.
    conditionCount += forms.length;
    if (conditionCount > FILTER_LIMITS.MAX_FILTER_CONDITIONS) {
      limitErrors.push({ path, message: `at most ${FILTER_LIMITS.MAX_FILTER_CONDITIONS} conditions in total` });
      break;
    }
    for (const [op, value, where] of forms) {
      if (!OPERATORS.has(op) || !rule.operators.includes(op)) {
        errors.push({ path: where, message: `operator not allowed for ${key}; allowed: ${rule.operators.join(', ')}` });
        continue;
      }
      const list = op === 'in' ? value : [value];
      if (!Array.isArray(list)) {
        errors.push({ path: where, message: 'operator "in" takes an array of strings' });
        continue;
      }
      if (op === 'in' && list.length === 0) {
        errors.push({ path: where, message: 'an "in" list needs at least one value' });
        continue;
      }
      if (list.length > FILTER_LIMITS.MAX_VALUES_PER_CONDITION) {
        limitErrors.push({
          path: where,
          message: `at most ${FILTER_LIMITS.MAX_VALUES_PER_CONDITION} values per condition`,
        });
        continue;
      }
      totalValues += list.length;
      const values: string[] = [];
      list.forEach((item, i) => {
        const itemPath = op === 'in' ? `${where}[${i}]` : where;
        if (typeof item !== 'string') {
          errors.push({ path: itemPath, message: 'filter values are strings' });
          return;
        }
        if ([...item].length > FILTER_LIMITS.MAX_FILTER_VALUE_LENGTH) {
          limitErrors.push({
            path: itemPath,
            message: `values are at most ${FILTER_LIMITS.MAX_FILTER_VALUE_LENGTH} characters`,
          });
          return;
        }
        const n = normalizeFilterValue(key, item, vocab);
        if ('error' in n) errors.push({ path: itemPath, message: n.error });
        else if (!values.includes(n.value)) values.push(n.value);
      });
      if (values.length) conditions.push({ field: key, op, values });
    }
  }
  if (totalValues > FILTER_LIMITS.MAX_FILTER_VALUES_TOTAL) {
    limitErrors.push({
      path: 'metadata_filters',
      message: `at most ${FILTER_LIMITS.MAX_FILTER_VALUES_TOTAL} values in total`,
    });
  }
  if (limitErrors.length) throw new ApiError('FILTER_LIMIT_EXCEEDED', { errors: [...limitErrors, ...errors] });
  if (errors.length) throw new ApiError('INVALID_FILTER', { errors });
  return conditions;
}

/** The public shape of a condition list: scalar for eq, array for in, operator object otherwise. */
export function conditionsToObject(conditions: readonly Condition[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of conditions) {
    const value = c.op === 'in' ? c.values : c.values[0];
    const prev = out[c.field];
    if (prev === undefined && (c.op === 'eq' || c.op === 'in')) out[c.field] = value;
    else {
      const obj: Record<string, unknown> =
        prev === undefined
          ? {}
          : typeof prev === 'object' && !Array.isArray(prev)
            ? (prev as Record<string, unknown>)
            : Array.isArray(prev)
              ? { in: prev }
              : { eq: prev };
      obj[c.op] = value;
      out[c.field] = obj;
    }
  }
  return out;
}

/** Filter vocabulary from the directory: company names and tickers for sec_ticker, case-folded known values. */
export function filterVocabulary(catalog: Pick<Directory, 'companies' | 'field_values'>): FilterVocabulary {
  const aliases: FilterVocabulary['aliases'] = {};
  const tickers = new Map<string, string>();
  for (const c of catalog.companies) for (const a of [...c.aliases, c.ticker.toLowerCase()]) tickers.set(a, c.ticker);
  aliases.sec_ticker = tickers;
  for (const field of ['sec_gics_sector', 'sec_gics_sub_industry'] as const) {
    aliases[field] = new Map(Object.keys(catalog.field_values[field]).map((v) => [v.toLowerCase(), v]));
  }
  return { aliases };
}
