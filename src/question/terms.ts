import { metricByCode, metricCodes, type MetricReading } from '../../index-format/metrics';
import { queryCompounds, tokenize, type Compound } from '../../index-format/tokenize';
import { cueTerms, PHRASING_WORDS } from './cues';

/**
 * Words of how a question is asked, not of what it asks about (src/question/cues.ts), stemmed as the analyzer stems
 * them.
 */
const QUESTION_WORDS = cueTerms(PHRASING_WORDS);

/**
 * The lexical query of a question: its index terms without question-phrasing words; `fy<year>` for each year it
 * names ("fiscal 2021", "in 2020"), since table rows state their periods as "for FY2020"; and the name of each
 * metric it names by a synonym ("purchases of property and equipment" -> "capital expenditure"), since the builder
 * adds the metric name to the terms of tagged statements. Falls back to all terms if nothing else is left.
 */
export function queryTerms(query: string, metrics: readonly number[] = metricCodes(query)): string[] {
  const all = tokenize(query);
  const terms = all.filter((t) => !QUESTION_WORDS.has(t));
  const have = new Set(terms);
  const add = (t: string) => {
    if (!have.has(t)) {
      have.add(t);
      terms.push(t);
    }
  };
  // Rows are indexed by periods as "for FY2018" or "for year ended December 31, 2018": both forms of each named year.
  for (const y of query.match(/(?<!\d)(?:19|20)\d\d(?!\d)/g) ?? []) {
    add(y);
    add(`fy${y}`);
  }
  for (const code of metrics) for (const t of tokenize(metricByCode(code)!.name)) add(t);
  return terms.length ? terms : all;
}

/** What a retrieval pass searches with: its index terms and the metrics its text names (at most three). */
export interface LexicalQuery {
  terms: string[];
  metrics: number[];
  /** The quarter its question names, as the plan resolved it (src/plan/query-plan.ts periodCredit). */
  periodCredit?: PeriodCredit;
  /**
   * Its hyphenated words, whose parts are among `terms`: a statement printing the joined spelling ("eCommerce" for
   * "e-commerce") holds those parts (searchLexical; chain relevance through src/search/term-membership.ts).
   */
  compounds?: Compound[];
}

/**
 * Words of a named quarter or year to date (`terms`, among the query's) that every statement of the filings reporting
 * it (`sources`, catalog indexes) counts as holding in the lexical leg.
 */
export interface PeriodCredit {
  terms: string[];
  sources: number[];
}

/**
 * A text's lexical query (the question's is part of its analysis, src/question/analyze.ts, read as a question; a
 * focused pass's is its own, written in the filings' words).
 */
export function lexicalQuery(text: string, reading: MetricReading = 'statement'): LexicalQuery {
  const metrics = metricCodes(text, 3, reading);
  const terms = queryTerms(text, metrics);
  const compounds = withParts(queryCompounds(text), terms);
  return compounds.length ? { terms, metrics, compounds } : { terms, metrics };
}

/** The compounds whose every part is a query term (a phrasing word or an issuer's name left out is not searched). */
export function withParts(compounds: readonly Compound[], terms: readonly string[]): Compound[] {
  return compounds.filter((c) => c.parts.every((p) => terms.includes(p)) && !terms.includes(c.joined));
}

/** The names a question may call issuers by: name, ticker and aliases (what withoutIssuerNames drops). */
export function issuerNames(
  companies: readonly { company: string; ticker: string; aliases: readonly string[] }[],
): string[] {
  return companies.flatMap((c) => [c.company, c.ticker, ...c.aliases]);
}

/**
 * The query terms without the words of the issuers a ticker filter already restricts the search to. Inside those
 * companies' filings their own name is in thousands of sentences ("Kraft Heinz fully and unconditionally
 * guarantees..."), so as a query term it only pulls boilerplate above the row that answers; the filter does the
 * name's work. Keeps the terms when nothing else would be left.
 */
export function withoutIssuerNames(terms: readonly string[], issuerNames: readonly string[]): string[] {
  if (!issuerNames.length) return [...terms];
  const drop = new Set(issuerNames.flatMap((n) => tokenize(n)));
  const kept = terms.filter((t) => !drop.has(t));
  return kept.length ? kept : [...terms];
}
