import type { IndexReader } from '../core/index-reader';
import type { CatalogHeader, Lexicon } from '../format/types';
import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { EpistemicStatus, Shard, StatementKind } from '../format/types';
import { embedTokens } from '../text/embed';
import { metricCodes, RECONCILING_GROUP } from '../text/metrics';
import { stem } from '../text/tokenize';
import { queryTerms as toQueryTerms, withoutIssuerNames } from './query-terms';
import { searchLexical, type ScoredStatement } from './lexical';
import { UNFILTERED_MAX_SHARDS, type EffortPlan } from './plan';
import { fusedContribution, RANKING } from './ranking';
import { candidateShards, rankShards } from './select-shards';
import { cosineMemo, cosineOf, searchVectorExact, type CosineMemo } from './vector';
import { chooseVectorStrategy, countAllowed, searchVectorGraph, type ShardVectorStrategy } from './vector-strategy';

export interface Hit {
  shard: number;
  local: number;
  text: string;
  source: number;
  page: number;
  kind: StatementKind;
  status: EpistemicStatus;
  /** Fused rank score (reciprocal rank fusion of both legs). */
  fused: number;
  lexical: number;
  cosine: number;
  /**
   * A table row the query names: by its metric (primary metric tag; the purchases-of-PP&E row for "capex") or by
   * its whole label ("total current assets"). Chains anchored on one rank higher (evidence/chains.ts).
   */
  namedRow?: boolean;
}

/** The query plan as a plain value (STYLE.md section 5): tests assert it, the agentic retrieval plan reports it. */
export interface RetrievalTrace {
  candidateShards: number;
  searchedShards: string[];
  allowedSources: number | null;
  /** How the vector leg searched each shard, in the order of searchedShards. */
  vectorStrategy: ShardVectorStrategy[];
}

export interface RetrievalResult {
  hits: Hit[];
  queryTerms: string[];
  /** Corpus statistics of the query terms (what BM25 weighed them by). */
  lexicon: Lexicon;
  trace: RetrievalTrace;
}

/**
 * Lexical score factor of a statement: a table row of a metric the query names, or whose label's terms are all in
 * the query ("Total current assets" for "how much total current assets..."), is what a line-item question asks
 * for, yet prose that repeats more of the question's words outscores it in plain BM25. Sentences tagged with a
 * named metric get a smaller factor. docs/PARAMETERS.md has the measured values.
 */
export function rowBoost(shard: Shard, local: number, queryTerms: ReadonlySet<string>, queryMetrics: ReadonlySet<number>, labels?: LabelMemo): number {
  const code = shard.metric[local]!;
  const metric = queryMetrics.has(code);
  if (shard.kind[local] !== 'table_row') return metric ? RANKING.metricBoost : 1;
  const text = shard.texts[local]!;
  // A row tagged by its reconciling group only (a cash-flow adjustment under "net cash provided by operating
  // activities") is not the metric's row: a dozen of them outranked the operating-cash-flow total.
  if (metric) return RECONCILING_GROUP.test(text) && !metricCodes(rowLabel(text) ?? '').includes(code) ? 1 : RANKING.metricRowBoost;
  let memo = labels?.get(shard);
  if (labels && !memo) labels.set(shard, (memo = []));
  let terms = memo?.[local];
  if (terms === undefined) {
    terms = labelTerms(text);
    if (memo) memo[local] = terms;
  }
  return terms !== null && terms.every((t) => queryTerms.has(t)) ? RANKING.metricRowBoost : 1;
}

/**
 * Label terms of each table row a request has looked at, per shard (query-independent, so the passes of a request
 * share them). Request-scoped, like the cosine memo.
 */
export type LabelMemo = Map<Shard, (readonly string[] | null | undefined)[]>;

/** The stemmed words a row's label must all find in the query, or null when the label can match no question. */
function labelTerms(text: string): readonly string[] | null {
  const label = rowLabel(text);
  if (!label) return null;
  // Every word of the label, the analyzer's stop words included except connectors: "Other current assets" must
  // not match a question about total current assets because "other" is a stop word of the index.
  const words = (label.normalize('NFKC').toLowerCase().match(/[\p{L}&]+/gu) ?? []).filter((w) => !LABEL_CONNECTORS.has(w));
  // One-word labels count too ("iPhone", "Inventories": Apple's iPhone net sales row lost to prose about iPhone
  // sales), except words that head many rows of every table ("Total: ..." would match any question saying "total").
  if (!words.length || (words.length === 1 && GENERIC_LABELS.has(words[0]!))) return null;
  return words.map(stem);
}

/** One-word row labels that name no line item by themselves. */
const GENERIC_LABELS = new Set(['total', 'totals', 'subtotal', 'net', 'other', 'balance', 'amount', 'change', 'increase', 'decrease', 'ending', 'beginning']);

const LABEL_CONNECTORS = new Set(['and', 'of', 'the', 'in', 'for', 'to', 'on', 'from', 'by', 'a', 'an', 'or', 'at', 'with']);

/** A table row's label: its text before the first "label: value" colon (rows read "Label: 1,577 for FY2018 | ..."). */
export function rowLabel(text: string): string | null {
  const m = /^(.*?):\s*(?:[-(\d$—–]|\p{Sc})/u.exec(text);
  if (!m) return null;
  // Nested labels ("Shareholders' equity: Additional paid-in capital: 5,643") keep the innermost part.
  const parts = m[1]!.split(':');
  return parts[parts.length - 1]!.trim();
}

/** Names, aliases and tickers of the companies a positive sec_ticker condition restricts the search to. */
function filteredIssuerNames(catalog: CatalogHeader, conditions: readonly Condition[]): string[] {
  const tickers = new Set(conditions.filter((c) => c.field === 'sec_ticker' && (c.op === 'eq' || c.op === 'in')).flatMap((c) => c.values));
  return catalog.companies.filter((c) => tickers.has(c.ticker)).flatMap((c) => [c.company, c.ticker, ...c.aliases]);
}

/**
 * What a request's earlier passes computed and later ones reuse: cosines per shard and query text
 * (src/search/vector.ts) and row-label terms. Request-scoped: the caller creates one per request, so nothing
 * outlives it.
 */
export interface RequestMemo {
  cosines: Map<string, CosineMemo>;
  labels: LabelMemo;
}

export const requestMemo = (): RequestMemo => ({ cosines: new Map(), labels: new Map() });

/**
 * One retrieval branch, optionally restricted to some catalog sources (one filing, for a period facet): filters ->
 * allowed sources -> shards (all candidates when few, else the best by the lexicon's impact bounds) -> lexical BM25
 * and vector legs per shard -> reciprocal rank fusion.
 */
export async function retrieve(
  reader: IndexReader,
  catalog: CatalogHeader,
  query: string,
  conditions: readonly Condition[],
  plan: EffortPlan,
  onlySources?: ReadonlySet<number>,
  memo?: RequestMemo,
): Promise<RetrievalResult> {
  const queryTerms = withoutIssuerNames(toQueryTerms(query), filteredIssuerNames(catalog, conditions));
  let allowed: Uint8Array | null = null;
  if (conditions.length || onlySources) {
    allowed = new Uint8Array(catalog.sources.length);
    catalog.sources.forEach((s, i) => (allowed![i] = (!onlySources || onlySources.has(i)) && matchesConditions(s.meta, conditions) ? 1 : 0));
  }
  const queryMetrics = new Set(metricCodes(query));
  const querySet = new Set(queryTerms);
  const candidates = candidateShards(catalog, allowed);
  // Without filters (basic mode) every shard is a candidate: route to the few the lexicon's impact bounds rank
  // best, so a request loads a handful of shards instead of cycling the artifact cache (docs/PARAMETERS.md).
  const { lexicon, model } = await reader.terms(queryTerms);
  const shardIds = allowed
    ? candidates.length <= plan.maxShards
      ? candidates
      : rankShards(lexicon, candidates, queryTerms, plan.maxShards)
    : rankShards(lexicon, candidates, queryTerms, Math.min(plan.maxShards, UNFILTERED_MAX_SHARDS));
  const queryVector = embedTokens(model, queryTerms);
  const termsKey = queryTerms.join(' ');
  const memoOf = (shardIndex: number, shard: Shard): CosineMemo | undefined => {
    if (!memo) return undefined;
    const key = `${shardIndex}|${termsKey}`;
    let cosines = memo.cosines.get(key);
    if (!cosines) memo.cosines.set(key, (cosines = cosineMemo(shard)));
    return cosines;
  };

  const lexicalHits: { shard: number; local: number; score: number }[] = [];
  const vectorHits: { shard: number; local: number; score: number }[] = [];
  const vectorStrategy: ShardVectorStrategy[] = [];
  const shards = await Promise.all(shardIds.map((i) => reader.shard(i)));
  // Shards one after the other: a graph is loaded only when its shard's turn comes and is searched right away, so at
  // most one graph download is in memory at a time. If another request evicted (freed) it in between, the handle
  // answers null and the shard is scanned (reason 'graph_unavailable').
  for (const [k, shard] of shards.entries()) {
    const shardIndex = shardIds[k]!;
    const isAllowed = allowed ? (local: number) => allowed![shard.source[local]!] === 1 : () => true;
    const boost = (local: number) => rowBoost(shard, local, querySet, queryMetrics, memo?.labels);
    for (const h of searchLexical(shard, lexicon, queryTerms, isAllowed, plan.depth, boost)) lexicalHits.push({ shard: shardIndex, ...h });

    const statements = shard.texts.length;
    const allowedCount = allowed ? countAllowed(shard, isAllowed) : statements;
    const hasGraph = !!catalog.shards[shardIndex]?.graph_file && reader.graph !== undefined;
    let choice = chooseVectorStrategy({ hasGraph, statements, allowed: allowedCount });
    let found: ScoredStatement[] | null = null;
    if (choice.strategy === 'hnsw') {
      const graph = await reader.graph!(shardIndex);
      // Without a filter the graph gets no callback at all (each one is a call out of the wasm).
      found = graph && searchVectorGraph(shard, graph, queryVector, allowed ? isAllowed : undefined, plan.depth, plan.efSearch);
      if (!found) choice = { strategy: 'exact_scan', reason: 'graph_unavailable' };
    }
    found ??= searchVectorExact(shard, queryVector, isAllowed, plan.depth, memoOf(shardIndex, shard));
    for (const h of found) vectorHits.push({ shard: shardIndex, ...h });
    vectorStrategy.push({ shard: shard.id, ...choice, statements, allowed: allowedCount });
  }

  const byKey = new Map<string, Hit>();
  const fuse = (list: typeof lexicalHits, leg: 'lexical' | 'cosine') => {
    list.sort((a, b) => b.score - a.score || a.shard - b.shard || a.local - b.local);
    list.slice(0, plan.depth).forEach((h, rank) => {
      const key = `${h.shard}:${h.local}`;
      let hit = byKey.get(key);
      if (!hit) {
        const shard = shards[shardIds.indexOf(h.shard)]!;
        hit = {
          shard: h.shard,
          local: h.local,
          text: shard.texts[h.local]!,
          source: shard.source[h.local]!,
          page: shard.page[h.local]!,
          kind: shard.kind[h.local]!,
          status: shard.status[h.local]!,
          fused: 0,
          lexical: 0,
          cosine: 0,
          namedRow: shard.kind[h.local] === 'table_row' && rowBoost(shard, h.local, querySet, queryMetrics, memo?.labels) >= RANKING.metricRowBoost,
        };
        byKey.set(key, hit);
      }
      hit.fused += fusedContribution(leg, rank);
      hit[leg] = h.score;
    });
  };
  fuse(lexicalHits, 'lexical');
  fuse(vectorHits, 'cosine');
  // A lexical-only hit gets its exact cosine too: chain relevance weighs the best cosine, and a table row the vector
  // leg missed (short rows embed poorly) would otherwise count as unrelated to the question.
  for (const hit of byKey.values()) {
    if (hit.cosine) continue;
    const shard = shards[shardIds.indexOf(hit.shard)]!;
    hit.cosine = Math.max(0, cosineOf(shard, queryVector, hit.local, memoOf(hit.shard, shard)));
  }
  const hits = [...byKey.values()].sort((a, b) => b.fused - a.fused || a.shard - b.shard || a.local - b.local);
  return {
    hits,
    queryTerms,
    lexicon,
    trace: {
      candidateShards: candidates.length,
      searchedShards: shardIds.map((i) => catalog.shards[i]!.id),
      allowedSources: allowed ? allowed.reduce((a, b) => a + b, 0) : null,
      vectorStrategy,
    },
  };
}
