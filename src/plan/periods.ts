import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { CatalogSource } from '../format/types';

/** "over the reported quarters", "across periods", "these 10-Qs", "over time" (not "in time"), "quarter to quarter", "trended". */
const ACROSS_PERIODS =
  /\b(?:over|across|throughout|during|between|in)\s+(?:the\s+)?(?:(?:reported|reporting|recent|last|past|these|those|several|multiple|different|various|successive|prior|previous)\s+)?(?:quarters|periods|10-?qs|quarterly reports|reports|filings)\b|\bover time\b|\bquarter[- ](?:to|over)[- ]quarter\b|\btrend(?:s|ed|ing)?\b|\bfluctuat\w*|\bevolv\w*|\bevolution\b|\bthese (?:10-?qs|quarters|quarterly reports|filings|reports)\b/i;
const QUARTERLY = /\b(?:quarters?|quarterly|10-?qs?)\b/i;

/** One filing of a time series: its catalog sources (items) and what labels it. */
export interface PeriodFiling {
  docId: string;
  ticker: string;
  form: string;
  fiscalYear: string;
  fiscalPeriod: string;
  periodOfReport: string;
  sources: ReadonlySet<number>;
}

/**
 * The filings a question about change across periods spans ("how has revenue trended over the reported
 * quarters", "in these 10-Qs"): when its filters leave exactly one issuer with two or more filings (10-Qs only when
 * it speaks of quarters), those filings latest first, at most `max`. Otherwise none: a point-in-time question, a
 * comparison of several issuers (not a time series), or a single filing.
 */
export function filingsAcrossPeriods(query: string, sources: readonly CatalogSource[], conditions: readonly Condition[], max: number): PeriodFiling[] {
  if (!ACROSS_PERIODS.test(query)) return [];
  const quarterly = QUARTERLY.test(query);
  const filings = new Map<string, PeriodFiling & { sources: Set<number> }>();
  sources.forEach((s, i) => {
    if (!matchesConditions(s.meta, conditions)) return;
    if (quarterly && s.meta.sec_form_type !== '10-Q') return;
    let f = filings.get(s.doc_id);
    if (!f) {
      f = {
        docId: s.doc_id,
        ticker: s.meta.sec_ticker ?? '',
        form: s.meta.sec_form_type ?? '',
        fiscalYear: s.meta.sec_fiscal_year ?? '',
        fiscalPeriod: s.fiscal_period,
        periodOfReport: s.period_of_report,
        sources: new Set<number>(),
      };
      filings.set(s.doc_id, f);
    }
    f.sources.add(i);
  });
  const list = [...filings.values()];
  if (new Set(list.map((f) => f.ticker)).size !== 1 || list.length < 2) return [];
  return list
    .sort((a, b) => (a.periodOfReport < b.periodOfReport ? 1 : a.periodOfReport > b.periodOfReport ? -1 : a.docId < b.docId ? -1 : 1))
    .slice(0, max);
}
