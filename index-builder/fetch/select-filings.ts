import { deriveFiscalLabels, isIsoDate, type FiscalLabels } from './fiscal';
import type { FilingRow, SubmissionsPage } from './edgar-api';

export type SupportedForm = '10-K' | '10-Q';
export const SUPPORTED_FORMS: readonly SupportedForm[] = ['10-K', '10-Q'];

export interface FilingSelection {
  /** Fiscal-year labels (DESIGN.md section 5), inclusive. */
  fromYear: number;
  toYear: number;
  forms: readonly SupportedForm[];
  /** Only filings filed on or after this date (YYYY-MM-DD): what landed since the last refresh. */
  filedSince?: string | null;
}

/** A filing chosen for download, with the labels its sidecar will carry. */
export interface Candidate extends FiscalLabels {
  form: SupportedForm;
  accession: string;
  filingDate: string | null;
  periodOfReport: string;
  primaryDocument: string;
}

export interface Exclusion {
  accession: string;
  form: string;
  reason: string;
}

/**
 * Older filings live in `files` pages, each with its filing-date range. A filing of fiscal year Y is filed no
 * earlier than the year before Y (a 10-Q of a year ending early in Y), so pages that end before then are skipped.
 */
export function selectSubmissionPages(
  files: readonly SubmissionsPage[],
  selection: FilingSelection,
): SubmissionsPage[] {
  const byYear = `${selection.fromYear - 1}-01-01`;
  const earliest = selection.filedSince && selection.filedSince > byYear ? selection.filedSince : byYear;
  return files.filter((f) => !f.filingTo || f.filingTo >= earliest);
}

/**
 * Picks the 10-K/10-Q filings of the selected fiscal years. Amendments (10-K/A, 10-Q/A) and transition reports
 * are left out: the builder indexes complete original reports, and an amendment often holds only one part.
 * Two originals for the same form and period keep the later one (a re-filed report replaces the first).
 */
export function selectFilings(
  rows: readonly FilingRow[],
  fiscalYearEnd: string | null,
  selection: FilingSelection,
): { selected: Candidate[]; excluded: Exclusion[] } {
  const annualPeriods = [
    ...new Set(rows.filter((r) => r.form === '10-K' && isIsoDate(r.reportDate)).map((r) => r.reportDate)),
  ];
  const byKey = new Map<string, Candidate>();
  const excluded: Exclusion[] = [];
  for (const row of rows) {
    const form = row.form as SupportedForm;
    if (!selection.forms.includes(form)) continue;
    const skip = (reason: string) => excluded.push({ accession: row.accessionNumber, form, reason });
    if (!isIsoDate(row.reportDate)) {
      skip('no reportDate in EDGAR');
      continue;
    }
    const labels = deriveFiscalLabels(form, row.reportDate, annualPeriods, fiscalYearEnd);
    if (!labels) {
      skip('no fiscal calendar to place the quarter in (no 10-K near it and no fiscalYearEnd)');
      continue;
    }
    if (labels.fiscal_year < selection.fromYear || labels.fiscal_year > selection.toYear) continue;
    if (selection.filedSince) {
      if (!isIsoDate(row.filingDate)) {
        skip('no filingDate in EDGAR, so it cannot be placed after --since');
        continue;
      }
      if (row.filingDate < selection.filedSince) continue;
    }
    if (!/\.html?$/i.test(row.primaryDocument)) {
      skip(`primary document "${row.primaryDocument}" is not HTML`);
      continue;
    }
    if (!/^\d{10}-\d{2}-\d{6}$/.test(row.accessionNumber)) {
      skip(`malformed accession number "${row.accessionNumber}"`);
      continue;
    }
    const candidate: Candidate = {
      ...labels,
      form,
      accession: row.accessionNumber,
      filingDate: isIsoDate(row.filingDate) ? row.filingDate : null,
      periodOfReport: row.reportDate,
      primaryDocument: row.primaryDocument,
    };
    const key = `${form}|${row.reportDate}`;
    const seen = byKey.get(key);
    if (!seen || (candidate.filingDate ?? '') > (seen.filingDate ?? '')) {
      if (seen)
        excluded.push({
          accession: seen.accession,
          form,
          reason: `replaced by the later filing ${candidate.accession} for the same period`,
        });
      byKey.set(key, candidate);
    } else {
      skip(`the later filing ${seen.accession} covers the same period`);
    }
  }
  const selected = [...byKey.values()].sort((a, b) =>
    a.periodOfReport !== b.periodOfReport
      ? a.periodOfReport < b.periodOfReport
        ? -1
        : 1
      : a.form < b.form
        ? -1
        : a.form > b.form
          ? 1
          : 0,
  );
  return { selected, excluded };
}
