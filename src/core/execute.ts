import {
  chainTerms,
  draftChains,
  pendingChains,
  withoutRepeatedStatements,
  type EntryTerms,
  type PendingChain,
} from '../evidence/chains';
import { matchesConditions } from '../filters/match';
import type { Condition } from '../filters/parse';
import type { CatalogHeader } from '../../index-format/types';
import { mergeBranches, mergePreferred } from './merge';
import type { PlannedPass, PreferredSubPass, QueryPlan } from '../plan/query-plan';
import { bm25Idf } from '../../index-format/bm25';
import { RANKING, withPreference } from '../search/ranking';
import {
  retrieveWithin,
  shardsOfHits,
  type Hit,
  type SearchBounds,
  type RetrievalResult,
  type RetrievalTrace,
} from '../search/retrieve';
import { membershipQuery, statementQueryTerms } from '../search/term-membership';
import { indexTerms } from '../../index-format/tokenize';
import type { IndexReader } from '../../index-format/index-reader';

/** A pass as executed: the plan's value plus what it searched (searchedShards is empty for a skipped fill). */
export type PassTrace = Omit<PlannedPass, 'preferred'> & {
  searchedShards: string[];
  allowedSources: number | null;
  hits: number;
  /** The pass's retrieval (null for a skipped fill). */
  retrieval: RetrievalTrace | null;
  /** The preference sub-pass's own retrieval, and the preferred chains it contributed, when the pass had one. */
  preference: RetrievalTrace | null;
  preferredChains: number | null;
  /** Chains of this pass's own that the merge kept among the chains so far. */
  kept: number;
  skipped?: true;
};

/** What executing a plan produced: the ranked pending chains (records unread) and the trace of every pass. */
export interface ExecutedPlan {
  chains: PendingChain[];
  /** The passes whose retrieval found each chain (agentic coverage credits them). */
  retrievedBy: Map<PendingChain, Set<string>>;
  /** Hits over every pass: 0 means nothing in the index matched the query and filters. */
  hitCount: number;
  passes: PassTrace[];
  /** `retrieveWithin` calls the request made (passes that search the same text share one). */
  retrieveCalls: number;
  /** Every shard any pass searched, in first-searched order. */
  searchedShards: string[];
}

interface PassResult {
  chains: PendingChain[];
  hitCount: number;
  trace: RetrievalTrace;
  preferred: { chains: number; trace: RetrievalTrace } | null;
}

/** Search bounds as the plan writes them (plain arrays). */
interface PlannedBounds {
  conditions: Condition[];
  sources?: number[];
  statements?: number[];
}

const toBounds = ({ conditions, sources, statements }: PlannedBounds): SearchBounds => ({
  conditions,
  ...(sources ? { sources: new Set(sources) } : {}),
  ...(statements ? { statements: new Set(statements) } : {}),
});

/** A pass's bounds: its own, and its preference sub-pass's when it has one. */
const boundsOf = (pass: PlannedPass): PlannedBounds[] => [pass, ...(pass.preferred ? [pass.preferred] : [])];

/**
 * The request's retrievals. The passes that always run and search the same text (the latest annual reports, the
 * question, the later years: one question, several bounds) share one retrieval, so a shard two of them search is
 * read and scored once; a `fill` pass, which runs only when needed, retrieves on its own when it does.
 */
class Retrievals {
  calls = 0;
  private readonly byPass = new Map<PlannedPass, Promise<RetrievalResult[]>>();
  constructor(
    private readonly reader: IndexReader,
    private readonly catalog: CatalogHeader,
    private readonly plan: QueryPlan,
  ) {
    const groups = new Map<string, PlannedPass[]>();
    for (const pass of plan.passes) {
      if (pass.merge === 'fill') continue;
      const key = JSON.stringify(pass.lexical);
      groups.set(key, [...(groups.get(key) ?? []), pass]);
    }
    for (const group of groups.values()) {
      let all: Promise<RetrievalResult[]> | null = null;
      let offset = 0;
      for (const pass of group) {
        const from = offset;
        const count = boundsOf(pass).length;
        offset += count;
        // One retrieval for the group, made on the first pass's turn; each pass takes its own bounds' results.
        this.byPass.set(
          pass,
          Promise.resolve().then(async () => {
            all ??= this.retrieve(pass.lexical, group.flatMap(boundsOf));
            return (await all).slice(from, from + count);
          }),
        );
      }
    }
  }

  private retrieve(lexical: PlannedPass['lexical'], bounds: PlannedBounds[]): Promise<RetrievalResult[]> {
    this.calls++;
    return retrieveWithin(this.reader, this.catalog, lexical, bounds.map(toBounds), this.plan.effort);
  }

  get(pass: PlannedPass): Promise<RetrievalResult[]> {
    return this.byPass.get(pass) ?? this.retrieve(pass.lexical, boundsOf(pass));
  }
}

/** Query-term weights for relevance scores: IDF from corpus-wide document frequencies. */
function termWeights({ lexicon, queryTerms }: RetrievalResult): Map<string, number> {
  const weights = new Map<string, number>();
  for (const t of new Set(queryTerms)) {
    const id = lexicon.termIndex.get(t);
    weights.set(t, bm25Idf(lexicon.totalStatements, id === undefined ? 0 : lexicon.df[id]!));
  }
  return weights;
}

/** Does a hit belong to the preferred side (its item, filing and financial statement, each when set)? */
function isPreferred(
  catalog: CatalogHeader,
  preferred: PreferredSubPass,
  statements: ReadonlySet<number> | undefined,
  hit: Hit,
): boolean {
  const s = catalog.sources[hit.source]!;
  if (preferred.itemTags && !preferred.itemTags.includes(s.meta.sec_item_tag ?? '')) return false;
  if (preferred.filings && !preferred.filings.includes(s.doc_id)) return false;
  return !statements || statements.has(hit.statement);
}

/**
 * One pass: retrieval -> chains drafted over the hits' shards (their heads carry the evidence graph, claim and
 * row-label hashes, their posting lists the query terms); with a preference, its sub-pass's chains merged first.
 */
async function runPass(
  reader: IndexReader,
  catalog: CatalogHeader,
  plan: QueryPlan,
  retrievals: Retrievals,
  pass: PlannedPass,
): Promise<PassResult> {
  const { preferred } = pass;
  const [retrieval, sub] = (await retrievals.get(pass)) as [RetrievalResult, RetrievalResult?];
  const weights = termWeights(retrieval);
  const allowed = (shard: { source: ArrayLike<number> }, local: number) =>
    matchesConditions(catalog.sources[shard.source[local]!]!.meta, pass.conditions);
  const chainsOf = async (hits: readonly Hit[]) => {
    const shards = await shardsOfHits(reader, hits);
    // Which query terms each entry covers, from the shards' posting lists of those terms (every chain statement is
    // in a loaded shard; a hit without one falls back to its text).
    const query = membershipQuery([...weights.keys()], retrieval.compounds);
    const terms: EntryTerms = (shard, local, hit) =>
      shard ? statementQueryTerms(shard, local, query) : chainTerms(hit!.text, 0, indexTerms, retrieval.compounds);
    return pendingChains(draftChains(hits, plan.effort, weights, terms, shards, allowed), shards);
  };
  const general = chainsOf(retrieval.hits);
  const result = { hitCount: retrieval.hits.length, trace: retrieval.trace };
  if (!preferred || !sub) return { ...result, chains: await general, preferred: null };
  const statements = preferred.statements && new Set(preferred.statements);
  const [generalChains, preferredAll] = await Promise.all([
    general,
    chainsOf(sub.hits.filter((h) => isPreferred(catalog, preferred, statements, h))),
  ]);
  const kept = preferred.maxChains === null ? preferredAll : preferredAll.slice(0, preferred.maxChains);
  // The preferred chains carry their bonus into the merges of later passes (the later 10-Ks of soft periods).
  const earning = kept.map((c) => ({ ...c, earned: preferred.bonus }));
  return {
    ...result,
    chains: mergePreferred(earning, generalChains, plan.effort.maxChains, 0),
    preferred: { chains: kept.length, trace: sub.trace },
  };
}

/**
 * Runs a plan's passes and merges their chains as each pass's `merge` rule says. Every pass that is not a `fill`
 * starts at once (a pass's retrieval and chains do not depend on the passes before it; only merging does), so a
 * request waits for its longest chain of dependent reads, not the sum over passes; a `fill` runs only when the
 * chains so far are fewer than the plan keeps. Then a statement two merged passes both found is kept once, in the
 * better-ranked chain.
 */
export async function executePlan(reader: IndexReader, catalog: CatalogHeader, plan: QueryPlan): Promise<ExecutedPlan> {
  const retrievals = new Retrievals(reader, catalog, plan);
  const max = plan.effort.maxChains;
  const started = plan.passes.map((pass) =>
    pass.merge === 'fill' ? null : runPass(reader, catalog, plan, retrievals, pass),
  );
  for (const p of started) p?.catch(() => undefined); // each is awaited in order below
  const run = (k: number) => started[k] ?? runPass(reader, catalog, plan, retrievals, plan.passes[k]!);
  const traces: PassTrace[] = [];
  const record = (pass: PlannedPass, r: PassResult | null, chains: readonly PendingChain[]) => {
    const { preferred: _, ...value } = pass;
    if (!r)
      traces.push({
        ...value,
        searchedShards: [],
        allowedSources: null,
        hits: 0,
        retrieval: null,
        preference: null,
        preferredChains: null,
        kept: 0,
        skipped: true,
      });
    else {
      const { trace, preferred } = r;
      const kept = chains.filter((c) => r.chains.includes(c)).length;
      traces.push({
        ...value,
        searchedShards: trace.searchedShards,
        allowedSources: trace.allowedSources,
        hits: r.hitCount,
        retrieval: trace,
        preference: preferred?.trace ?? null,
        preferredChains: preferred?.chains ?? null,
        kept,
      });
    }
  };
  let chains: PendingChain[] = [];
  let retrievedBy = new Map<PendingChain, Set<string>>();
  const sideBonus = new Map<PendingChain, number>();
  for (let i = 0; i < plan.passes.length; ) {
    const pass = plan.passes[i]!;
    if (pass.merge === 'round_robin') {
      // Consecutive round-robin passes merge one chain each in turn, after the chains so far.
      let end = i;
      while (end < plan.passes.length && plan.passes[end]!.merge === 'round_robin') end++;
      const group = plan.passes.slice(i, end);
      const results = await Promise.all(group.map((_, k) => run(i + k)));
      const ids = group.map((p) => p.id);
      const merged =
        i > 0
          ? mergeBranches([chains, ...results.map((r) => r.chains)], [plan.passes[0]!.id, ...ids], max)
          : mergeBranches(
              results.map((r) => r.chains),
              ids,
              max,
            );
      chains = merged.chains;
      if (i === 0) retrievedBy = merged.retrievedBy;
      group.forEach((p, k) => {
        record(p, results[k]!, chains);
      });
      i = end;
      continue;
    }
    if (pass.merge === 'fill' && chains.length >= max) record(pass, null, chains);
    else {
      const r = await run(i);
      // 'below' and 'fill': the chains so far rank as if RANKING.preferenceBonus higher (the named filings, the year).
      const before = new Set(chains);
      chains = pass.merge === 'first' ? r.chains : mergePreferred(chains, r.chains, max);
      for (const c of chains) sideBonus.set(c, pass.merge !== 'first' && before.has(c) ? RANKING.preferenceBonus : 0);
      record(pass, r, chains);
    }
    i++;
  }
  const distinct = withoutRepeatedStatements(chains);
  // A trimmed chain keeps the branches that retrieved the chain it came from.
  const kept = new Map<PendingChain, Set<string>>();
  // Each chain's rank takes the preference points it ranked with in the merge that placed it: what it earned from
  // its pass's preference plus the bonus of its side of a `below` or `fill` merge, so its explain sums to the score
  // the response is ordered by (round-robin merges order by turn).
  const ranked = distinct.chains.map((c) => {
    const from = distinct.from.get(c)!;
    const points = (from.earned ?? 0) + (sideBonus.get(from) ?? 0);
    const chain = points ? { ...c, draft: { ...c.draft, explain: withPreference(c.draft.explain, points) } } : c;
    const by = retrievedBy.get(from);
    if (by) kept.set(chain, by);
    return chain;
  });
  const executed = traces.filter((t) => !t.skipped);
  return {
    chains: ranked,
    retrievedBy: kept,
    hitCount: executed.reduce((n, t) => n + t.hits, 0),
    passes: traces,
    retrieveCalls: retrievals.calls,
    searchedShards: [
      ...new Set(executed.flatMap((t) => [...t.searchedShards, ...(t.preference?.searchedShards ?? [])])),
    ],
  };
}
