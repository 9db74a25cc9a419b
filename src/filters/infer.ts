import type { FinancialStatement } from '../../index-format/financial-statements';
import type { CatalogHeader, CatalogSource } from '../../index-format/types';
import { heldSourceList } from '../../index-format/views';
import type { FilterField } from '../../index-format/fields';
import { matchesConditions } from './match';
import type { Condition } from './parse';
import type { QuestionAnalysis } from '../question/analyze';
import { NOTICES, type ResponseNotice } from '../schema/notices';

/**
 * What the question prefers without filtering on it: sections it names (item tags) and fiscal quarters (no
 * filter field holds the quarter). Chains from matching sources rank first (src/core/execute.ts), others still come.
 */
export interface RankingPreference {
  /** Item tags present in the index, or null for any item. */
  itemTags: string[] | null;
  /** Filings (doc ids) of the quarters or period ends the question names, or null for any filing. */
  filings: string[] | null;
  /** For notices: "risk factors (10K-Item-1A, 10Q-PartII-Item-1A)", "Q2 2023 (1 quarterly report)". */
  label: string;
  /**
   * Table rows printed on these primary financial statements only (index-format/financial-statements.ts); absent for
   * any.
   */
  statements?: FinancialStatement[];
}

const STATEMENT_LABELS: Record<FinancialStatement, string> = {
  balance_sheet: 'balance sheet',
  income_statement: 'income statement',
  cash_flow_statement: 'cash flow statement',
  comprehensive_income: 'statement of comprehensive income',
  equity_statement: 'statement of equity',
};

/**
 * A preference narrowed to the rows of the financial statements a question is about (QuestionAnalysis.statements): a
 * figure is printed once on its statement and again in notes and MD&A tables, among rows that share its words.
 */
export function withStatementPreference(
  pref: RankingPreference | null,
  statements: readonly FinancialStatement[],
): RankingPreference | null {
  if (!statements.length) return pref;
  const label = `rows of the ${statements.map((s) => STATEMENT_LABELS[s]).join(', ')}`;
  return {
    itemTags: pref?.itemTags ?? null,
    filings: pref?.filings ?? null,
    label: pref ? `${pref.label}; ${label}` : label,
    statements: [...statements],
  };
}

export interface InferredFilters {
  /** Hard filters inferred from the question, to be ANDed with the caller's; fields the caller filtered are absent. */
  conditions: Condition[];
  preference: RankingPreference | null;
  /**
   * Soft periods: a fiscal year the question names is a filter, but the next two annual reports restate it as a
   * comparative period (and discuss it: "in 2019" is often answered by the FY2021 10-K's comparison). These are the
   * conditions of that wider pass: `conditions` with those later years and form 10-K. Its evidence ranks below the
   * named year's (src/core/execute.ts). Null when the question names no fiscal year of its own, or no later 10-K
   * is in scope.
   */
  widened: { conditions: Condition[]; years: string[] } | null;
  notices: ResponseNotice[];
}

function describe(conditions: readonly Condition[]): string {
  return conditions.map((c) => `${c.field}${c.op === 'neq' ? '!=' : '='}${c.values.join('|')}`).join(', ');
}

interface Filing {
  docId: string;
  ticker: string;
  form: string;
  fiscalYear: string;
  fiscalPeriod: string;
  periodEnd: string;
}

function filingsOf(sources: readonly CatalogSource[]): Filing[] {
  const byDoc = new Map<string, Filing>();
  for (const s of sources) {
    if (byDoc.has(s.doc_id) || !s.meta.sec_fiscal_year) continue;
    byDoc.set(s.doc_id, {
      docId: s.doc_id,
      ticker: s.meta.sec_ticker ?? '',
      form: s.meta.sec_form_type ?? '',
      fiscalYear: s.meta.sec_fiscal_year,
      fiscalPeriod: s.fiscal_period,
      periodEnd: s.period_of_report,
    });
  }
  return [...byDoc.values()];
}

/**
 * Does a 10-Q match "Q<n> <year>"? People write quarters three ways, and for a company whose fiscal year is not the
 * calendar year they differ, so all three count: the fiscal quarter of that fiscal year (the filing's own label),
 * the fiscal quarter whose period ends in that calendar year, and the calendar quarter in which the period ends
 * (a period ending up to a week into the next quarter, as 52/53-week quarters do, counts for the earlier one).
 */
function quarterMatches(f: Filing, quarter: number, year: string | null): boolean {
  const fiscalQ = f.fiscalPeriod === `Q${quarter}`;
  if (year === null) return fiscalQ;
  const y = year.slice(3);
  if (fiscalQ && (f.fiscalYear === year || f.periodEnd.startsWith(y))) return true;
  const end = new Date(`${f.periodEnd}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() - 7);
  return end.getUTCFullYear() === Number(y) && Math.floor(end.getUTCMonth() / 3) + 1 === quarter;
}

function describeScope(conditions: readonly Condition[]): string {
  return conditions.length ? ` (${describe(conditions)})` : '';
}

/** The inference in progress: the conditions inferred so far and what the later steps need. */
interface Inference {
  analysis: QuestionAnalysis;
  catalog: CatalogHeader;
  caller: readonly Condition[];
  held: CatalogSource[];
  free: (field: FilterField) => boolean;
  warn: (notice: ResponseNotice) => void;
  tickers: Condition | null;
  sectors: Condition | null;
  subIndustries: Condition | null;
  years: Condition | null;
  form: Condition | null;
}

const inferredOf = (x: Inference): Condition[] =>
  [x.tickers, x.sectors, x.subIndustries, x.years, x.form].filter((c): c is Condition => c !== null);
const anyMatch = (x: Inference, conds: readonly Condition[]) => x.held.some((s) => matchesConditions(s.meta, conds));

/** Rules 1-2: the companies named, else the sectors and sub-industries named (a group of companies). */
function inferIssuers(x: Inference): void {
  if (!x.free('sec_ticker')) return;
  const { tickers: found, unknown } = x.analysis.companies;
  if (found.length) x.tickers = { field: 'sec_ticker', op: 'in', values: found };
  for (const t of unknown) {
    x.warn(NOTICES.unknownTicker(t));
  }
  if (x.tickers) return;
  const { subIndustries, sectors } = x.analysis.classification;
  if (x.free('sec_gics_sub_industry') && subIndustries.length)
    x.subIndustries = { field: 'sec_gics_sub_industry', op: 'in', values: [...subIndustries] };
  if (x.free('sec_gics_sector') && sectors.length)
    x.sectors = { field: 'sec_gics_sector', op: 'in', values: [...sectors] };
}

/** What the period mentions resolve to against the filings the filters so far allow. */
interface ResolvedPeriods {
  years: Set<string>;
  /** Filings (doc ids) of the quarters and period ends named: a ranking preference. */
  filings: Set<string>;
  labels: string[];
  /** A quarter or a 10-Q period end was named: the form is 10-Q unless the question says otherwise. */
  quarterly: boolean;
}

/** Rules 3-4: named quarters, period-end dates and "the latest 10-Q/10-K", resolved to fiscal years and filings. */
function resolvePeriods(x: Inference): ResolvedPeriods {
  const { periods } = x.analysis;
  const out: ResolvedPeriods = { years: new Set(periods.years), filings: new Set(), labels: [], quarterly: false };
  const filings = filingsOf(x.held.filter((s) => matchesConditions(s.meta, [...x.caller, ...inferredOf(x)])));
  const quarterlies = filings.filter((f) => f.form === '10-Q');
  for (const q of periods.quarters) {
    const matches = quarterlies.filter((f) => quarterMatches(f, q.quarter, q.year));
    // The fourth fiscal quarter is reported in the annual report: its year, and no 10-Q form; a 10-Q can still be
    // the calendar fourth quarter of a company whose fiscal year ends in another month.
    if (q.quarter === 4 && q.year) out.years.add(q.year);
    if (q.quarter !== 4) out.quarterly = true;
    const name = `Q${q.quarter}${q.year ? ` ${q.year.slice(3)}` : ''}`;
    if (matches.length) {
      for (const f of matches) {
        out.years.add(f.fiscalYear);
        out.filings.add(f.docId);
      }
      out.labels.push(name);
    } else if (q.quarter !== 4) {
      if (q.year) out.years.add(q.year);
      x.warn(NOTICES.quarterNotInIndex(name, describeScope([...x.caller, ...inferredOf(x)])));
    }
  }
  for (const date of periods.dates) {
    const ending = filings.filter((f) => f.periodEnd === date);
    if (!ending.length) {
      out.years.add(`FY-${date.slice(0, 4)}`);
      continue;
    }
    for (const f of ending) out.years.add(f.fiscalYear);
    if (ending.every((f) => f.form === '10-Q')) {
      ending.forEach((f) => {
        out.filings.add(f.docId);
      });
      out.labels.push(`the period ended ${date}`);
      out.quarterly = true;
    }
  }
  // "the latest 10-Q", "most recent quarter", "latest annual report": each named company's newest such filing.
  const form = x.analysis.latest;
  if (form && x.tickers) {
    for (const t of x.tickers.values) {
      const own = filings
        .filter((f) => f.ticker === t && f.form === form)
        .sort((a, b) => a.periodEnd.localeCompare(b.periodEnd));
      const newest = own[own.length - 1];
      if (!newest) continue;
      out.years.add(newest.fiscalYear);
      if (form === '10-Q') {
        out.filings.add(newest.docId);
        out.quarterly = true;
      }
    }
    if (form === '10-Q' && out.filings.size) out.labels.push('the latest quarter');
  }
  if (x.analysis.forwardLooking) for (const y of [...out.years]) out.years.add(`FY-${Number(y.slice(3)) - 1}`);
  return out;
}

/**
 * Rule 3's filter: the years the index holds; a named year it does not hold is replaced by the next ones that restate
 * it.
 */
function inferYears(x: Inference, yearSet: ReadonlySet<string>): void {
  if (!x.free('sec_fiscal_year') || !yearSet.size) return;
  const { periods } = x.analysis;
  const known = x.catalog.field_values.sec_fiscal_year;
  const bounds = Object.keys(known).sort();
  const present = new Set([...yearSet].filter((y) => known[y]));
  // A year added only because the question looks forward is not worth a warning or a substitute.
  const named = [...yearSet].filter(
    (y) =>
      !known[y] &&
      (periods.years.includes(y) ||
        periods.quarters.some((q) => q.year === y) ||
        periods.dates.some((d) => y === `FY-${d.slice(0, 4)}`)),
  );
  const substituted: string[] = [];
  const lost: string[] = [];
  for (const y of named) {
    // Later annual reports restate a year as a comparative period (income statements cover three years).
    const next = [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`).filter((n) => known[n]);
    if (next.length) {
      next.forEach((n) => {
        present.add(n);
      });
      substituted.push(`${y} -> ${next.join(', ')}`);
    } else lost.push(y);
  }
  const covers = bounds.length ? ` (it covers ${bounds[0]} to ${bounds[bounds.length - 1]})` : '';
  if (substituted.length) {
    x.warn(
      NOTICES.yearsSubstituted(
        named.filter((y) => !lost.includes(y)),
        covers,
        substituted,
      ),
    );
  }
  if (lost.length) x.warn(NOTICES.yearsNotInIndex(lost, covers));
  if (present.size) x.years = { field: 'sec_fiscal_year', op: 'in', values: [...present].sort() };
}

/** Rule 5: the form the question names, or 10-Q for a quarter (not a forward-looking one: forecasts are in 10-Ks). */
function inferForm(x: Inference, impliedQuarterly: boolean): void {
  if (!x.free('sec_form_type')) return;
  const { annual: tenK, quarterly: tenQ } = x.analysis.forms;
  const quarterly = tenQ || (impliedQuarterly && !x.analysis.forwardLooking && !tenK);
  if (tenK !== quarterly) x.form = { field: 'sec_form_type', op: 'eq', values: [tenK ? '10-K' : '10-Q'] };
}

/** Inferred filters must leave at least one filing, or they would turn a question into no evidence: relax them. */
function relax(x: Inference): void {
  const all = () => [...x.caller, ...inferredOf(x)];
  if (!anyMatch(x, x.caller)) {
    x.warn(NOTICES.callerFiltersMatchNothing(describe(x.caller)));
    return;
  }
  if (anyMatch(x, all())) return;
  const drop = (c: Condition) => x.warn(NOTICES.inferredFilterDropped(describe([c])));
  if (x.form && !anyMatch(x, all())) {
    drop(x.form);
    x.form = null;
  }
  if (x.years && !anyMatch(x, all())) {
    const years = x.years;
    // Later filings restate a year as their comparative period: try the next two fiscal years first.
    const next = [...new Set(years.values.flatMap((y) => [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`)))].filter(
      (y) => !years.values.includes(y),
    );
    const successor: Condition = {
      field: 'sec_fiscal_year',
      op: 'in',
      values: next.filter((y) => x.catalog.field_values.sec_fiscal_year[y]).sort(),
    };
    const others = inferredOf(x).filter((c) => c !== years);
    const usable = successor.values.filter((y) => anyMatch(x, [...x.caller, ...others, { ...successor, values: [y] }]));
    if (usable.length) {
      x.warn(NOTICES.yearFilterSubstituted(describe([years]), usable, years.values));
      x.years = { ...successor, values: usable };
    } else {
      drop(years);
      x.years = null;
    }
  }
  if (x.subIndustries && !anyMatch(x, all())) {
    drop(x.subIndustries);
    x.subIndustries = null;
  }
  if (x.sectors && !anyMatch(x, all())) {
    drop(x.sectors);
    x.sectors = null;
  }
  if (!anyMatch(x, all())) x.warn(NOTICES.filtersMatchNothing(describe(all())));
}

/** A named company or year that no filing matches together with the other filters is worth saying. */
function warnUnmatchedValues(x: Inference, all: readonly Condition[]): void {
  if (!anyMatch(x, all)) return;
  for (const c of all) {
    if (
      (c.op !== 'in' && c.op !== 'eq') ||
      c.values.length < 2 ||
      (c.field !== 'sec_ticker' && c.field !== 'sec_fiscal_year')
    )
      continue;
    const others = all.filter((o) => o !== c);
    for (const v of c.values) {
      if (!anyMatch(x, [...others, { ...c, values: [v] }])) {
        x.warn(NOTICES.filterValueUnmatched(c.field, v, describe(others)));
      }
    }
  }
}

/** Rule 6: item hints and named quarters as a ranking preference, checked against what the filters leave. */
function preferenceOf(x: Inference, all: readonly Condition[], periods: ResolvedPeriods): RankingPreference | null {
  const scope = x.held.filter((s) => matchesConditions(s.meta, all));
  const section = x.free('sec_item_tag') ? sectionPreference(x.analysis.sectionIntents, scope) : null;
  const labels = section ? [section.label] : [];
  // Preferred filings (named quarters and dates) that the final filters still allow.
  const inScope = new Set(scope.map((s) => s.doc_id));
  const kept = [...periods.filings].filter((d) => inScope.has(d)).sort();
  if (kept.length)
    labels.push(`${periods.labels.join(', ')} (${kept.length} quarterly report${kept.length > 1 ? 's' : ''})`);
  return section || kept.length
    ? { itemTags: section?.itemTags ?? null, filings: kept.length ? kept : null, label: labels.join('; ') }
    : null;
}

/**
 * Infers filters from a question's analysis (src/question/analyze.ts; research and agentic modes). Rules, in order
 * (docs/DECISIONS.md):
 * 1. Companies by name or alias (any case) or ticker (in capitals or after "$"); unknown ticker-like words warn.
 * 2. Sectors and sub-industries from the catalog's values, only when no company is named.
 * 3. Fiscal years ("FY2023", "fiscal 2023", bare years); a date equal to a filing's period end selects that
 *    filing's fiscal year; a forward-looking question also admits the year before (where the outlook was stated).
 * 4. Quarters Q1-Q3: the fiscal year and form 10-Q as filters, the quarter itself as a ranking preference.
 * 5. The form when the question names it ("10-K", "annual report", "10-Q(s)", "quarterly report") or speaks of
 *    several quarters ("over the reported quarters", "quarter to quarter": 10-Q).
 * 6. Item hints ("risk factors", "MD&A", "Item 7A") as a ranking preference, never a filter.
 * A field the caller filtered is never inferred, so inference narrows but never contradicts the caller. Inferred
 * filters that leave no filing are relaxed (form, then year, then sector) with a warning.
 */
export function inferFilters(
  analysis: QuestionAnalysis,
  catalog: CatalogHeader,
  caller: readonly Condition[],
): InferredFilters {
  const notices: ResponseNotice[] = [];
  const callerFields = new Set<FilterField>(caller.map((c) => c.field));
  const x: Inference = {
    analysis,
    catalog,
    caller,
    held: heldSourceList(catalog.sources),
    free: (f) => !callerFields.has(f),
    warn: (notice) => notices.push(notice),
    tickers: null,
    sectors: null,
    subIndustries: null,
    years: null,
    form: null,
  };
  inferIssuers(x);
  const periods = resolvePeriods(x);
  inferYears(x, periods.years);
  inferForm(x, periods.quarterly);
  relax(x);
  const all = [...caller, ...inferredOf(x)];
  warnUnmatchedValues(x, all);
  const preference = preferenceOf(x, all, periods);
  return {
    conditions: inferredOf(x),
    preference,
    widened: widenedYears(x.held, caller, inferredOf(x), analysis.periods.years),
    notices,
  };
}

/** The sections a question is about that `sources` hold, as a ranking preference on their item tags, or null. */
export function sectionPreference(
  intents: QuestionAnalysis['sectionIntents'],
  sources: readonly CatalogSource[],
): RankingPreference | null {
  const present = new Set(sources.map((s) => s.meta.sec_item_tag));
  const itemTags = new Set<string>();
  const labels: string[] = [];
  for (const intent of intents) {
    const tags = intent.tags.filter((t) => present.has(t));
    if (!tags.length) continue;
    tags.forEach((t) => {
      itemTags.add(t);
    });
    labels.push(`${intent.label} (${tags.join(', ')})`);
  }
  return itemTags.size ? { itemTags: [...itemTags].sort(), filings: null, label: labels.join('; ') } : null;
}

/**
 * The wider pass of soft periods (InferredFilters.widened): for fiscal years named on their own (not a quarter, a
 * date or "latest", which name one filing), the next two fiscal years' 10-Ks in scope. Not when the form is a
 * 10-Q (quarterly questions), nor when the caller fixed the year or the form.
 */
function widenedYears(
  held: readonly CatalogSource[],
  caller: readonly Condition[],
  inferred: readonly Condition[],
  named: readonly string[],
): InferredFilters['widened'] {
  const years = inferred.find((c) => c.field === 'sec_fiscal_year');
  const form = inferred.find((c) => c.field === 'sec_form_type');
  if (
    !years ||
    !named.length ||
    caller.some((c) => c.field === 'sec_form_type') ||
    (form && !form.values.includes('10-K'))
  )
    return null;
  const own = new Set(years.values);
  const later = [
    ...new Set(named.filter((y) => own.has(y)).flatMap((y) => [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`))),
  ]
    .filter((y) => !own.has(y))
    .sort();
  const others = inferred.filter((c) => c.field !== 'sec_fiscal_year' && c.field !== 'sec_form_type');
  const conditions: Condition[] = [
    ...others,
    { field: 'sec_fiscal_year', op: 'in', values: later },
    { field: 'sec_form_type', op: 'eq', values: ['10-K'] },
  ];
  const present = later.filter((y) =>
    held.some((s) =>
      matchesConditions(s.meta, [
        ...caller,
        ...others,
        { field: 'sec_fiscal_year', op: 'eq', values: [y] },
        conditions.at(-1)!,
      ]),
    ),
  );
  if (!present.length) return null;
  conditions[conditions.length - 2] = { field: 'sec_fiscal_year', op: 'in', values: present };
  return { conditions, years: present };
}
