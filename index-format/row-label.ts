import { metricCodes, RECONCILING_GROUP } from './metrics';
import { stem } from './tokenize';

/**
 * What a table row's label says about the questions it answers, computed once by the builder from the statement's
 * text and stored in its shard (Shard.labels, Shard.flags), so ranking reads no statement text.
 */

/** A table row's label: its text before the first "label: value" colon (rows read "Label: 1,577 for FY2018 | ..."). */
export function rowLabel(text: string): string | null {
  const m = /^(.*?):\s*(?:[-(\d$—–]|\p{Sc})/u.exec(text);
  if (!m) return null;
  // Nested labels ("Shareholders' equity: Additional paid-in capital: 5,643") keep the innermost part.
  const parts = m[1]!.split(':');
  return parts[parts.length - 1]!.trim();
}

/** The stemmed words a row's label must all find in the query, or null when the label can match no question. */
export function labelTerms(text: string): readonly string[] | null {
  const label = rowLabel(text);
  if (!label) return null;
  // Every word of the label, the analyzer's stop words included except connectors: "Other current assets" must
  // not match a question about total current assets because "other" is a stop word of the index.
  const words = (
    label
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}&]+/gu) ?? []
  ).filter((w) => !LABEL_CONNECTORS.has(w));
  // One-word labels count too ("iPhone", "Inventories": Apple's iPhone net sales row lost to prose about iPhone
  // sales), except words that head many rows of every table ("Total: ..." would match any question saying "total").
  if (!words.length || (words.length === 1 && GENERIC_LABELS.has(words[0]!))) return null;
  return words.map(stem);
}

/**
 * A row tagged with a metric only through its reconciling group (a cash-flow adjustment under "net cash provided by
 * operating activities") is not the metric's row: a dozen of them outranked the operating-cash-flow total.
 */
export function reconcilingOnly(text: string, metric: number): boolean {
  return metric !== 0 && RECONCILING_GROUP.test(text) && !metricCodes(rowLabel(text) ?? '').includes(metric);
}

/** One-word row labels that name no line item by themselves. */
const GENERIC_LABELS = new Set([
  'total',
  'totals',
  'subtotal',
  'net',
  'other',
  'balance',
  'amount',
  'change',
  'increase',
  'decrease',
  'ending',
  'beginning',
]);

const LABEL_CONNECTORS = new Set([
  'and',
  'of',
  'the',
  'in',
  'for',
  'to',
  'on',
  'from',
  'by',
  'a',
  'an',
  'or',
  'at',
  'with',
]);
