import type { FinancialStatement } from '../text/financial-statements';
import type { CatalogHeader, CatalogSource } from '../format/types';
import { heldSourceList } from '../format/views';
import type { FilterField } from './fields';
import { matchesConditions } from './match';
import type { Condition } from './parse';
import type { QueryAnalysis } from '../query/analyze';

/** A message for the caller: `warning`s also go to summary.warnings, every notice to the top-level `notices`. */
export interface QueryNotice {
  code: string;
  message: string;
  level: 'info' | 'warning';
}

/**
 * What the question prefers without filtering on it: sections it names (item tags) and fiscal quarters (no
 * filter field holds the quarter). Chains from matching sources rank first (core/run-query.ts), others still come.
 */
export interface RankingPreference {
  /** Item tags present in the index, or null for any item. */
  itemTags: string[] | null;
  /** Filings (doc ids) of the quarters or period ends the question names, or null for any filing. */
  filings: string[] | null;
  /** For notices: "risk factors (10K-Item-1A, 10Q-PartII-Item-1A)", "Q2 2023 (1 quarterly report)". */
  label: string;
  /** Table rows printed on these primary financial statements only (src/text/financial-statements.ts); absent for any. */
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
 * A preference narrowed to the rows of the financial statements a question is about (QueryAnalysis.statements): a
 * figure is printed once on its statement and again in notes and MD&A tables, among rows that share its words.
 */
export function withStatementPreference(pref: RankingPreference | null, statements: readonly FinancialStatement[]): RankingPreference | null {
  if (!statements.length) return pref;
  const label = `rows of the ${statements.map((s) => STATEMENT_LABELS[s]).join(', ')}`;
  return { itemTags: pref?.itemTags ?? null, filings: pref?.filings ?? null, label: pref ? `${pref.label}; ${label}` : label, statements: [...statements] };
}

export interface InferredFilters {
  /** Hard filters inferred from the question, to be ANDed with the caller's; fields the caller filtered are absent. */
  conditions: Condition[];
  preference: RankingPreference | null;
  /**
   * Soft periods: a fiscal year the question names is a filter, but the next two annual reports restate it as a
   * comparative period (and discuss it: "in 2019" is often answered by the FY2021 10-K's comparison). These are the
   * conditions of that wider pass: `conditions` with those later years and form 10-K. Its evidence ranks below the
   * named year's (core/run-query.ts). Null when the question names no fiscal year of its own, or no later 10-K
   * is in scope.
   */
  widened: { conditions: Condition[]; years: string[] } | null;
  notices: QueryNotice[];
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

/**
 * Infers filters from a question's analysis (src/plan/analyze.ts; research and agentic modes). Rules, in order (docs/DECISIONS.md):
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
export function inferFilters(analysis: QueryAnalysis, catalog: CatalogHeader, caller: readonly Condition[]): InferredFilters {
  const notices: QueryNotice[] = [];
  const warn = (code: string, message: string) => notices.push({ code, message, level: 'warning' });
  const callerFields = new Set<FilterField>(caller.map((c) => c.field));
  const free = (f: FilterField) => !callerFields.has(f);
  const held = heldSourceList(catalog.sources);
  const matchingSources = (conds: readonly Condition[]): CatalogSource[] => held.filter((s) => matchesConditions(s.meta, conds));
  const anyMatch = (conds: readonly Condition[]) => held.some((s) => matchesConditions(s.meta, conds));

  let tickers: Condition | null = null;
  let sectors: Condition | null = null;
  let subIndustries: Condition | null = null;
  let years: Condition | null = null;
  let form: Condition | null = null;
  const inferred = () => [tickers, sectors, subIndustries, years, form].filter((c): c is Condition => c !== null);

  // 1. Companies.
  if (free('sec_ticker')) {
    const { tickers: found, unknown } = analysis.companies;
    if (found.length) tickers = { field: 'sec_ticker', op: 'in', values: found };
    for (const t of unknown) {
      warn('COMPANY_NOT_IN_INDEX', `"${t}" looks like a ticker symbol, but no company with that ticker is in the index; it was not used as a filter.`);
    }
  }
  // 2. Sectors and sub-industries, for questions about a group of companies.
  if (!tickers && free('sec_ticker')) {
    if (free('sec_gics_sub_industry')) {
      const found = analysis.classification.subIndustries;
      if (found.length) subIndustries = { field: 'sec_gics_sub_industry', op: 'in', values: [...found] };
    }
    if (free('sec_gics_sector')) {
      const found = analysis.classification.sectors;
      if (found.length) sectors = { field: 'sec_gics_sector', op: 'in', values: [...found] };
    }
  }

  // 3-4. Periods. Quarters, dates and "latest" resolve against the filings the filters so far allow.
  const { periods, forwardLooking } = analysis;
  const yearSet = new Set(periods.years);
  const preferredFilings = new Set<string>();
  const periodLabels: string[] = [];
  let impliedQuarterly = false;
  const scopeSoFar = matchingSources([...caller, ...inferred()]);
  const filings = filingsOf(scopeSoFar);
  const quarterlies = filings.filter((f) => f.form === '10-Q');
  for (const q of periods.quarters) {
    const matches = quarterlies.filter((f) => quarterMatches(f, q.quarter, q.year));
    // The fourth fiscal quarter is reported in the annual report: its year, and no 10-Q form; a 10-Q can still be
    // the calendar fourth quarter of a company whose fiscal year ends in another month.
    if (q.quarter === 4 && q.year) yearSet.add(q.year);
    if (q.quarter !== 4) impliedQuarterly = true;
    const name = `Q${q.quarter}${q.year ? ` ${q.year.slice(3)}` : ''}`;
    if (matches.length) {
      for (const f of matches) {
        yearSet.add(f.fiscalYear);
        preferredFilings.add(f.docId);
      }
      periodLabels.push(name);
    } else if (q.quarter !== 4) {
      if (q.year) yearSet.add(q.year);
      warn('PERIOD_NOT_IN_INDEX', `No quarterly report for ${name} matches the filters${describeScope([...caller, ...inferred()])}; evidence from other periods may be returned.`);
    }
  }
  for (const date of periods.dates) {
    const ending = filings.filter((f) => f.periodEnd === date);
    if (!ending.length) {
      yearSet.add(`FY-${date.slice(0, 4)}`);
      continue;
    }
    for (const f of ending) yearSet.add(f.fiscalYear);
    if (ending.every((f) => f.form === '10-Q')) {
      ending.forEach((f) => preferredFilings.add(f.docId));
      periodLabels.push(`the period ended ${date}`);
      impliedQuarterly = true;
    }
  }
  // "the latest 10-Q", "most recent quarter", "latest annual report": each named company's newest such filing.
  if (analysis.latest && tickers) {
    const form = analysis.latest;
    for (const t of tickers.values) {
      const own = filings.filter((f) => f.ticker === t && f.form === form).sort((a, b) => a.periodEnd.localeCompare(b.periodEnd));
      const newest = own[own.length - 1];
      if (!newest) continue;
      yearSet.add(newest.fiscalYear);
      if (form === '10-Q') {
        preferredFilings.add(newest.docId);
        impliedQuarterly = true;
      }
    }
    if (form === '10-Q' && preferredFilings.size) periodLabels.push('the latest quarter');
  }
  if (forwardLooking) for (const y of [...yearSet]) yearSet.add(`FY-${Number(y.slice(3)) - 1}`);
  if (free('sec_fiscal_year') && yearSet.size) {
    const known = catalog.field_values.sec_fiscal_year;
    const bounds = Object.keys(known).sort();
    const present = new Set([...yearSet].filter((y) => known[y]));
    // A year added only because the question looks forward is not worth a warning or a substitute.
    const named = [...yearSet].filter(
      (y) => !known[y] && (periods.years.includes(y) || periods.quarters.some((q) => q.year === y) || periods.dates.some((d) => y === `FY-${d.slice(0, 4)}`)),
    );
    const substituted: string[] = [];
    const lost: string[] = [];
    for (const y of named) {
      // Later annual reports restate a year as a comparative period (income statements cover three years).
      const next = [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`).filter((n) => known[n]);
      if (next.length) {
        next.forEach((n) => present.add(n));
        substituted.push(`${y} -> ${next.join(', ')}`);
      } else lost.push(y);
    }
    const covers = bounds.length ? ` (it covers ${bounds[0]} to ${bounds[bounds.length - 1]})` : '';
    if (substituted.length) {
      warn('PERIOD_SUBSTITUTED', `No filings for ${named.filter((y) => !lost.includes(y)).join(', ')} in the index${covers}; used the next fiscal years instead (${substituted.join('; ')}), whose filings report it as a comparative period.`);
    }
    if (lost.length) warn('PERIOD_NOT_IN_INDEX', `No filings for ${lost.join(', ')} in the index${covers}; ${lost.length > 1 ? 'those periods were' : 'that period was'} not used as a filter.`);
    if (present.size) years = { field: 'sec_fiscal_year', op: 'in', values: [...present].sort() };
  }

  // 5. Form.
  if (free('sec_form_type')) {
    const { annual: tenK, quarterly: tenQ } = analysis.forms;
    // A forward-looking question about a quarter is answered by the filing that made the forecast, often a 10-K.
    const quarterly = tenQ || (impliedQuarterly && !forwardLooking && !tenK);
    if (tenK !== quarterly) form = { field: 'sec_form_type', op: 'eq', values: [tenK ? '10-K' : '10-Q'] };
  }

  // Relaxation: inferred filters must leave at least one filing, or they would turn a question into no evidence.
  if (!anyMatch(caller)) {
    warn('FILTERS_MATCH_NOTHING', `No indexed filing matches the metadata_filters (${describe(caller)}).`);
  } else if (!anyMatch([...caller, ...inferred()])) {
    const drop = (c: Condition, why: string) => warn('INFERRED_FILTER_DROPPED', `No indexed filing matches ${describe([c])} together with the other filters; ${why}`);
    if (form && !anyMatch([...caller, ...inferred()])) {
      drop(form, 'that inferred filter was not applied.');
      form = null;
    }
    if (years && !anyMatch([...caller, ...inferred()])) {
      // Later filings restate a year as their comparative period: try the next two fiscal years first.
      const next = [...new Set(years.values.flatMap((y) => [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`)))].filter((y) => !years!.values.includes(y));
      const successor: Condition = { field: 'sec_fiscal_year', op: 'in', values: next.filter((y) => catalog.field_values.sec_fiscal_year[y]).sort() };
      const others = inferred().filter((c) => c !== years);
      const usable = successor.values.filter((y) => anyMatch([...caller, ...others, { ...successor, values: [y] }]));
      if (usable.length) {
        warn(
          'PERIOD_SUBSTITUTED',
          `No indexed filing matches ${describe([years])} with the other filters; used ${usable.join(', ')} instead, whose filings report ${years.values.join(', ')} as a comparative period.`,
        );
        years = { ...successor, values: usable };
      } else {
        drop(years, 'that inferred filter was not applied.');
        years = null;
      }
    }
    for (const which of ['sub', 'sector'] as const) {
      const c = which === 'sub' ? subIndustries : sectors;
      if (c && !anyMatch([...caller, ...inferred()])) {
        drop(c, 'that inferred filter was not applied.');
        if (which === 'sub') subIndustries = null;
        else sectors = null;
      }
    }
    if (!anyMatch([...caller, ...inferred()])) warn('FILTERS_MATCH_NOTHING', `No indexed filing matches ${describe([...caller, ...inferred()])}.`);
  }

  // Per-value checks: a named company or year that no filing matches (with the other filters) is worth saying.
  const all = [...caller, ...inferred()];
  if (anyMatch(all)) {
    for (const c of all) {
      if ((c.op !== 'in' && c.op !== 'eq') || c.values.length < 2 || (c.field !== 'sec_ticker' && c.field !== 'sec_fiscal_year')) continue;
      const others = all.filter((o) => o !== c);
      for (const v of c.values) {
        if (!anyMatch([...others, { ...c, values: [v] }])) {
          warn('FILTER_VALUE_UNMATCHED', `No indexed filing matches ${c.field}=${v} together with the other filters (${describe(others) || 'none'}).`);
        }
      }
    }
  }

  // 6. Ranking preference: item hints and quarters, checked against what the filters leave.
  const scope = matchingSources(all);
  let preference: RankingPreference | null = null;
  const section = free('sec_item_tag') ? sectionPreference(analysis.sectionIntents, scope) : null;
  const labels = section ? [section.label] : [];
  // Preferred filings (named quarters and dates) that the final filters still allow.
  const inScope = new Set(scope.map((x) => x.doc_id));
  const kept = [...preferredFilings].filter((d) => inScope.has(d)).sort();
  if (kept.length) labels.push(`${periodLabels.join(', ')} (${kept.length} quarterly report${kept.length > 1 ? 's' : ''})`);
  if (section || kept.length) preference = { itemTags: section?.itemTags ?? null, filings: kept.length ? kept : null, label: labels.join('; ') };

  return { conditions: inferred(), preference, widened: widenedYears(held, caller, inferred(), periods.years), notices };
}

/** The sections a question is about that `sources` hold, as a ranking preference on their item tags, or null. */
export function sectionPreference(intents: QueryAnalysis['sectionIntents'], sources: readonly CatalogSource[]): RankingPreference | null {
  const present = new Set(sources.map((s) => s.meta.sec_item_tag));
  const itemTags = new Set<string>();
  const labels: string[] = [];
  for (const intent of intents) {
    const tags = intent.tags.filter((t) => present.has(t));
    if (!tags.length) continue;
    tags.forEach((t) => itemTags.add(t));
    labels.push(`${intent.label} (${tags.join(', ')})`);
  }
  return itemTags.size ? { itemTags: [...itemTags].sort(), filings: null, label: labels.join('; ') } : null;
}

/**
 * The wider pass of soft periods (InferredFilters.widened): for fiscal years named on their own (not a quarter, a
 * date or "latest", which name one filing), the next two fiscal years' 10-Ks in scope. Not when the form is a
 * 10-Q (quarterly questions), nor when the caller fixed the year or the form.
 */
function widenedYears(held: readonly CatalogSource[], caller: readonly Condition[], inferred: readonly Condition[], named: readonly string[]): InferredFilters['widened'] {
  const years = inferred.find((c) => c.field === 'sec_fiscal_year');
  const form = inferred.find((c) => c.field === 'sec_form_type');
  if (!years || !named.length || caller.some((c) => c.field === 'sec_form_type') || (form && !form.values.includes('10-K'))) return null;
  const own = new Set(years.values);
  const later = [...new Set(named.filter((y) => own.has(y)).flatMap((y) => [1, 2].map((d) => `FY-${Number(y.slice(3)) + d}`)))].filter((y) => !own.has(y)).sort();
  const others = inferred.filter((c) => c.field !== 'sec_fiscal_year' && c.field !== 'sec_form_type');
  const conditions: Condition[] = [...others, { field: 'sec_fiscal_year', op: 'in', values: later }, { field: 'sec_form_type', op: 'eq', values: ['10-K'] }];
  const present = later.filter((y) => held.some((s) => matchesConditions(s.meta, [...caller, ...others, { field: 'sec_fiscal_year', op: 'eq', values: [y] }, conditions.at(-1)!])));
  if (!present.length) return null;
  conditions[conditions.length - 2] = { field: 'sec_fiscal_year', op: 'in', values: present };
  return { conditions, years: present };
}
