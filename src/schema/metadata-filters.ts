import { z } from 'zod';
import { FILTER_FIELDS, type FilterField } from '../../index-format/fields';
import { FIELD_RULES, type FilterOperator } from './filter-fields';
import { LIMITS } from './request';

const FORMAT_HINTS: Record<(typeof FIELD_RULES)[FilterField]['value_type'], string> = {
  date: 'A calendar date YYYY-MM-DD.',
  fiscal_year: 'A fiscal year FY-YYYY (also accepted: fy2023, FY 2023, 2023).',
  month_day: 'A month-day MM-DD that exists in some year (02-29 allowed).',
  form_type: 'A form type: 10-K or 10-Q (also accepted: 10k, 10 q, annual report, quarterly report).',
  item_tag:
    'An item tag such as 10K-Item-1A or 10Q-PartI-Item-2 (also accepted: the aliases listed by /metadata-filters).',
  ticker: 'A ticker symbol or a company name or alias listed by /metadata-filters.',
  string: 'A value listed by /metadata-filters (case-insensitive).',
};

/**
 * The documented shape of `metadata_filters`, generated from the same field rules the validator uses: per field,
 * a scalar (eq), an array (in) or an object keyed by the operators that field allows. Formats, aliases, calendar
 * validity and the total-values limit are checked by `parseMetadataFilters` (src/filters/parse.ts); a property
 * test keeps the two in agreement (whatever the validator accepts, this schema accepts).
 */
export function metadataFiltersSchema() {
  const shape: Partial<Record<FilterField, z.ZodType>> = {};
  for (const field of FILTER_FIELDS) {
    const rule = FIELD_RULES[field];
    const value = z.string().min(1).max(LIMITS.MAX_FILTER_VALUE_LENGTH).describe(FORMAT_HINTS[rule.value_type]);
    const list = z.array(value).min(1).max(LIMITS.MAX_VALUES_PER_CONDITION);
    const ops: Partial<Record<FilterOperator, z.ZodType>> = {};
    for (const op of rule.operators) ops[op] = (op === 'in' ? list : value).optional();
    const forms: z.ZodType[] = [value];
    if (rule.operators.includes('in')) forms.push(list);
    forms.push(z.strictObject(ops).describe(`Operators: ${rule.operators.join(', ')}.`));
    shape[field] = z
      .union(forms as [z.ZodType, z.ZodType, ...z.ZodType[]])
      .optional()
      .describe(rule.description);
  }
  return z
    .strictObject(shape)
    .describe(
      `Filter fields ANDed together. A string means eq, an array means in, an object is keyed by operators. ` +
        `Boolean expression roots (and, or, not, field) are rejected with FILTER_EXPRESSION_UNSUPPORTED. Limits: ` +
        `${LIMITS.MAX_FILTER_CONDITIONS} conditions, ${LIMITS.MAX_VALUES_PER_CONDITION} values per condition, ` +
        `${LIMITS.MAX_FILTER_VALUES_TOTAL} values in total, ${LIMITS.MAX_FILTER_VALUE_LENGTH} characters per value. ` +
        `Not accepted in basic mode.`,
    );
}
