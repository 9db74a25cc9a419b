import type { Condition } from '../filters/parse';
import type { CatalogSource } from '../../index-format/types';
import { metricCode } from '../../index-format/metrics';
import { filingsAcrossPeriods } from './periods';
import { focusedQuery, plannedMetrics } from './requirements';
import type { QuestionAnalysis } from '../question/analyze';
import { RANKING } from '../search/ranking';

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
 * the 10-Qs") gets one pass per filing of its issuer (the latest four the filters allow), since one ranked list
 * returns the best-matching filing's rows several times and the other quarters' figures not at all.
 */
export interface Facet {
  id: string;
  /** The pass's query text. */
  query: string;
  /** Catalog sources the pass may search (a period facet's filing); absent = the question's filters only. */
  sources?: ReadonlySet<number>;
  /**
   * What a chain holds when it covers this facet (applied at selection, src/core/coverage.ts coversFacet): the line
   * item's metric (its code, index-format/metrics.ts), or a citation of one of the filing's catalog sources.
   */
  covers: { metric: number } | { sources: ReadonlySet<number> };
}

export function lineItemFacets(analysis: QuestionAnalysis): Facet[] {
  const metrics = plannedMetrics(analysis);
  if (metrics.length < 2) return [];
  const years = [...new Set(analysis.periods.years)].map((y) => `FY${y.slice(3)}`).join(' ');
  return metrics.slice(0, RANKING.maxFacets).map((metric) => ({
    id: metric.id,
    query: [focusedQuery(metric, null, null), years].filter(Boolean).join(' '),
    covers: { metric: metricCode(metric.id) },
  }));
}

/**
 * Period facets: when the question asks about change across filings and its filters leave one issuer with two or
 * more filings, one facet per filing (src/plan/periods.ts), latest first.
 */
export function periodFacets(
  analysis: QuestionAnalysis,
  sources: readonly CatalogSource[],
  conditions: readonly Condition[],
): Facet[] {
  return filingsAcrossPeriods(analysis.acrossPeriods, sources, conditions, RANKING.maxFacets).map((f) => ({
    id: f.docId,
    query: analysis.text,
    sources: f.sources,
    covers: { sources: f.sources },
  }));
}
