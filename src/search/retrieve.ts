import type { IndexReader } from '../../index-format/index-reader';
import type { CatalogHeader, Lexicon } from '../../index-format/types';
import { heldSources } from '../../index-format/views';
import { statementFinancialCode, statementKind, statementStatus } from '../../index-format/shard-layout';
import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import {
  SHARD_FLAG_RECONCILING_ONLY,
  type EpistemicStatus,
  type Shard,
  type StatementKind,
} from '../../index-format/types';
import { embedTokens } from '../../index-format/embed';
import { issuerNames, withoutIssuerNames, withParts, type LexicalQuery } from '../question/terms';
import type { Compound } from '../../index-format/tokenize';
import { membershipTerms } from './term-membership';
import { searchLexical, type ScoredStatement } from './lexical';
import type { EffortLimits } from './effort';
import { fusedScore, normaliseLeg, RANKING } from './ranking';
import { candidateShards, rankShards } from './select-shards';
import { codeScorer, searchVectorCodes } from './vector';
import { chooseVectorStrategy, countAllowed, searchVectorGraph, type ShardVectorStrategy } from './vector-strategy';

export interface Hit {
  shard: number;
  local: number;
  /** Empty: chains are ranked from the shards' heads and read the texts of what they show. Tests may set it. */
  text: string;
  source: number;
  page: number;
  kind: StatementKind;
  status: EpistemicStatus;
  /** Fused retrieval score, 0-1: both legs normalised and weighted (src/search/ranking.ts fusedScore). */
  fused: number;
  lexical: number;
  /**
   * The statement's cosine with the query as its binary code approximates it (0 if negative), whichever leg found
   * it: what chain relevance weighs (src/search/vector.ts codeScorer).
   */
  cosine: number;
  /**
   * A table row the query names: by its metric (primary metric tag; the purchases-of-PP&E row for "capex") or by
   * its whole label ("total current assets"). Chains anchored on one rank higher (evidence/chains.ts).
   */
  namedRow?: boolean;
  /** The primary financial statement a table row is printed on (code; 0 none: index-format/financial-statements.ts). */
  statement: number;
}

/** The query plan as a plain value: tests assert it, the agentic retrieval plan reports it. */
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
  /** The query's hyphenated words searched, their parts among `queryTerms` (LexicalQuery.compounds). */
  compounds: Compound[];
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
export function rowBoost(
  shard: Shard,
  local: number,
  queryTerms: readonly string[],
  queryMetrics: ReadonlySet<number>,
): number {
  const metric = queryMetrics.has(shard.metric[local]!);
  if (statementKind(shard, local) !== 'table_row') return metric ? RANKING.metricBoost : 1;
  // A row tagged through its reconciling group only is not the metric's row (index-format/row-label.ts).
  if (metric) return shard.flags[local]! & SHARD_FLAG_RECONCILING_ONLY ? 1 : RANKING.metricRowBoost;
  return shard.labels.everyWordIn(local, queryTerms) ? RANKING.metricRowBoost : 1;
}

/** Names, aliases and tickers of the companies a positive sec_ticker condition restricts the search to. */
function filteredIssuerNames(catalog: CatalogHeader, conditions: readonly Condition[]): string[] {
  const tickers = new Set(
    conditions.filter((c) => c.field === 'sec_ticker' && (c.op === 'eq' || c.op === 'in')).flatMap((c) => c.values),
  );
  return issuerNames(catalog.companies.filter((c) => tickers.has(c.ticker)));
}

/** What one retrieval collects: the statements its conditions (and sources, and financial statements) allow. */
export interface SearchBounds {
  conditions: readonly Condition[];
  /** Catalog sources it may search (one filing, for a period facet); absent = what its conditions allow. */
  sources?: ReadonlySet<number>;
  /** Table rows printed on these primary financial statements only (codes); absent = any statement. */
  statements?: ReadonlySet<number>;
}

/** Search bounds resolved against the catalog: its query terms (named issuers left out), allowed sources and shards. */
interface ResolvedBounds {
  bounds: SearchBounds;
  queryTerms: string[];
  compounds: Compound[];
  /** The query's period credit (searchLexical credits only the terms it searches with); null without one. */
  credit: { terms: string[]; sources: ReadonlySet<number> } | null;
  allowed: Uint8Array | null;
  allowedSourceCount: number;
  candidates: number[];
}

function resolveBounds(catalog: CatalogHeader, query: LexicalQuery, bounds: SearchBounds): ResolvedBounds {
  const { conditions, sources } = bounds;
  const queryTerms = withoutIssuerNames(query.terms, filteredIssuerNames(catalog, conditions));
  let allowed: Uint8Array | null = null;
  let allowedSourceCount = 0;
  if (conditions.length || sources) {
    allowed = new Uint8Array(catalog.sources.length);
    for (const i of heldSources(catalog.sources)) {
      if ((sources && !sources.has(i)) || !matchesConditions(catalog.sources[i]!.meta, conditions)) continue;
      allowed[i] = 1;
      allowedSourceCount++;
    }
  }
  const { periodCredit } = query;
  const credit = periodCredit ? { terms: periodCredit.terms, sources: new Set(periodCredit.sources) } : null;
  const compounds = withParts(query.compounds ?? [], queryTerms);
  const candidates = candidateShards(catalog, allowed);
  return { bounds, queryTerms, compounds, credit, allowed, allowedSourceCount, candidates };
}

/**
 * The shards bounds search: every candidate when few, else the best by the lexicon's impact bounds. Without
 * filters (basic mode) every shard is a candidate: route to the few the bounds rank best, so a request loads a
 * handful of shards instead of cycling the artifact cache (docs/PARAMETERS.md).
 */
function searchedShards(r: ResolvedBounds, lexicon: Lexicon, limits: EffortLimits): number[] {
  const terms = lexiconTerms(r);
  if (!r.allowed)
    return rankShards(lexicon, r.candidates, terms, Math.min(limits.maxShards, RANKING.unfilteredMaxShards));
  return r.candidates.length <= limits.maxShards
    ? r.candidates
    : rankShards(lexicon, r.candidates, terms, limits.maxShards);
}

/** The terms whose corpus statistics a retrieval reads: its query terms and its compounds' joined spellings. */
function lexiconTerms(r: ResolvedBounds): string[] {
  return r.compounds.length ? [...r.queryTerms, ...r.compounds.map((c) => c.joined)] : r.queryTerms;
}

interface LegHit {
  shard: number;
  local: number;
  score: number;
}

/** One shard's lexical and vector candidates within some bounds; the vector leg by graph or exact scan, as chosen. */
async function scanShard(
  reader: IndexReader,
  catalog: CatalogHeader,
  r: ResolvedBounds,
  loaded: LoadedShard,
  limits: EffortLimits,
  lexicon: Lexicon,
  queryMetrics: ReadonlySet<number>,
  out: { lexical: LegHit[]; vector: LegHit[]; strategies: ShardVectorStrategy[] },
): Promise<void> {
  const { index: shardIndex, shard, scorer, queryVector } = loaded;
  const { allowed, queryTerms } = r;
  const onlyStatements = r.bounds.statements;
  const sourceAllowed = allowed ? (local: number) => allowed[shard.source[local]!] === 1 : () => true;
  const isAllowed = onlyStatements
    ? (local: number) => onlyStatements.has(statementFinancialCode(shard, local)) && sourceAllowed(local)
    : sourceAllowed;
  const boost = (local: number) => rowBoost(shard, local, queryTerms, queryMetrics);
  const credit = r.credit && {
    terms: r.credit.terms,
    holds: (local: number) => r.credit!.sources.has(shard.source[local]!),
  };
  for (const h of searchLexical(shard, lexicon, queryTerms, isAllowed, limits.depth, boost, credit, r.compounds))
    out.lexical.push({ shard: shardIndex, ...h });

  const statements = shard.count;
  const filtered = !!(allowed || onlyStatements);
  const allowedCount = filtered ? countAllowed(shard, isAllowed) : statements;
  const hasGraph = !!catalog.shards[shardIndex]?.graph_file && reader.graph !== undefined;
  let choice = chooseVectorStrategy({ hasGraph, statements, allowed: allowedCount });
  let found: ScoredStatement[] | null = null;
  if (choice.strategy === 'hnsw') {
    const graph = await reader.graph!(shardIndex);
    // Without a filter the graph gets no callback at all (each one is a call out of the wasm).
    found =
      graph &&
      searchVectorGraph(shard, graph, queryVector, filtered ? isAllowed : undefined, limits.depth, limits.efSearch);
    if (!found) choice = { strategy: 'exact_scan', reason: 'graph_unavailable' };
  }
  found ??= searchVectorCodes(shard, queryVector, isAllowed, limits.depth, scorer);
  for (const h of found) out.vector.push({ shard: shardIndex, ...h });
  out.strategies.push({ shard: shard.id, ...choice, statements, allowed: allowedCount });
}

/**
 * Fuses both legs' best `depth` candidates: every candidate gets its cosine from its shard's codes (the vector leg's
 * exact scores and the lexical leg's hits alike) and its lexical score (0 when the lexical leg did not find it); each
 * leg is normalised against its candidates (normaliseLeg) and the two are weighted into one 0-1 score.
 */
function fuse(
  lexicalHits: LegHit[],
  vectorHits: LegHit[],
  byShard: ReadonlyMap<number, LoadedShard>,
  queryTerms: readonly string[],
  queryMetrics: ReadonlySet<number>,
  depth: number,
): Hit[] {
  const byKey = new Map<string, Hit>();
  // Every candidate's cosine is read from its code below; the vector leg only contributes candidates here.
  const add = (list: LegHit[], leg: 'lexical' | 'vector') => {
    list.sort((a, b) => b.score - a.score || a.shard - b.shard || a.local - b.local);
    for (const h of list.slice(0, depth)) {
      const key = `${h.shard}:${h.local}`;
      let hit = byKey.get(key);
      if (!hit) {
        const { shard } = byShard.get(h.shard)!;
        const kind = statementKind(shard, h.local);
        hit = {
          shard: h.shard,
          local: h.local,
          text: '',
          source: shard.source[h.local]!,
          page: shard.page[h.local]!,
          kind,
          status: statementStatus(shard, h.local),
          fused: 0,
          lexical: 0,
          cosine: 0,
          namedRow:
            kind === 'table_row' && rowBoost(shard, h.local, queryTerms, queryMetrics) >= RANKING.metricRowBoost,
          statement: statementFinancialCode(shard, h.local),
        };
        byKey.set(key, hit);
      }
      if (leg === 'lexical') hit.lexical = h.score;
    }
  };
  add(lexicalHits, 'lexical');
  add(vectorHits, 'vector');
  const hits = [...byKey.values()];
  let bestLexical = 0;
  let bestCosine = 0;
  for (const h of hits) {
    h.cosine = Math.max(0, byShard.get(h.shard)!.scorer.score(h.local));
    bestLexical = Math.max(bestLexical, h.lexical);
    bestCosine = Math.max(bestCosine, h.cosine);
  }
  for (const h of hits) h.fused = fusedScore(normaliseLeg(h.lexical, bestLexical), normaliseLeg(h.cosine, bestCosine));
  return hits.sort((a, b) => b.fused - a.fused || a.shard - b.shard || a.local - b.local);
}

/** A shard as a retrieval scans it: its head and the query terms' postings, the query vector and its code scorer. */
interface LoadedShard {
  index: number;
  shard: Shard;
  queryVector: Float32Array;
  scorer: ReturnType<typeof codeScorer>;
}

/**
 * One retrieval of a text within one or more bounds (a pass's and its preference sub-pass's): filters -> allowed
 * sources
 * -> shards (all candidates when few, else the best by the lexicon's impact bounds) -> lexical BM25 and vector legs
 * per shard -> fusion of the normalised legs, one result per bounds. A shard two bounds search is read once and scored
 * with one code scorer; each bounds keeps its own candidates.
 */
export async function retrieveWithin(
  reader: IndexReader,
  catalog: CatalogHeader,
  query: LexicalQuery,
  bounds: readonly SearchBounds[],
  limits: EffortLimits,
): Promise<RetrievalResult[]> {
  const resolved = bounds.map((b) => resolveBounds(catalog, query, b));
  const queryMetrics = new Set(query.metrics);
  // Bounds that name the same issuers search the same terms: their term table and query vector are made once.
  const byTerms = new Map<string, Promise<{ lexicon: Lexicon; queryVector: Float32Array }>>();
  // The query vector is the query terms' (a compound's joined spelling is no word of its own).
  const termsOf = (r: ResolvedBounds) => {
    const terms = lexiconTerms(r);
    const key = `${r.queryTerms.join(' ')}|${terms.join(' ')}`;
    let p = byTerms.get(key);
    if (!p)
      byTerms.set(
        key,
        (p = reader
          .terms(terms)
          .then(({ lexicon, model }) => ({ lexicon, queryVector: embedTokens(model, r.queryTerms) }))),
      );
    return p;
  };
  const tables = await Promise.all(resolved.map((r) => termsOf(r)));
  const shardIds = resolved.map((r, k) => searchedShards(r, tables[k]!.lexicon, limits));
  // Every shard's postings of the query terms (and of the other spellings chain relevance reads: the bare years of
  // `fy<year>` terms, the compounds' joined spellings; src/search/term-membership.ts); its binary codes came with its
  // head; records are read for the chains kept.
  const loads = new Map<string, Promise<LoadedShard>>();
  const load = (i: number, k: number) => {
    const { queryTerms, compounds } = resolved[k]!;
    const terms = membershipTerms(queryTerms, compounds);
    const key = `${i}|${terms.join(' ')}`;
    let p = loads.get(key);
    if (!p) {
      const { queryVector } = tables[k]!;
      p = reader
        .shardParts(i, { terms })
        .then((shard) => ({ index: i, shard, queryVector, scorer: codeScorer(shard, queryVector) }));
      loads.set(key, p);
    }
    return p;
  };
  const loaded = await Promise.all(resolved.map((_, k) => Promise.all(shardIds[k]!.map((i) => load(i, k)))));
  const results: RetrievalResult[] = [];
  for (const [k, r] of resolved.entries()) {
    const legs = { lexical: [] as LegHit[], vector: [] as LegHit[], strategies: [] as ShardVectorStrategy[] };
    // Shards one after the other: a graph is loaded only when its shard's turn comes and is searched right away, so
    // at most one graph download is in memory at a time. If another request evicted (freed) it in between, the
    // handle answers null and the shard is scanned (reason 'graph_unavailable').
    for (const shard of loaded[k]!)
      await scanShard(reader, catalog, r, shard, limits, tables[k]!.lexicon, queryMetrics, legs);
    const byShard = new Map(loaded[k]!.map((s) => [s.index, s]));
    results.push({
      hits: fuse(legs.lexical, legs.vector, byShard, r.queryTerms, queryMetrics, limits.depth),
      queryTerms: r.queryTerms,
      compounds: r.compounds,
      lexicon: tables[k]!.lexicon,
      trace: {
        candidateShards: r.candidates.length,
        searchedShards: shardIds[k]!.map((i) => catalog.shards[i]!.id),
        allowedSources: r.allowed ? r.allowedSourceCount : null,
        vectorStrategy: legs.strategies,
      },
    });
  }
  return results;
}

/** One retrieval within one bounds (retrieveWithin with a single one). */
export async function retrieve(
  reader: IndexReader,
  catalog: CatalogHeader,
  query: LexicalQuery,
  conditions: readonly Condition[],
  limits: EffortLimits,
  onlySources?: ReadonlySet<number>,
  onlyStatements?: ReadonlySet<number>,
): Promise<RetrievalResult> {
  const bounds: SearchBounds = {
    conditions,
    ...(onlySources ? { sources: onlySources } : {}),
    ...(onlyStatements ? { statements: onlyStatements } : {}),
  };
  return (await retrieveWithin(reader, catalog, query, [bounds], limits))[0]!;
}

/** The hits' shards as retrieval left them (heads, postings of the query terms, codes): what chains are ranked from. */
export async function shardsOfHits(reader: IndexReader, hits: readonly Hit[]): Promise<Map<number, Shard>> {
  const indexes = [...new Set(hits.map((h) => h.shard))];
  return new Map(await Promise.all(indexes.map(async (i) => [i, await reader.shard(i)] as const)));
}

/** Those shards with the records of these statements read (per shard number, local ids): what chains show. */
export async function readRecords(
  reader: IndexReader,
  statements: ReadonlyMap<number, readonly number[]>,
): Promise<Map<number, Shard>> {
  return new Map(
    await Promise.all(
      [...statements].map(async ([i, locals]) => [i, await reader.shardParts(i, { records: locals })] as const),
    ),
  );
}
