import type { IndexReader } from '../../index-format/index-reader';
import { ApiError } from '../errors';
import { FILTER_FIELDS, type FilterField } from '../../index-format/fields';
import { FIELD_RULES, isFilterField, ITEM_TAGS } from '../schema/filter-fields';
import { FORM_TYPE_ALIASES } from '../filters/parse';
import type { Directory } from '../../index-format/types';
import { LIMITS } from '../schema/request';
import type { MetadataFiltersListing } from '../schema/response';

type FieldDescriptor = MetadataFiltersListing['fields'][number];
type AllowedValue = NonNullable<FieldDescriptor['allowed_values']>[number];

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Display value and aliases of one value that occurs in the index. Every alias listed is accepted as a filter value.
 */
function describeValue(catalog: Directory, field: FilterField, value: string): AllowedValue {
  switch (field) {
    case 'sec_ticker': {
      const c = catalog.companies.find((x) => x.ticker === value);
      return {
        value,
        display_value: c ? `${c.company} (${value})` : value,
        aliases: c ? c.aliases.filter((a) => a !== value.toLowerCase()) : [],
      };
    }
    case 'sec_form_type':
      return {
        value,
        display_value: value === '10-K' ? 'Annual report (10-K)' : 'Quarterly report (10-Q)',
        aliases: [...(FORM_TYPE_ALIASES[value] ?? [])],
      };
    case 'sec_fiscal_year':
      return {
        value,
        display_value: `Fiscal year ${value.slice(3)}`,
        aliases: [`fy${value.slice(3)}`, value.slice(3)],
      };
    case 'sec_fiscal_year_end':
      return {
        value,
        display_value: `${MONTHS[Number(value.slice(0, 2)) - 1]} ${Number(value.slice(3))}`,
        aliases: [],
      };
    case 'sec_item_tag': {
      const info = ITEM_TAGS.find((t) => t.tag === value);
      return { value, display_value: info?.display_value ?? value, aliases: info?.aliases ?? [] };
    }
    default:
      return { value, display_value: value, aliases: [] };
  }
}

function allowedValues(catalog: Directory, field: FilterField): AllowedValue[] {
  const present = Object.keys(catalog.field_values[field] ?? {});
  // Item tags in the service's canonical order (10-K items, then 10-Q parts); everything else sorted.
  const ordered =
    field === 'sec_item_tag' ? ITEM_TAGS.map((t) => t.tag).filter((t) => present.includes(t)) : present.sort();
  return ordered.map((value) => describeValue(catalog, field, value));
}

function parseBoolean(name: string, raw: string | null): boolean {
  if (raw === null) return false;
  const v = raw.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ApiError('INVALID_PARAMETER', { errors: [{ path: name, message: 'expected true or false' }] });
}

/** Query parameters of GET /metadata-filters, validated before the index is touched. */
export function parseListingParams(url: URL): { includeValues: boolean; field: FilterField | null } {
  const errors = [...new Set(url.searchParams.keys())]
    .filter((k) => k !== 'include_values' && k !== 'field')
    .map((k) => ({ path: k, message: 'unknown query parameter; known: include_values, field' }));
  for (const k of ['include_values', 'field']) {
    if (url.searchParams.getAll(k).length > 1) errors.push({ path: k, message: 'given more than once' });
  }
  if (errors.length) throw new ApiError('INVALID_PARAMETER', { errors });
  const includeValues = parseBoolean('include_values', url.searchParams.get('include_values'));
  const field = url.searchParams.get('field');
  if (field !== null && !isFilterField(field)) {
    throw new ApiError('INVALID_PARAMETER', {
      errors: [{ path: 'field', message: `unknown field; known: ${FILTER_FIELDS.join(', ')}` }],
    });
  }
  return { includeValues, field };
}

/** GET /metadata-filters: the field descriptors, with the values and bounds of the published index. */
export function listMetadataFilters(
  reader: IndexReader,
  params: { includeValues: boolean; field: FilterField | null },
): MetadataFiltersListing {
  const catalog = reader.directory;
  const fields = FILTER_FIELDS.filter((f) => params.field === null || f === params.field).map(
    (name): FieldDescriptor => {
      const rule = FIELD_RULES[name];
      const bounds = catalog.numeric_bounds[name];
      return {
        name,
        description: rule.description,
        value_type: rule.value_type,
        operators: [...rule.operators],
        has_values: rule.has_values,
        ...(bounds ? { numeric_bounds: { min: bounds.min, max: bounds.max } } : {}),
        max_values_per_condition: LIMITS.MAX_VALUES_PER_CONDITION,
        max_value_length: LIMITS.MAX_FILTER_VALUE_LENGTH,
        ...(params.includeValues && rule.has_values ? { allowed_values: allowedValues(catalog, name) } : {}),
      };
    },
  );
  return { domain: catalog.domain, schema_version: catalog.schema_version, fields };
}
