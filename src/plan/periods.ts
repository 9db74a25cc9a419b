import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { CatalogSource } from '../../index-format/types';
import { heldSources } from '../../index-format/views';
import type { QuestionAnalysis } from '../question/analyze';

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
  across: QuestionAnalysis['acrossPeriods'],
  sources: readonly CatalogSource[],
  conditions: readonly Condition[],
  max: number,
): PeriodFiling[] {
  if (!across) return [];
  const list = filingsOf(sources, conditions).filter((f) => !across.quarterly || f.form === '10-Q');
  if (new Set(list.map((f) => f.ticker)).size !== 1 || list.length < 2) return [];
  return list
    .sort((a, b) =>
      a.periodOfReport < b.periodOfReport ? 1 : a.periodOfReport > b.periodOfReport ? -1 : a.docId < b.docId ? -1 : 1,
    )
    .slice(0, max);
}

/** The filings of the sources the conditions allow, each with those of its sources, in catalog order. */
function filingsOf(sources: readonly CatalogSource[], conditions: readonly Condition[]): PeriodFiling[] {
  const filings = new Map<string, PeriodFiling & { sources: Set<number> }>();
  for (const i of heldSources(sources)) {
    const s = sources[i]!;
    if (!matchesConditions(s.meta, conditions)) continue;
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
  return [...filings.values()];
}

/**
 * The catalog sources of the latest annual report of each company a request is about (named in the question, or in
 * a sec_ticker filter), for a question that names no period and speaks of no span of them (QuestionAnalysis.current:
 * "Is Boeing's business cyclical?"): such a question is about the company as it is now, so its own pass searches
 * those filings first and the others rank below them (src/plan/passes.ts `latest`); a statement the filings repeat
 * is then cited from the latest. Without it, the filing whose words scored best led, and ties went to the oldest.
 * None when the question names the quarterly form (a 10-Q is newer than the 10-K it follows), names no company and
 * none is filtered, no such company has a 10-K among the filings the conditions allow, or those are all they allow
 * (a caller's filter on one filing: nothing would rank below it). Sorted.
 */
export function latestAnnualSources(
  analysis: QuestionAnalysis,
  sources: readonly CatalogSource[],
  conditions: readonly Condition[],
): number[] {
  if (!analysis.current || analysis.forms.quarterly) return [];
  const companies = new Set(analysis.companies.tickers);
  for (const c of conditions)
    if (c.field === 'sec_ticker' && (c.op === 'eq' || c.op === 'in'))
      c.values.forEach((t) => {
        companies.add(t);
      });
  if (!companies.size) return [];
  const filings = filingsOf(sources, conditions).filter((f) => companies.has(f.ticker));
  const newest = new Map<string, PeriodFiling>();
  for (const f of filings) {
    const seen = newest.get(f.ticker);
    if (f.form === '10-K' && (!seen || f.periodOfReport > seen.periodOfReport)) newest.set(f.ticker, f);
  }
  if (newest.size === filings.length) return [];
  return [...newest.values()].flatMap((f) => [...f.sources]).sort((a, b) => a - b);
}
