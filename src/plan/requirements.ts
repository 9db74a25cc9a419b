import type { Condition } from '../filters/parse';
import type { CatalogSource } from '../../index-format/types';
import { metricByCode, metricCode, type Metric } from '../../index-format/metrics';
import type { QuestionAnalysis } from '../question/analyze';
import { filingsAcrossPeriods, latestAnnualSources } from './periods';

/** Spec 3: agentic decomposition plans at most this many requirements; the rest are listed as omitted. */
export const MAX_REQUIREMENTS = 4;

/** One independent retrieval input of a question: an issuer x a period x a metric (each optional). */
export interface Requirement {
  /** "R1".."R4", in priority order. */
  id: string;
  /** "QVLT gross profit FY2023". */
  label: string;
  /** The focused query text of this requirement's retrieval branch. */
  query: string;
  ticker: string | null;
  /** FY-YYYY. */
  fiscalYear: string | null;
  /** Metric id (index-format/metrics.ts). */
  metric: string | null;
  /** The branch's filters: the question's filters with ticker and fiscal year narrowed to this requirement's. */
  conditions: Condition[];
  /** A period requirement's filing: the catalog sources its branch may search (a 10-Q is not a filter value). */
  sources?: ReadonlySet<number>;
}

export interface RequirementSet {
  /** false: nothing decomposes; retrieval uses the original question (coverage not_assessed, planning_fallback). */
  decomposed: boolean;
  requirements: Requirement[];
  /** Labels of requirements beyond MAX_REQUIREMENTS (limitation requirement_limit). */
  omitted: string[];
}

export interface PlannerCatalog {
  companies: readonly { ticker: string; company: string }[];
  /** The catalog's sources, for planning over one issuer's filings (src/plan/periods.ts); optional in tests. */
  sources?: readonly CatalogSource[];
}

/** Values an `eq`/`in` condition on `field` allows (intersection of several), or [] when the field is open. */
function allowedValues(conditions: readonly Condition[], field: Condition['field']): string[] {
  let out: string[] | null = null;
  for (const c of conditions) {
    if (c.field !== field || (c.op !== 'eq' && c.op !== 'in')) continue;
    out = out === null ? [...c.values] : out.filter((v) => c.values.includes(v));
  }
  return out ?? [];
}

/**
 * The periods to plan: the fiscal years the filters allow, narrowed to those the question itself names when it
 * names any of them (inference may add the year before for forward-looking questions, or substitute later years;
 * those widen retrieval but are not separate inputs). Current (latest) first, then comparison periods.
 */
function plannedYears(p: QuestionAnalysis['periods'], conditions: readonly Condition[]): string[] {
  const allowed = allowedValues(conditions, 'sec_fiscal_year');
  const named = new Set([...p.years, ...p.quarters.flatMap((q) => (q.year ? [q.year] : []))]);
  const narrowed = allowed.filter((y) => named.has(y));
  return (narrowed.length ? narrowed : allowed).sort().reverse();
}

/** The line items of an analysis (metric ids, ratios already replaced by their inputs) as metrics. */
export function plannedMetrics(analysis: Pick<QuestionAnalysis, 'lineItems'>): Metric[] {
  return analysis.lineItems.map((id) => metricByCode(metricCode(id))!);
}

function yearLabel(y: string): string {
  return y.replace('FY-', 'FY');
}

/** Focused branch text: the metric's name and first synonyms, the issuer's name, the fiscal year. */
export function focusedQuery(metric: Metric, company: string | null, year: string | null): string {
  const words: string[] = [];
  for (const phrase of [metric.name.replace(/\s*\(%\)/, ''), ...metric.synonyms.slice(0, 3)]) {
    if (!words.some((w) => w.toLowerCase() === phrase.toLowerCase())) words.push(phrase);
  }
  return [company, words.join(', '), year ? `fiscal ${year.slice(3)}` : null].filter(Boolean).join(' ');
}

/**
 * Decomposes a question into independent requirements (spec 3; docs/DECISIONS.md "Agentic planning"):
 * issuers from the ticker filter, periods from the fiscal-year filter (caller's or inferred), metrics named in the
 * question with ratios expanded into their inputs. Requirements are the product issuer x period x metric, in this
 * priority order: the current period before comparison periods, then within a period each metric input in order
 * (numerator before denominator), then each issuer. So when the product exceeds MAX_REQUIREMENTS the kept ones
 * still name every issuer first, then complete the current period's inputs, and comparison periods are cut first.
 * A product of one or zero (one issuer, one period, at most one metric) would just restate the question: no
 * decomposition, retrieval falls back to the original question; unless the question asks about change across that
 * issuer's filings, which plans one requirement per filing (latest first; the question's own text, the filing's
 * ticker, fiscal year and form as filters, and its sources as the branch's scope).
 */
export function planRequirements(
  analysis: QuestionAnalysis,
  catalog: PlannerCatalog,
  conditions: readonly Condition[],
): RequirementSet {
  const query = analysis.text;
  const tickers = allowedValues(conditions, 'sec_ticker').sort();
  const years = plannedYears(analysis.periods, conditions);
  const metrics = plannedMetrics(analysis);
  const issuerAxis = tickers.length ? tickers : [null];
  const yearAxis = years.length ? years : [null];
  const metricAxis: (Metric | null)[] = metrics.length ? metrics : [null];
  const names = new Map(catalog.companies.map((c) => [c.ticker, c.company]));
  if (issuerAxis.length * yearAxis.length * metricAxis.length <= 1) {
    // One issuer, at most one year and metric, but a question about change across its filings: one requirement per
    // filing (the quarters of "how has revenue trended over the 10-Qs").
    const filings = catalog.sources
      ? filingsAcrossPeriods(analysis.acrossPeriods, catalog.sources, conditions, 2 * MAX_REQUIREMENTS)
      : [];
    if (filings.length < 2) return { decomposed: false, requirements: [], omitted: [] };
    const metric = metrics[0] ?? null;
    const all = filings.map((f) => {
      const period =
        f.fiscalPeriod && f.fiscalPeriod !== 'FY'
          ? `${yearLabel(f.fiscalYear)}${f.fiscalPeriod}`
          : yearLabel(f.fiscalYear);
      const narrowed = conditions.filter((c) => !['sec_ticker', 'sec_fiscal_year', 'sec_form_type'].includes(c.field));
      narrowed.push(
        { field: 'sec_ticker', op: 'eq', values: [f.ticker] },
        { field: 'sec_fiscal_year', op: 'eq', values: [f.fiscalYear] },
        { field: 'sec_form_type', op: 'eq', values: [f.form] },
      );
      return {
        label: [f.ticker, metric?.name.toLowerCase(), f.form, period].filter(Boolean).join(' '),
        query,
        ticker: f.ticker,
        fiscalYear: f.fiscalYear,
        metric: metric?.id ?? null,
        conditions: narrowed,
        sources: f.sources,
      };
    });
    const requirements = all.slice(0, MAX_REQUIREMENTS).map((r, i) => ({ id: `R${i + 1}`, ...r }));
    return { decomposed: true, requirements, omitted: all.slice(MAX_REQUIREMENTS).map((r) => r.label) };
  }

  // A question that names no period is about each issuer now (QuestionAnalysis.current): a requirement without a year
  // searches its issuer's latest annual report (the research plan's `latest` pass, as a branch's scope here).
  const latest = catalog.sources && !years.length ? latestAnnualSources(analysis, catalog.sources, conditions) : [];
  const latestOf = (ticker: string | null) => {
    const own = ticker ? latest.filter((i) => catalog.sources![i]!.meta.sec_ticker === ticker) : [];
    return own.length
      ? { sources: new Set(own), fiscalYear: catalog.sources![own[0]!]!.meta.sec_fiscal_year ?? null }
      : null;
  };
  const all: Omit<Requirement, 'id'>[] = [];
  for (const year of yearAxis) {
    for (const metric of metricAxis) {
      for (const ticker of issuerAxis) {
        const label = [ticker, metric?.name.toLowerCase(), year ? yearLabel(year) : null].filter(Boolean).join(' ');
        const narrowed = conditions.filter(
          (c) => !((ticker && c.field === 'sec_ticker') || (year && c.field === 'sec_fiscal_year')),
        );
        if (ticker) narrowed.push({ field: 'sec_ticker', op: 'eq', values: [ticker] });
        // A comparison period is also searched in the later planned periods' filings: they restate it as a
        // comparative column (an FY2022 10-K's income statement shows FY2021), often beside the current figure.
        const searched = year ? yearAxis.filter((y): y is string => y !== null && y >= year).sort() : [];
        if (year) narrowed.push({ field: 'sec_fiscal_year', op: searched.length > 1 ? 'in' : 'eq', values: searched });
        const company = ticker ? (names.get(ticker) ?? ticker) : null;
        const now = year ? null : latestOf(ticker);
        if (now) {
          const text = metric ? focusedQuery(metric, company, now.fiscalYear) : query;
          all.push({
            label: `${label}, latest annual report`,
            query: text,
            ticker,
            fiscalYear: now.fiscalYear,
            metric: metric?.id ?? null,
            conditions: narrowed,
            sources: now.sources,
          });
          continue;
        }
        // Without a metric the branch keeps the question's own words; its filters do the narrowing.
        const text = metric ? focusedQuery(metric, company, year) : query;
        all.push({ label, query: text, ticker, fiscalYear: year, metric: metric?.id ?? null, conditions: narrowed });
      }
    }
  }
  const requirements = all.slice(0, MAX_REQUIREMENTS).map((r, i) => ({ id: `R${i + 1}`, ...r }));
  return { decomposed: true, requirements, omitted: all.slice(MAX_REQUIREMENTS).map((r) => r.label) };
}
