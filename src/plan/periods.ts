import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { CatalogSource } from '../format/types';
import { heldSources } from '../format/views';
import type { QueryAnalysis } from './analyze';

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
 * quarters", "in the 10-Qs"): when its filters leave exactly one issuer with two or more filings (10-Qs only when
 * it speaks of quarters), those filings latest first, at most `max`. Otherwise none: a point-in-time question, a
 * comparison of several issuers (not a time series), or a single filing.
 */
export function filingsAcrossPeriods(
  across: QueryAnalysis['acrossPeriods'],
  sources: readonly CatalogSource[],
  conditions: readonly Condition[],
  max: number,
): PeriodFiling[] {
  if (!across) return [];
  const { quarterly } = across;
  const filings = new Map<string, PeriodFiling & { sources: Set<number> }>();
  for (const i of heldSources(sources)) {
    const s = sources[i]!;
    if (!matchesConditions(s.meta, conditions)) continue;
    if (quarterly && s.meta.sec_form_type !== '10-Q') continue;
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
  }
  const list = [...filings.values()];
  if (new Set(list.map((f) => f.ticker)).size !== 1 || list.length < 2) return [];
  return list
    .sort((a, b) => (a.periodOfReport < b.periodOfReport ? 1 : a.periodOfReport > b.periodOfReport ? -1 : a.docId < b.docId ? -1 : 1))
    .slice(0, max);
}

/**
 * The catalog sources of each named company's latest annual report, for a question that names no period and speaks
 * of no span of them (QueryAnalysis.current: "Is Boeing's business cyclical?"): such a question is about the
 * company as it is now, so its own pass searches those filings first and the others rank below them (src/plan/
 * passes.ts `latest`); a statement the filings repeat is then cited from the latest. Without it, the filing whose
 * words scored best led, and ties went to the oldest. None when the question names the quarterly form (a 10-Q is
 * newer than the 10-K it follows), or no named company has a 10-K among the sources the conditions allow.
 */
export function latestAnnualSources(analysis: QueryAnalysis, sources: readonly CatalogSource[], conditions: readonly Condition[]): number[] {
  if (!analysis.current || analysis.forms.quarterly || !analysis.companies.tickers.length) return [];
  const named = new Set(analysis.companies.tickers);
  const newest = new Map<string, CatalogSource>();
  const allowed: number[] = [];
  for (const i of heldSources(sources)) {
    const s = sources[i]!;
    const t = s.meta.sec_ticker;
    if (!t || !named.has(t) || s.meta.sec_form_type !== '10-K' || !matchesConditions(s.meta, conditions)) continue;
    allowed.push(i);
    const seen = newest.get(t);
    if (!seen || s.period_of_report > seen.period_of_report) newest.set(t, s);
  }
  const docs = new Set([...newest.values()].map((s) => s.doc_id));
  return allowed.filter((i) => docs.has(sources[i]!.doc_id));
}
