/**
 * What an entity name may look like: a proper noun of one to six words, each starting with a capital or a digit
 * ("Walmart Inc.", "U.S. Government", "7UP", "Sam's Club"), joined by spaces, "&", "and", "of", "de", "the".
 * Words that start sentences or name the filer itself ("We", "Our", "The Company") are never names.
 */
export const NAME_WORD = "(?:[A-Z0-9][\\w'’.\\-]*[\\w.]|[A-Z])";
export const NAME = `${NAME_WORD}(?:\\s+(?:(?:&|and|of|de|the|for)\\s+)?${NAME_WORD}){0,5}`;

const STOP_FIRST = new Set([
  'We',
  'Our',
  'The',
  'This',
  'These',
  'That',
  'Those',
  'Its',
  'It',
  'In',
  'For',
  'During',
  'Each',
  'No',
  'One',
  'Two',
  'Three',
  'All',
  'Any',
  'Such',
  'Other',
  'Total',
  'Net',
  'Sales',
  'Revenue',
  'Revenues',
  'Customer',
  'Customers',
  'Company',
  'Item',
  'Part',
  'Note',
  'Notes',
  'Fiscal',
  'See',
  'As',
  'If',
  'However',
  'Although',
  'While',
  'When',
  'Because',
  'Also',
  'Certain',
  'Approximately',
  'About',
  'Including',
  'Both',
  'Either',
  'Neither',
  'No.',
  'A',
  'An',
  'Table',
  'Segment',
  'Segments',
  'Exhibit',
  'Form',
  'Section',
  'Schedule',
  'Consolidated',
  'Operating',
  'Reportable',
  'Business',
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
  'Q1',
  'Q2',
  'Q3',
  'Q4',
  'Agreement',
  'Outstanding',
  'Remaining',
  'Substantially',
  'Credit',
  'Term',
  'Loan',
  'Board',
  'Management',
  'Inc.',
  'Corporation',
  'Registrant',
  'GAAP',
  'U.S. GAAP',
]);
const STOP_WHOLE = new Set([
  'Company',
  'the Company',
  'Registrant',
  'U.S.',
  'United States',
  'US',
  'SEC',
  'IRS',
  'FASB',
  'GAAP',
  'EPS',
  'Board',
]);

/** A trimmed candidate name, or null when it is not a usable proper noun. */
export function cleanName(raw: string): string | null {
  let name = raw
    .replace(/[®™]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:the|our)\s+/i, '');
  name = name
    .replace(/[,;:]+$/, '')
    .replace(/\.$/, (m) => (/\b(?:Inc|Corp|Co|Ltd|N\.A|L\.P|S\.A|Bros|Jr)\.$/.test(name) ? m : ''));
  if (name.length < 2 || name.length > 60) return null;
  if (STOP_WHOLE.has(name)) return null;
  const first = name.split(' ')[0]!;
  if (STOP_FIRST.has(first)) return null;
  if (/^\d+$/.test(first) || /^\d{4}/.test(first)) return null; // years and figures
  if (/^Item\s+\d/i.test(name)) return null;
  if (!/[A-Za-z]{2}/.test(name)) return null;
  return name;
}

/** Splits "A, B, and C" / "A and B" into cleaned names; null when any part is not a name (the list is unreliable). */
export function splitNameList(list: string): string[] | null {
  const parts = list
    .replace(/\([^)]*\)/g, ' ')
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+(?=[A-Z0-9])/)
    .map((p) => p.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const p of parts) {
    if (p.split(' ').length > 5) return null;
    const n = cleanName(p);
    if (!n || !/^[A-Z0-9]/.test(n)) return null;
    out.push(n);
  }
  return out;
}
