/**
 * Fiscal labels for an EDGAR filing, by DESIGN.md section 5: a fiscal year is labelled by the calendar year it
 * ends in, except a year ending January 1-7 (52/53-week years) takes the previous year's label; a 10-Q belongs to
 * the fiscal year that contains its period; `fiscal_year_end` is a 10-K's own period end and, for a 10-Q, the
 * company's latest fiscal year end before the quarter.
 *
 * EDGAR gives each filing's `reportDate` and the company's current `fiscalYearEnd` (MMDD). The 10-K report dates
 * of the same company are the real year ends (52/53-week years drift by days), so they are preferred; the MMDD
 * field only fills in when no 10-K of the neighbouring year is listed.
 */

export interface FiscalLabels {
  fiscal_year: number;
  /** `FY` for a 10-K, `Q1`-`Q3` for a 10-Q. */
  fiscal_period: string;
  /** MMDD, EDGAR's own spelling (the sidecar field the builder reads). */
  fiscal_year_end: string;
}

const DAY_MS = 86_400_000;
/** A neighbouring 10-K further than this from a quarter belongs to another fiscal year. */
const MAX_YEAR_GAP_DAYS = 400;

/** The calendar year the fiscal year ends in, except years ending January 1-7. */
export function toFiscalYearLabel(periodEnd: string): number {
  const [y, m, d] = periodEnd.split('-').map(Number) as [number, number, number];
  return m === 1 && d <= 7 ? y - 1 : y;
}

const toDays = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const toIso = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10);
const mmdd = (iso: string) => iso.slice(5, 7) + iso.slice(8, 10);

export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
}

/** The last date on or before `iso` whose month-day is `monthDay` (MMDD); Feb 29 falls back to Feb 28. */
function lastOnOrBefore(iso: string, monthDay: string): string {
  const [y] = iso.split('-').map(Number) as [number];
  for (const year of [y, y - 1]) {
    let candidate = `${year}-${monthDay.slice(0, 2)}-${monthDay.slice(2)}`;
    if (Number.isNaN(Date.parse(candidate)) || toIso(toDays(candidate)) !== candidate)
      candidate = `${year}-${monthDay.slice(0, 2)}-28`;
    if (candidate <= iso) return candidate;
  }
  throw new Error(`no ${monthDay} before ${iso}`);
}

/**
 * Labels one filing. `annualPeriods` are the report dates of the company's 10-Ks (any order); `fiscalYearEnd` is
 * the submissions MMDD (may be empty). Returns null when a 10-Q cannot be placed in a fiscal year.
 */
export function deriveFiscalLabels(
  form: '10-K' | '10-Q',
  periodOfReport: string,
  annualPeriods: readonly string[],
  fiscalYearEnd: string | null | undefined,
): FiscalLabels | null {
  if (form === '10-K')
    return {
      fiscal_year: toFiscalYearLabel(periodOfReport),
      fiscal_period: 'FY',
      fiscal_year_end: mmdd(periodOfReport),
    };
  const p = toDays(periodOfReport);
  const near = (d: string) => Math.abs(toDays(d) - p) <= MAX_YEAR_GAP_DAYS;
  const before = annualPeriods.filter((d) => d < periodOfReport && near(d)).sort();
  const after = annualPeriods.filter((d) => d > periodOfReport && near(d)).sort();
  const hasMonthDay = typeof fiscalYearEnd === 'string' && /^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$/.test(fiscalYearEnd);
  let previous = before.at(-1);
  if (!previous && hasMonthDay) {
    previous = lastOnOrBefore(periodOfReport, fiscalYearEnd);
    if (previous === periodOfReport) previous = lastOnOrBefore(toIso(p - 1), fiscalYearEnd);
  }
  if (!previous) return null;
  // The year containing the quarter ends at the next 10-K, or about a year after the previous one.
  const next = after[0] ?? toIso(toDays(previous) + 365);
  const quarter = Math.min(3, Math.max(1, Math.round((p - toDays(previous)) / 91.3)));
  return { fiscal_year: toFiscalYearLabel(next), fiscal_period: `Q${quarter}`, fiscal_year_end: mmdd(previous) };
}
