import type { Chain } from '../evidence/model';
import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import { findPeriods } from '../filters/periods';
import type { CatalogSource } from '../format/types';
import { metricCode } from '../text/metrics';
import { namesMetric } from './coverage';
import { focusedQuery, plannedMetrics } from './requirements';

/**
 * Facets of a research question (docs/DECISIONS.md "Line-item facets", "Period facets"): parts every one of which
 * the evidence must hold, each given its own retrieval pass, merged round-robin after the question's own pass, and
 * covered first by the token budget.
 *
 * Line items: the metrics the question names, ratios replaced by their inputs ("operating cash flow ratio = cash
 * from operations / total current liabilities" -> cash from operations, current liabilities). A computed answer
 * needs every input, yet one ranked list fills up with rows of whichever item repeats the question's words (Adobe's
 * reconciliation rows all say "net cash provided by operating activities"; the current-liabilities row never
 * showed).
 *
 * Periods: a question about change across filings ("how has revenue trended over the reported quarters", "in
 * these 10-Qs") gets one pass per filing of its issuer (the latest four the filters allow), since one ranked list
 * returns the best-matching filing's rows several times and the other quarters' figures not at all.
 */
export const MAX_FACETS = 4;

export interface Facet {
  id: string;
  /** The pass's query text. */
  query: string;
  /** Catalog sources the pass may search (a period facet's filing); absent = the question's filters only. */
  sources?: ReadonlySet<number>;
  /** Does a chain state this facet (the line item, or evidence from the filing)? */
  covers(chain: Chain): boolean;
}

export function lineItemFacets(query: string): Facet[] {
  const metrics = plannedMetrics(query);
  if (metrics.length < 2) return [];
  const years = [...new Set(findPeriods(query).years)].map((y) => `FY${y.slice(3)}`).join(' ');
  return metrics.slice(0, MAX_FACETS).map((metric) => {
    const code = metricCode(metric.id);
    return { id: metric.id, query: [focusedQuery(metric, null, null), years].filter(Boolean).join(' '), covers: (c: Chain) => namesMetric(c, code) };
  });
}

/** "over the reported quarters", "across periods", "these 10-Qs", "quarter to quarter", "trended", "fluctuated". */
const ACROSS_PERIODS =
  /\b(?:over|across|throughout|during|between|in)\s+(?:the\s+)?(?:(?:reported|reporting|recent|last|past|these|those|several|multiple|different|various|successive|prior|previous)\s+)?(?:quarters|periods|10-?qs|quarterly reports|reports|filings|time)\b|\bquarter[- ](?:to|over)[- ]quarter\b|\btrend(?:s|ed|ing)?\b|\bfluctuat\w*|\bevolv\w*|\bevolution\b|\bthese (?:10-?qs|quarters|quarterly reports|filings|reports)\b/i;
const QUARTERLY = /\b(?:quarters?|quarterly|10-?qs?)\b/i;

/**
 * Period facets: when the question asks about change across filings and its filters leave one issuer with two or
 * more filings (10-Qs only when it speaks of quarters), one facet per filing, latest first, at most MAX_FACETS.
 */
export function periodFacets(query: string, sources: readonly CatalogSource[], conditions: readonly Condition[]): Facet[] {
  if (!ACROSS_PERIODS.test(query)) return [];
  const quarterly = QUARTERLY.test(query);
  const filings = new Map<string, { period: string; form: string; sources: Set<number> }>();
  const tickers = new Set<string>();
  sources.forEach((s, i) => {
    if (!matchesConditions(s.meta, conditions)) return;
    if (quarterly && s.meta.sec_form_type !== '10-Q') return;
    tickers.add(s.meta.sec_ticker ?? '');
    const f = filings.get(s.doc_id) ?? { period: s.period_of_report, form: s.meta.sec_form_type ?? '', sources: new Set<number>() };
    f.sources.add(i);
    filings.set(s.doc_id, f);
  });
  // Several issuers: a comparison, not a time series; one filing: nothing to spread over.
  if (tickers.size !== 1 || filings.size < 2) return [];
  return [...filings]
    .sort((a, b) => (a[1].period < b[1].period ? 1 : a[1].period > b[1].period ? -1 : a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_FACETS)
    .map(([docId, f]) => ({
      id: docId,
      query,
      sources: f.sources,
      covers: (c: Chain) => c.entries.some((e) => e.sources.some((s) => f.sources.has(s.source))),
    }));
}

/** The facets a chain covers. */
export function facetsOfChain(chain: Chain, facets: readonly Facet[]): string[] {
  return facets.filter((f) => f.covers(chain)).map((f) => f.id);
}
