import type { Chain } from '../evidence/model';
import { findPeriods } from '../filters/periods';
import { metricCode, type Metric } from '../text/metrics';
import { namesMetric } from './coverage';
import { focusedQuery, plannedMetrics } from './requirements';

/**
 * Line-item facets of a research question (docs/DECISIONS.md "Line-item facets"): the metrics it names, ratios
 * replaced by their inputs ("operating cash flow ratio = cash from operations / total current liabilities" -> cash
 * from operations, current liabilities). A question that needs two or more line items is answered only when every
 * one of them is in the evidence, yet one ranked list puts the rows of whichever item repeats more of the
 * question's words first (Adobe's cash-flow statement rows all say "net cash provided by operating activities", so
 * they fill the list and the current-liabilities row never shows). Each facet gets its own retrieval pass and the
 * budget covers every facet before it adds more of one. Fewer than two: no facets, one pass as before.
 */
export const MAX_FACETS = 4;

export interface Facet {
  id: string;
  metric: Metric;
  /** The facet pass's query: the metric's names and the years the question names. */
  query: string;
}

export function lineItemFacets(query: string): Facet[] {
  const metrics = plannedMetrics(query);
  if (metrics.length < 2) return [];
  const years = [...new Set(findPeriods(query).years)].map((y) => `FY${y.slice(3)}`).join(' ');
  return metrics.slice(0, MAX_FACETS).map((metric) => ({ id: metric.id, metric, query: [focusedQuery(metric, null, null), years].filter(Boolean).join(' ') }));
}

/** The facets a chain states (an entry tagged with, or naming, the facet's metric). */
export function facetsOfChain(chain: Chain, facets: readonly Facet[]): string[] {
  return facets.filter((f) => namesMetric(chain, metricCode(f.metric.id))).map((f) => f.id);
}
