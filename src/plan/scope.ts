import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { Directory, SourceMeta } from '../../index-format/types';
import type { Lexicon } from '../../index-format/types';
import { DirectoryIndex } from '../../index-format/views';
import { rankShards } from '../search/select-shards';
import type { QuestionAnalysis } from '../question/analyze';

/**
 * Which issuers a request reads (its scope). The index is partitioned by issuer (docs/DECISIONS.md "Partitioned
 * index"): a request loads the tables of its scope's issuers only, so what it reads does not grow with the corpus.
 * - a caller's sec_ticker filter (eq/in): those issuers, whatever the question names;
 * - else the companies the question names (names, aliases, tickers in capitals);
 * - else the issuers of the shards the question's terms route to (the lexicon's impact bounds over the shards the
 *   directory-level conditions allow), resolved in a second step once the query terms' blocks are read.
 */
export type ScopeChoice =
  | { kind: 'issuers'; tickers: string[]; source: 'caller_filter' | 'named_in_question' }
  | { kind: 'route'; conditions: Condition[] };

export interface Scope {
  tickers: string[];
  source: 'caller_filter' | 'named_in_question' | 'routed';
}

/** Fields a directory can check for a shard: its issuer's ticker and classification, and the shard's fiscal year. */
const DIRECTORY_FIELDS = new Set(['sec_ticker', 'sec_gics_sector', 'sec_gics_sub_industry', 'sec_fiscal_year']);

export function chooseScope(
  analysis: QuestionAnalysis,
  directory: Directory,
  caller: readonly Condition[],
): ScopeChoice {
  const known = new Set(directory.companies.map((c) => c.ticker));
  const tickerFilter = caller.find((c) => c.field === 'sec_ticker' && (c.op === 'eq' || c.op === 'in'));
  if (tickerFilter)
    return {
      kind: 'issuers',
      tickers: tickerFilter.values.filter((t) => known.has(t)).sort(),
      source: 'caller_filter',
    };
  const tickerConds = caller.filter((c) => c.field === 'sec_ticker');
  const named = analysis.companies.tickers.filter((t) =>
    matchesConditions({ sec_ticker: t } as SourceMeta, tickerConds),
  );
  if (named.length) return { kind: 'issuers', tickers: named, source: 'named_in_question' };
  const conditions = caller.filter((c) => DIRECTORY_FIELDS.has(c.field));
  // A group of companies the question names by sector or sub-industry narrows the route as inference would.
  const classified = (
    field: 'sec_gics_sector' | 'sec_gics_sub_industry',
    found: readonly string[],
  ): Condition | null =>
    caller.some((c) => c.field === field) || !found.length ? null : { field, op: 'in', values: [...found] };
  const sub = classified('sec_gics_sub_industry', analysis.classification.subIndustries);
  const sector = classified('sec_gics_sector', analysis.classification.sectors);
  return { kind: 'route', conditions: [...conditions, ...(sub ? [sub] : []), ...(sector ? [sector] : [])] };
}

/**
 * Shards whose issuer and fiscal year satisfy the directory-level conditions (a superset of what the filters allow).
 */
export function routingCandidates(directory: Directory, conditions: readonly Condition[]): number[] {
  const out: number[] = [];
  for (const c of directory.companies) {
    c.shards.fiscal_years.forEach((year, k) => {
      const meta = {
        sec_ticker: c.ticker,
        sec_gics_sector: c.sector,
        sec_gics_sub_industry: c.sub_industry,
        sec_fiscal_year: year,
      } as SourceMeta;
      if (matchesConditions(meta, conditions)) out.push(c.shards.first + k);
    });
  }
  return out.sort((a, b) => a - b);
}

/** The issuers of the best `max` candidate shards for the query terms, by the lexicon's impact bounds. */
export function routeScope(
  directory: Directory,
  lexicon: Lexicon,
  conditions: readonly Condition[],
  queryTerms: readonly string[],
  max: number,
): Scope {
  const index = new DirectoryIndex(directory);
  const shards = rankShards(lexicon, routingCandidates(directory, conditions), queryTerms, max);
  const tickers = [...new Set(shards.map((s) => index.ownerOfShard(s)?.ticker).filter((t): t is string => !!t))].sort();
  return { tickers, source: 'routed' };
}
