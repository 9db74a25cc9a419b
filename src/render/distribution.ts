import type { Chain } from '../evidence/model';
import { FIELD_RULES } from '../schema/filter-fields';
import type { CatalogHeader } from '../../index-format/types';

/**
 * What the returned evidence is made of, counted once and shown two ways: `metadata_distribution` (JSON) and
 * `metadata_dashboard` (ASCII). Units (docs/DECISIONS.md): evidence strength is the share of entries per
 * confidence level; every metadata field is the share of cited statements (one per entry and source: an entry
 * stated by three filings counts three times), so each field's percentages describe where the grounding comes from.
 */
export interface EvidenceProfile {
  paths: number;
  entries: number;
  citations: number;
  sections: ProfileSection[];
  /** Filing dates of the cited sources: earliest, latest, and how many citations have no known date. */
  filingDates: { min: string | null; max: string | null; unknown: number };
}

export interface ProfileSection {
  /** Distribution key: a filter field name, or `evidence_strength`. */
  key: string;
  title: string;
  /** Values with counts and one-decimal percentages, largest share first. */
  rows: { value: string; count: number; percent: number }[];
}

export const STRENGTH_LEVELS = ['High', 'Medium', 'Low'] as const;

/**
 * Dashboard order (spec 2.5): strength, tickers, forms, fiscal years, year ends, items, sectors, sub-industries.
 * Titles are the fields' display names from the one field table.
 */
const FIELD_SECTIONS = (
  [
    'sec_ticker',
    'sec_form_type',
    'sec_fiscal_year',
    'sec_fiscal_year_end',
    'sec_item_tag',
    'sec_gics_sector',
    'sec_gics_sub_industry',
  ] as const
).map((f) => [f, FIELD_RULES[f].display_name] as const);

/**
 * Percentages to one decimal that add up to exactly 100.0 (largest remainder: floor every share in tenths, then
 * give the missing tenths to the largest remainders, earlier rows first on ties). Zero total -> all zero.
 */
export function toPercents(counts: readonly number[]): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return counts.map(() => 0);
  const exact = counts.map((c) => (c * 1000) / total);
  const tenths = exact.map(Math.floor);
  let missing = 1000 - tenths.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (missing <= 0) break;
    tenths[i]!++;
    missing--;
  }
  return tenths.map((t) => t / 10);
}

function section(
  key: string,
  title: string,
  counts: Map<string, number>,
  fixedOrder?: readonly string[],
): ProfileSection {
  const entries = fixedOrder
    ? fixedOrder.map((v) => [v, counts.get(v) ?? 0] as const)
    : [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const percents = toPercents(entries.map((e) => e[1]));
  return { key, title, rows: entries.map(([value, count], i) => ({ value, count, percent: percents[i]! })) };
}

export function profileEvidence(catalog: CatalogHeader, chains: readonly Chain[]): EvidenceProfile {
  const strength = new Map<string, number>();
  const fields = new Map<string, Map<string, number>>(FIELD_SECTIONS.map(([f]) => [f, new Map()]));
  const dates: string[] = [];
  let entries = 0;
  let citations = 0;
  let unknown = 0;
  for (const chain of chains) {
    for (const entry of chain.entries) {
      entries++;
      strength.set(entry.confidence, (strength.get(entry.confidence) ?? 0) + 1);
      for (const s of entry.sources) {
        citations++;
        const src = catalog.sources[s.source]!;
        for (const [field] of FIELD_SECTIONS) {
          const value = src.meta[field] ?? 'unknown';
          const m = fields.get(field)!;
          m.set(value, (m.get(value) ?? 0) + 1);
        }
        if (src.date) dates.push(src.date);
        else unknown++;
      }
    }
  }
  dates.sort();
  return {
    paths: chains.length,
    entries,
    citations,
    sections: [
      section('evidence_strength', 'Evidence strength', strength, STRENGTH_LEVELS),
      ...FIELD_SECTIONS.map(([f, title]) => section(f, title, fields.get(f)!)),
    ],
    filingDates: { min: dates[0] ?? null, max: dates[dates.length - 1] ?? null, unknown },
  };
}

export type MetadataDistribution = Record<
  string,
  number | { display_name: string; values: Record<string, number> } | { display_name: string; value: string }
>;

/** Filing dates as one line of text ("2023-02-22 to 2024-02-23; 1 cited statement has no known filing date"). */
export function describeFilingDates(p: EvidenceProfile): string {
  const { min, max, unknown } = p.filingDates;
  const parts: string[] = [];
  if (min && max) parts.push(min === max ? min : `${min} to ${max}`);
  if (unknown) parts.push(`${unknown} cited statement${unknown > 1 ? 's have' : ' has'} no known filing date`);
  return parts.join('; ') || 'no cited statements';
}

/**
 * `metadata_distribution`: `evidence_paths`, then `evidence_strength` and the seven categorical filter fields as
 * `{display_name, values: {value: percent}}` (values largest share first), and `report_filing_date` as a text
 * summary `{display_name, value}`. Every key is present even when no path was returned (then `values` is empty,
 * except evidence strength, which always lists High, Medium and Low).
 */
export function toMetadataDistribution(p: EvidenceProfile): MetadataDistribution {
  const out: MetadataDistribution = { evidence_paths: p.paths };
  for (const s of p.sections) {
    const values: Record<string, number> = {};
    for (const r of s.rows) values[r.value] = r.percent;
    out[s.key] = { display_name: s.title, values };
  }
  out.report_filing_date = { display_name: FIELD_RULES.report_filing_date.display_name, value: describeFilingDates(p) };
  return out;
}
