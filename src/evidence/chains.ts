import type { EdgeKind, Shard } from '../format/types';
import type { EffortPlan } from '../search/plan';
import { metricByCode } from '../text/metrics';
import type { Hit } from '../search/retrieve';
import { chainRelevance, chainScore } from '../search/ranking';
import type { Chain, Confidence, Entry, EntrySource } from './model';

/** Text key under which restatements of one claim merge: case, spacing and punctuation do not matter. */
export function claimKey(text: string): string {
  let key = recentClaimKeys.get(text);
  if (key === undefined) {
    if (recentClaimKeys.size >= RECENT_CLAIM_KEYS) recentClaimKeys.clear();
    recentClaimKeys.set(text, (key = text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()));
  }
  return key;
}

/**
 * Claim keys of recently seen statement texts. Every pass of a request, and the merges after them, asks for the
 * keys of the same few hundred texts, and the Unicode regex is a tenth of a warm query's time. A pure function's
 * memo, bounded (cleared when full, at most a few MB of statement text); it holds filing text, never request data.
 */
const recentClaimKeys = new Map<string, string>();
const RECENT_CLAIM_KEYS = 4096;

/**
 * Confidence (docs/DECISIONS.md "Confidence"): High when two or more filings state the claim and none disagrees;
 * Medium for a single-source fact, or an agreed claim that another filing contradicts (a restatement); Low for a
 * single source that is forward-looking, a belief or a conditional risk, or a single source contradicted elsewhere.
 */
export function confidenceOf(sources: readonly EntrySource[], disagreements: readonly EntrySource[] = []): Confidence {
  const distinct = new Set(sources.map((s) => s.source)).size;
  if (disagreements.length) return distinct >= 2 ? 'Medium' : 'Low';
  if (distinct >= 2) return 'High';
  return sources.every((s) => s.status === 'FACT') ? 'Medium' : 'Low';
}

/**
 * The terms a chain entry answers to: its text's terms, the name of its metric (as the builder indexes it:
 * "capital expenditure" for a purchases-of-PP&E row) and `fy<year>` for each year it names (queries say "FY2018").
 */
export function chainTerms(text: string, metric: number, tokenize: (text: string) => string[]): string[] {
  const terms = tokenize(text);
  const m = metric ? metricByCode(metric) : null;
  if (m) terms.push(...tokenize(m.name));
  for (const y of text.match(/\b(?:19|20)\d\d\b/g) ?? []) terms.push(`fy${y}`);
  return terms;
}

/**
 * The terms chain relevance counts for a statement (of `shard` when loaded, else a hit's text alone): chainTerms of
 * its text, or only those of them that are query terms (the relevance reads nothing else).
 */
export type EntryTerms = (shard: Shard | undefined, local: number, text: string) => readonly string[];

/** EntryTerms from the text alone (chainTerms), for callers without loaded shards. */
export function textEntryTerms(tokenize: (text: string) => string[]): EntryTerms {
  return (shard, local, text) => chainTerms(text, shard ? shard.metric[local] ?? 0 : 0, tokenize);
}

/** How many pages away from its anchor a graph-less chain may take its other statements. */
const MATE_PAGE_SPAN = 1;

/**
 * Entries of a chain anchored on a named row: the row and the sentence that explains it. The outlook would follow,
 * but at a 4,000-token cap it costs the room of another row the question needs (ratios need two or three).
 */
const NAMED_ROW_ENTRIES = 2;

/** A statement of a loaded shard. */
interface Node {
  shard: number;
  local: number;
}

/** Anchors tried per chain wanted: later hits rarely make a better chain than the first ones. */
const ANCHORS_PER_CHAIN = 4;
/** Which statements of a shard a chain may show: those whose source satisfies the request's filters. */
export type AllowedStatement = (shard: Shard, local: number) => boolean;
const ANY: AllowedStatement = () => true;

function edgeTargets(shard: Shard, local: number, kind: EdgeKind, allowed: AllowedStatement): number[] {
  return (shard.edges[local] ?? []).filter((e) => e.kind === kind && allowed(shard, e.target)).map((e) => e.target);
}

/**
 * The path an anchor statement starts, following the builder's evidence graph inside its shard: the table fact, the
 * MD&A sentence that explains it, the outlook on the same metric, then (high effort) the same row in another filing
 * of the year. A sentence hit that explains a table fact puts the fact first. At most `max` statements.
 */
export function graphPath(shard: Shard, anchor: number, max: number, allowed: AllowedStatement = ANY): number[] {
  const path: number[] = [];
  const add = (local: number | undefined) => {
    if (local !== undefined && path.length < max && !path.includes(local)) path.push(local);
  };
  const isRow = shard.kind[anchor] === 'table_row';
  if (isRow) {
    add(anchor);
    add(edgeTargets(shard, anchor, 'explains', allowed)[0]);
  } else {
    const fact = edgeTargets(shard, anchor, 'explains', allowed).find((t) => shard.kind[t] === 'table_row');
    add(fact);
    add(anchor);
  }
  const sentence = path.find((l) => shard.kind[l] === 'sentence');
  add((sentence !== undefined ? edgeTargets(shard, sentence, 'outlook', allowed) : [])[0] ?? edgeTargets(shard, path[0]!, 'outlook', allowed)[0]);
  if (max >= 4) {
    const row = path.find((l) => shard.kind[l] === 'table_row');
    if (row !== undefined) add(edgeTargets(shard, row, 'period', allowed)[0]);
  }
  return path;
}

/**
 * The statements of one shard whose records (text, consensus, vector) buildChains may read: the hits that may anchor
 * a chain, the hits of their filing items near their pages (mates), and each anchor's graph path (computed from the
 * edges alone, as buildChains computes it). Read before building, so chains need no I/O, and nothing else of the
 * shard's records is read.
 */
export function chainStatements(hits: readonly Hit[], plan: EffortPlan, shardIndex: number, shard: Shard, allowed: AllowedStatement = ANY): number[] {
  const anchors = hits.slice(0, plan.maxChains * ANCHORS_PER_CHAIN).filter((h) => h.shard === shardIndex);
  const reach = new Set<number>();
  for (const a of anchors) for (const local of graphPath(shard, a.local, pathLength(a, plan), allowed)) reach.add(local);
  for (const h of hits) {
    if (h.shard === shardIndex && anchors.some((a) => a.source === h.source && Math.abs(a.page - h.page) <= MATE_PAGE_SPAN)) reach.add(h.local);
  }
  return [...reach];
}

/** Statements a chain from this anchor may hold (a named row's chain stays short). */
const pathLength = (anchor: Hit, plan: EffortPlan) => (anchor.namedRow ? Math.min(plan.entriesPerChain, NAMED_ROW_ENTRIES) : plan.entriesPerChain);

/** Which sources an entry may cite besides its own: those satisfying the caller's filters (a hard constraint). */
export type CitableSource = (source: number) => boolean;
const ANY_SOURCE: CitableSource = () => true;

function toEntry(shard: Shard, local: number, citable: CitableSource): Entry {
  const kind = shard.kind[local]!;
  const own: EntrySource = { source: shard.source[local]!, status: shard.status[local]!, page: shard.page[local]!, kind };
  const sources: EntrySource[] = [own];
  for (const o of shard.agree[local] ?? []) {
    if (!citable(o.source) || sources.some((s) => s.source === o.source)) continue;
    sources.push({ source: o.source, status: o.status, page: o.page, kind, ...(o.note ? { note: o.note } : {}) });
  }
  const disagreements: EntrySource[] = (shard.disagree[local] ?? [])
    .filter((o) => citable(o.source))
    .map((o) => ({ source: o.source, status: o.status, page: o.page, kind, note: o.note }));
  const metric = shard.metric[local] ?? 0;
  return { consensus: shard.texts[local]!, sources, disagreements, confidence: confidenceOf(sources, disagreements), ...(metric ? { metric } : {}) };
}

/**
 * Builds evidence chains from fused hits. Each of the best hits anchors a path through the evidence graph
 * (graphPath); an anchor without graph neighbours is completed with the other hits of its filing item, in
 * document order, as before. Every statement becomes an entry citing all the filings that state the same claim
 * (precomputed by the builder) and keeping the filings that disagree apart. Overlapping chains are deduplicated:
 * a hit already shown in a better chain anchors nothing, and a claim appears in one chain only. Chains with
 * relevance 0 are dropped. Graph neighbours are followed only to statements `allowed` accepts (the request's
 * filters): the hits already satisfy them, and a linked MD&A sentence must not smuggle in another item or year.
 * Agreeing and disagreeing filings are cited only when `citable` accepts them (the caller's own filters; inferred
 * filters still let a later 10-K that restates a figure agree, docs/DECISIONS.md).
 */
export function buildChains(
  hits: readonly Hit[],
  plan: EffortPlan,
  queryTermWeights: ReadonlyMap<string, number>,
  entryTerms: EntryTerms,
  shards: ReadonlyMap<number, Shard> = new Map(),
  allowed: AllowedStatement = ANY,
  citable: CitableSource = ANY_SOURCE,
): Chain[] {
  const hitByNode = new Map<string, Hit>();
  for (const h of hits) hitByNode.set(`${h.shard}:${h.local}`, h);
  const bySource = new Map<number, Hit[]>();
  for (const h of hits) {
    const l = bySource.get(h.source);
    if (l) l.push(h);
    else bySource.set(h.source, [h]);
  }

  const shown = new Set<string>(); // claim keys already in an accepted chain
  // A table row cited as an agreeing source of a shown entry (the same row restated in a later 10-K) is shown too.
  const rowKey = (source: number, page: number, text: string) => `${source}:${page}:${claimKey(text.split(':')[0] ?? '')}`;
  const shownRows = new Set<string>();
  const chains: Chain[] = [];
  // Every hit down to this rank may anchor a chain: the fused rank of a table row is often below prose that
  // repeats the query's words, and the final order is by relevance, not by anchor rank.
  // Anchors with graph neighbours go first, so a table fact is not taken as a plain "mate" of another hit's
  // chain before its own path (fact -> explanation -> outlook) is built.
  const maxAnchors = plan.maxChains * ANCHORS_PER_CHAIN;
  const top = hits.slice(0, maxAnchors);
  const hasPath = (h: Hit) => {
    const sh = shards.get(h.shard);
    return !!sh && (sh.edges[h.local]?.length ?? 0) > 0;
  };
  const ordered = [...top.filter(hasPath), ...top.filter((h) => !hasPath(h))];
  let anchors = 0;
  for (const hit of ordered) {
    if (anchors >= maxAnchors) break;
    if (shown.has(claimKey(hit.text))) continue;
    if (hit.kind === 'table_row' && shownRows.has(rowKey(hit.source, hit.page, hit.text))) continue;
    anchors++;
    const shard = shards.get(hit.shard);
    let nodes: Node[];
    const path = shard ? graphPath(shard, hit.local, pathLength(hit, plan), allowed) : [hit.local];
    if (path.length > 1) nodes = path.map((local) => ({ shard: hit.shard, local }));
    else {
      // No graph neighbours: the anchor and the next best hits of the same filing item, in document order.
      // Only hits on the anchor's page or the next/previous one: a filing item spans dozens of pages, and
      // statements far apart are unrelated text that costs budget without supporting the anchor.
      const mates = (bySource.get(hit.source) ?? [])
        .filter((h) => h !== hit && Math.abs(h.page - hit.page) <= MATE_PAGE_SPAN && !shown.has(claimKey(h.text)))
        .slice(0, plan.entriesPerChain - 1);
      nodes = [hit, ...mates].sort((a, b) => a.local - b.local).map((h) => ({ shard: h.shard, local: h.local }));
    }
    const entries: Entry[] = [];
    const terms = new Set<string>();
    const perEntry: Set<string>[] = [];
    const keys = new Set<string>();
    const mateFused: number[] = [];
    let bestCosine = hit.cosine;
    for (const n of nodes) {
      const s = shards.get(n.shard);
      const h = hitByNode.get(`${n.shard}:${n.local}`);
      const text = s ? s.texts[n.local]! : h!.text;
      const key = claimKey(text);
      if (keys.has(key) || (shown.has(key) && !(n.shard === hit.shard && n.local === hit.local))) continue;
      keys.add(key);
      entries.push(s ? toEntry(s, n.local, citable) : fallbackEntry(h!));
      const covered = entryTerms(s, n.local, text);
      for (const t of covered) terms.add(t);
      perEntry.push(new Set(covered));
      if (h && h !== hit) {
        mateFused.push(h.fused);
        bestCosine = Math.max(bestCosine, h.cosine);
      }
    }
    const relevanceParts = chainRelevance(terms, queryTermWeights, bestCosine, perEntry, !!hit.namedRow);
    const relevance = relevanceParts.score;
    if (relevance === 0 || !entries.length) continue;
    for (const k of keys) shown.add(k);
    for (const e of entries) {
      if (e.sources[0]?.kind !== 'table_row') continue;
      for (const src of e.sources.slice(1)) shownRows.add(rowKey(src.source, src.page, e.consensus));
    }
    const scoreParts = chainScore(hit.fused, mateFused, path.length > 1, !!hit.namedRow);
    chains.push({ score: scoreParts.total, relevance, entries, explain: { relevance: relevanceParts, score: scoreParts } });
  }
  return chains.sort((a, b) => b.relevance - a.relevance || b.score - a.score).slice(0, plan.maxChains);
}

/** An entry from a hit alone, for callers that pass no shards (tests of the ranking without an index). */
function fallbackEntry(h: Hit): Entry {
  const sources: EntrySource[] = [{ source: h.source, status: h.status, page: h.page, kind: h.kind }];
  return { consensus: h.text, sources, disagreements: [], confidence: confidenceOf(sources) };
}
