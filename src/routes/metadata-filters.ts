import type { IndexReader } from '../core/index-reader';
import { ApiError } from '../errors';
import { FIELD_RULES, FILTER_FIELDS, isFilterField, type FilterField } from '../filters/fields';
import type { CatalogHeader } from '../format/types';
import { LIMITS } from '../schema/request';

interface AllowedValue {
  value: string;
  display_value: string;
  aliases: string[];
}

function allowedValues(catalog: CatalogHeader, field: FilterField): AllowedValue[] {
  const values = Object.keys(catalog.field_values[field] ?? {}).sort();
  return values.map((value) => {
    if (field === 'sec_ticker') {
      const c = catalog.companies.find((x) => x.ticker === value);
      return { value, display_value: c ? `${c.company} (${value})` : value, aliases: c ? c.aliases.filter((a) => a !== value.toLowerCase()) : [] };
    }
    if (field === 'sec_form_type') return { value, display_value: value === '10-K' ? 'Annual report (10-K)' : 'Quarterly report (10-Q)', aliases: [value.replace('-', '').toLowerCase()] };
    if (field === 'sec_fiscal_year') return { value, display_value: `Fiscal ${value.slice(3)}`, aliases: [`fy${value.slice(3)}`, value.slice(3)] };
    return { value, display_value: value, aliases: [] };
  });
}

/** GET /metadata-filters: the field descriptors, with the values and bounds of the published index. */
export function listMetadataFilters(reader: IndexReader, url: URL) {
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'include_values' && k !== 'field');
  if (unknown.length) throw new ApiError('INVALID_PARAMETER', { errors: unknown.map((k) => ({ path: k, message: 'unknown query parameter' })) });
  const includeRaw = url.searchParams.get('include_values');
  if (includeRaw !== null && includeRaw !== 'true' && includeRaw !== 'false') {
    throw new ApiError('INVALID_PARAMETER', { errors: [{ path: 'include_values', message: 'expected true or false' }] });
  }
  const includeValues = includeRaw === 'true';
  const only = url.searchParams.get('field');
  if (only !== null && !isFilterField(only)) {
    throw new ApiError('INVALID_PARAMETER', { errors: [{ path: 'field', message: `unknown field; known: ${FILTER_FIELDS.join(', ')}` }] });
  }
  const { catalog } = reader;
  const fields = FILTER_FIELDS.filter((f) => only === null || f === only).map((name) => {
    const rule = FIELD_RULES[name];
    const bounds = catalog.numeric_bounds[name];
    return {
      name,
      description: rule.description,
      value_type: rule.value_type,
      operators: [...rule.operators],
      has_values: rule.has_values,
      ...(bounds ? { numeric_bounds: bounds } : {}),
      max_values_per_condition: LIMITS.MAX_VALUES_PER_CONDITION,
      max_value_length: LIMITS.MAX_FILTER_VALUE_LENGTH,
      ...(includeValues && rule.has_values ? { allowed_values: allowedValues(catalog, name) } : {}),
    };
  });
  return { domain: catalog.domain, schema_version: catalog.schema_version, fields };
}
