import { findClassification, findCompanies } from './companies';
import { BUSINESS_DESCRIPTION, FINANCIAL_STATEMENTS_HINT, findItemHints } from './items';
import { findPeriods, type PeriodMentions } from './periods';
import type { Directory } from '../../index-format/types';
import { lexicalQuery, type LexicalQuery } from './terms';
import { ACROSS_PERIODS, ACROSS_QUARTERS, CAUSAL, COMPARISON, cuePattern, FORWARD_LOOKING, NUMERIC_ASK } from './cues';
import {
  FINANCIAL_STATEMENTS,
  namedFinancialStatements,
  type FinancialStatement,
} from '../../index-format/financial-statements';
import { METRICS, metricByCode, metricCode, metricCodes, type Metric } from '../../index-format/metrics';

/**
 * One reading of a question (analyse -> plan -> execute): everything the pipeline needs from the question's text,
 * computed once per request as a plain value. Inference (filters/infer.ts), scope (plan/scope.ts), facets,
 * requirements and the pass plan consume it; none of them reads the text again. It depends on the directory only
 * (company names, tickers, classification values), never on the scope, so it can be computed before anything else
 * is read and pinned by tests on a table of questions.
 */
export type QuestionShape = 'comparison' | 'trend' | 'ratio' | 'lookup' | 'descriptive';

export interface QuestionAnalysis {
  /** The normalized question. */
  text: string;
  /** The question's lexical query: index terms and the metrics named (src/question/terms.ts). */
  lexical: LexicalQuery;
  /** Companies named by name or alias (any case) or ticker (capitals or "$"); ticker-like words no company has. */
  companies: { tickers: string[]; unknown: string[] };
  /** Sector and sub-industry values named (a group of companies), whether or not a company is named too. */
  classification: { sectors: string[]; subIndustries: string[] };
  /** Fiscal years, quarters and dates named. */
  periods: PeriodMentions;
  /** "the latest 10-Q", "most recent annual report": the form of the newest filing asked for. */
  latest: '10-K' | '10-Q' | null;
  /** Forms the question names ("10-K", "annual report"; "10-Qs", "quarterly reports", several quarters). */
  forms: { annual: boolean; quarterly: boolean };
  /** A question about change across an issuer's filings; `quarterly` when it speaks of quarters. */
  acrossPeriods: { quarterly: boolean } | null;
  /** The question looks forward (an outlook, a plan, guidance). */
  forwardLooking: boolean;
  /**
   * The question names no period (year, quarter, date, "latest") and speaks of no span of them (across periods, of
   * quarters): it is about the company as it is now, so each named company's latest 10-K is searched first
   * (src/plan/periods.ts latestAnnualSources, src/plan/passes.ts `latest`).
   */
  current: boolean;
  /**
   * Sections the question is about, as item tags (src/question/items.ts): those it names, or for a descriptive
   * question that names none, does not look forward and does not ask why, the business description. A ranking
   * preference, never a filter.
   */
  sectionIntents: { label: string; tags: string[] }[];
  /** Line items a computed answer needs: the metrics named, each ratio replaced by its inputs (metric ids). */
  lineItems: string[];
  /**
   * Primary financial statements the question is about: those it names ("balance sheet") and those that report its
   * inputs when it is a ratio (index-format/metrics.ts `statement`), in FINANCIAL_STATEMENTS order; `named` when the
   * question names one. A ranking preference for the rows printed on them, never a filter.
   */
  statements: { list: FinancialStatement[]; named: boolean };
  shape: QuestionShape;
}

type DirectoryNames = Pick<Directory, 'field_values'> & {
  companies: readonly { ticker: string; aliases: readonly string[] }[];
};

const ACROSS_PERIODS_RE = cuePattern(ACROSS_PERIODS);
const ACROSS_QUARTERS_RE = cuePattern(ACROSS_QUARTERS);
const FORWARD_LOOKING_RE = cuePattern(FORWARD_LOOKING, (a) => `\\b(?:${a})\\b`);
const COMPARISON_RE = cuePattern(COMPARISON);
const NUMERIC_ASK_RE = cuePattern(NUMERIC_ASK);
const CAUSAL_RE = cuePattern(CAUSAL);
const QUARTERLY = /\b(?:quarters?|quarterly|10-?qs?)\b/i;
const LATEST = /\b(?:latest|most recent|newest|last)\s+(?:(10-?Q|quarter|quarterly)|(10-?K|annual|fiscal year))/i;

/**
 * Metrics the question names, most specific first, with each ratio or derived metric replaced by its inputs
 * (numerator first): "gross margin percentage" -> gross profit, revenue. An input named twice is planned once.
 */
function lineItemsOf(codes: readonly number[]): string[] {
  const out: Metric[] = [];
  const add = (m: Metric | null) => {
    if (m && !out.includes(m)) out.push(m);
  };
  for (const code of codes) {
    const m = metricByCode(code)!;
    if (m.inputs?.length) for (const id of m.inputs) add(metricByCode(metricCode(id)));
    else add(m);
  }
  return out.map((m) => m.id);
}

/**
 * The question's shape, first that applies: `comparison` (two or more companies, or comparing words), `trend`
 * (change across filings, or two or more periods named), `ratio` (a metric computed from others), `lookup` (a
 * metric named, or a question asking for a number), else `descriptive` (what a business is, does or faces).
 */
function shapeOf(
  text: string,
  companies: readonly string[],
  periods: PeriodMentions,
  acrossPeriods: boolean,
  metrics: readonly number[],
): QuestionShape {
  if (companies.length >= 2 || COMPARISON_RE.test(text)) return 'comparison';
  if (acrossPeriods || periods.years.length + periods.quarters.length >= 2) return 'trend';
  if (metrics.some((c) => metricByCode(c)?.inputs?.length)) return 'ratio';
  if (metrics.length || NUMERIC_ASK_RE.test(text)) return 'lookup';
  return 'descriptive';
}

/**
 * The statements a question names, and for a ratio question those that report its inputs. Only for ratios: a
 * ratio is computed from the company's totals, which the statements print; a lookup or trend of a line item is as
 * often a segment's or a product's ("iPhone net sales", "Data Center revenue"), printed in notes and MD&A, not on
 * the statement (docs/PARAMETERS.md has the measurements).
 */
function statementsOf(
  text: string,
  lineItems: readonly string[],
  shape: QuestionShape,
): QuestionAnalysis['statements'] {
  const named = namedFinancialStatements(text);
  const found = new Set(named);
  if (shape === 'ratio') {
    for (const id of lineItems) {
      const home = metricByCode(metricCode(id))?.statement;
      if (home) found.add(home);
    }
  }
  return { list: FINANCIAL_STATEMENTS.filter((s) => found.has(s)), named: named.length > 0 };
}

export function analyzeQuestion(text: string, directory: DirectoryNames): QuestionAnalysis {
  const companies = findCompanies(text, directory.companies);
  const values = (field: 'sec_gics_sector' | 'sec_gics_sub_industry') =>
    Object.keys(directory.field_values[field] ?? {});
  const periods = findPeriods(text);
  const latest = LATEST.exec(text);
  const across = ACROSS_PERIODS_RE.test(text);
  const allMetrics = metricCodes(text, METRICS.length, 'question');
  const shape = shapeOf(text, companies.tickers, periods, across, allMetrics);
  const forwardLooking = FORWARD_LOOKING_RE.test(text);
  const lineItems = lineItemsOf(allMetrics);
  const statements = statementsOf(text, lineItems, shape);
  // A named statement is found by its rows, whichever item holds them (some 10-Ks print the statements under Item
  // 15), so the "financial statements" section hint it also matches would only narrow that to Item 8.
  const named = findItemHints(text).filter((h) => !(statements.named && h.label === FINANCIAL_STATEMENTS_HINT));
  return {
    text,
    lexical: lexicalQuery(text, 'question'),
    companies,
    classification: {
      sectors: findClassification(text, values('sec_gics_sector'), true).sort(),
      subIndustries: findClassification(text, values('sec_gics_sub_industry'), false).sort(),
    },
    periods,
    latest: latest ? (latest[1] ? '10-Q' : '10-K') : null,
    forms: {
      annual: /\b10-?K\b|\bannual reports?\b|\bannual filings?\b/i.test(text),
      quarterly:
        /\b10-?Qs?\b|\bquarterly reports?\b|\bquarterly filings?\b/i.test(text) || ACROSS_QUARTERS_RE.test(text),
    },
    acrossPeriods: across ? { quarterly: QUARTERLY.test(text) } : null,
    forwardLooking,
    current:
      !periods.years.length &&
      !periods.quarters.length &&
      !periods.dates.length &&
      !latest &&
      !across &&
      !QUARTERLY.test(text),
    // A question about what the company is or does that names no section is about its business description (not
    // one that looks forward or asks why something changed: outlooks and explanations are in MD&A).
    sectionIntents:
      !named.length && !statements.named && shape === 'descriptive' && !forwardLooking && !CAUSAL_RE.test(text)
        ? [{ ...BUSINESS_DESCRIPTION, tags: [...BUSINESS_DESCRIPTION.tags] }]
        : named,
    lineItems,
    statements,
    shape,
  };
}
