import {
  edgeCount,
  recordContentBytes,
  statementEdges,
  statementKind,
  statementStatus,
} from '../../index-format/shard-layout';
import type { EdgeKind, Shard } from '../../index-format/types';
import type { EffortLimits } from '../search/effort';
import { metricByCode } from '../../index-format/metrics';
import { tokenize, type Compound } from '../../index-format/tokenize';
import type { Hit } from '../search/retrieve';
import { chainOrder, chainRelevance, RANKING, rankChain, type ChainRank } from '../search/ranking';
import type { Chain, Confidence, Entry, EntrySource } from './model';
import { claimKey } from '../../index-format/claims';

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

const YEAR_TOKEN = /^(?:19|20)\d\d$/;

/**
 * The terms a chain entry answers to: its text's terms (`textTerms`: the index's, indexTerms, or a test's), the
 * words of its metric's name (as the builder indexes it: "capital expenditure" for a purchases-of-PP&E row),
 * `fy<year>` for each year token (queries say "FY2018") and the parts of the question's hyphenated words whose
 * joined spelling it holds ("e" and "commerce" for "eCommerce").
 */
export function chainTerms(
  text: string,
  metric: number,
  textTerms: (text: string) => string[],
  compounds: readonly Compound[] = [],
): string[] {
  const terms = textTerms(text);
  const years = terms.filter((t) => YEAR_TOKEN.test(t)).map((y) => `fy${y}`);
  const m = metric ? metricByCode(metric) : null;
  if (m) terms.push(...tokenize(m.name));
  const held = new Set(terms);
  const parts = compounds.filter((c) => held.has(c.joined)).flatMap((c) => c.parts);
  return [...terms, ...years, ...parts];
}

/**
 * The terms chain relevance counts for a statement (of `shard` when loaded, else `hit` alone): chainTerms of its
 * text, or only those of them that are query terms (the relevance reads nothing else). Chains are ranked before any
 * record is read, so an implementation over a shard read by ranges must not read its text (the Worker's reads the
 * shard's posting lists of the query terms: src/search/term-membership.ts).
 */
export type EntryTerms = (shard: Shard | undefined, local: number, hit: Hit | undefined) => readonly string[];

/** EntryTerms from the text (chainTerms), for whole shards and hits that carry their text (tests). */
export function textEntryTerms(textTerms: (text: string) => string[], compounds: readonly Compound[] = []): EntryTerms {
  return (shard, local, hit) =>
    chainTerms(shard ? shard.texts[local]! : hit!.text, shard ? (shard.metric[local] ?? 0) : 0, textTerms, compounds);
}

/** A statement a chain shows: of a loaded shard, or a hit alone (callers without shards). */
interface Node {
  shard: number;
  local: number;
  hit?: Hit;
  /** Statements after it that its entry shows too, in document order (passageAfter; src/core/passages.ts). */
  passage?: readonly number[];
}

/**
 * A chain ranked from the shards' heads alone (claim and row-label hashes, edges, posting lists, codes): the
 * statements it shows, not yet their texts. materializeChain turns it into a Chain once those records are read.
 */
export interface ChainDraft {
  score: number;
  relevance: number;
  nodes: Node[];
  explain: ChainRank;
}

/** Which statements of a shard a chain may show: those whose source satisfies the request's filters. */
export type AllowedStatement = (shard: Shard, local: number) => boolean;
const ANY: AllowedStatement = () => true;

function edgeTargets(shard: Shard, local: number, kind: EdgeKind, allowed: AllowedStatement): number[] {
  return statementEdges(shard, local)
    .filter((e) => e.kind === kind && allowed(shard, e.target))
    .map((e) => e.target);
}

/**
 * The path an anchor statement starts, following the builder's evidence graph inside its shard: the table fact, the
 * MD&A sentence that explains it, the outlook on the same metric, then (high effort) the same row in another filing
 * of the year. A sentence hit that explains a table fact puts the fact first. A pointer to a note ("see Note 21")
 * is followed by the note's sentences it refers to. At most `max` statements.
 */
export function graphPath(shard: Shard, anchor: number, max: number, allowed: AllowedStatement = ANY): number[] {
  const path: number[] = [];
  const add = (local: number | undefined) => {
    if (local !== undefined && path.length < max && !path.includes(local)) path.push(local);
  };
  const referred = edgeTargets(shard, anchor, 'refers', allowed);
  if (referred.length) {
    add(anchor);
    referred.forEach(add);
    return path;
  }
  const isRow = statementKind(shard, anchor) === 'table_row';
  if (isRow) {
    add(anchor);
    add(edgeTargets(shard, anchor, 'explains', allowed)[0]);
  } else {
    const fact = edgeTargets(shard, anchor, 'explains', allowed).find((t) => statementKind(shard, t) === 'table_row');
    add(fact);
    add(anchor);
  }
  const sentence = path.find((l) => statementKind(shard, l) === 'sentence');
  add(
    (sentence !== undefined ? edgeTargets(shard, sentence, 'outlook', allowed) : [])[0] ??
      edgeTargets(shard, path[0]!, 'outlook', allowed)[0],
  );
  if (max >= 4) {
    const row = path.find((l) => statementKind(shard, l) === 'table_row');
    if (row !== undefined) add(edgeTargets(shard, row, 'period', allowed)[0]);
  }
  return path;
}

/** Statements a chain from this anchor may hold (a named row's chain stays short). */
const pathLength = (anchor: Hit, limits: EffortLimits) =>
  anchor.namedRow ? Math.min(limits.entriesPerChain, RANKING.chains.namedRowEntries) : limits.entriesPerChain;

/** Which sources an entry may cite besides its own: those satisfying the caller's filters (a hard constraint). */
export type CitableSource = (source: number) => boolean;
const ANY_SOURCE: CitableSource = () => true;

/**
 * The statements that continue this one in its filing: the next ones of the same source, page and kind (the rest
 * of its paragraph and the next ones, or the next rows of its table), at most `max`, up to the first claim `taken`.
 */
export function passageAfter(
  shard: Shard,
  local: number,
  taken: ReadonlySet<number | string>,
  max: number = RANKING.chains.passageStatements,
): number[] {
  const out: number[] = [];
  const kind = statementKind(shard, local);
  for (let l = local + 1; l < shard.count && out.length < max; l++) {
    if (shard.source[l] !== shard.source[local] || shard.page[l] !== shard.page[local]) break;
    if (statementKind(shard, l) !== kind || taken.has(shard.claim[l]!)) break;
    out.push(l);
  }
  return out;
}

/**
 * An entry's text: its statement, then the statements of its passage while each is read, has the same epistemic
 * status (the entry's status lines speak for its whole text), no filing states it differently, every filing the
 * entry counts as agreeing states it too (the consensus stays what all of them state) and the passage stays within
 * RANKING.chains.passageChars. Rows are joined by "; ", sentences by a space: a consensus is one line of the evidence.
 */
function entryText(shard: Shard, local: number, agreeing: readonly EntrySource[], passage: readonly number[]): string {
  const parts = [shard.texts[local]!];
  let added = 0;
  for (const l of passage) {
    const text = shard.texts[l];
    if (text === undefined || shard.disagree[l]?.length || statementStatus(shard, l) !== statementStatus(shard, local))
      break;
    added += text.length + 1;
    if (added > RANKING.chains.passageChars) break;
    const stating = shard.agree[l] ?? [];
    if (!agreeing.every((a) => stating.some((o) => o.source === a.source))) break;
    parts.push(text);
  }
  return parts.join(statementKind(shard, local) === 'table_row' ? '; ' : ' ');
}

function toEntry(
  shard: Shard,
  local: number,
  citable: CitableSource,
  agreeingCited: number,
  passage: readonly number[] = [],
): Entry {
  const kind = statementKind(shard, local);
  const own: EntrySource = {
    source: shard.source[local]!,
    status: statementStatus(shard, local),
    page: shard.page[local]!,
    kind,
  };
  const agreeing: EntrySource[] = [];
  for (const o of shard.agree[local] ?? []) {
    if (!citable(o.source) || o.source === own.source || agreeing.some((s) => s.source === o.source)) continue;
    agreeing.push({ source: o.source, status: o.status, page: o.page, kind, ...(o.note ? { note: o.note } : {}) });
  }
  // When not all are cited, the nearest in the issuer's source order (its filings by date, items in order): the same
  // 10-K's other item, then the filings just after and before.
  const nearest = (a: EntrySource, b: EntrySource) =>
    Math.abs(a.source - own.source) - Math.abs(b.source - own.source) || a.source - b.source;
  const sources = [
    own,
    ...(agreeing.length > agreeingCited ? [...agreeing].sort(nearest).slice(0, agreeingCited) : agreeing),
  ];
  const moreSources = agreeing.length - (sources.length - 1);
  const disagreements: EntrySource[] = (shard.disagree[local] ?? [])
    .filter((o) => citable(o.source))
    .map((o) => ({ source: o.source, status: o.status, page: o.page, kind, note: o.note }));
  const metric = shard.metric[local] ?? 0;
  return {
    consensus: disagreements.length ? shard.texts[local]! : entryText(shard, local, agreeing, passage),
    sources,
    ...(moreSources ? { moreSources } : {}),
    disagreements,
    confidence: confidenceOf([own, ...agreeing], disagreements),
    ...(metric ? { metric } : {}),
  };
}

/**
 * Of these statements (the chains a response returns) and their passages, those whose records are not read yet: per
 * shard, local ids.
 */
export function unreadRecords(nodes: readonly Node[], shards: ReadonlyMap<number, Shard>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const n of nodes) {
    const parts = shards.get(n.shard)?.parts;
    if (!parts) continue;
    for (const local of [n.local, ...(n.passage ?? [])]) {
      if (parts.records[local]) continue;
      const list = out.get(n.shard);
      if (list) list.includes(local) || list.push(local);
      else out.set(n.shard, [local]);
    }
  }
  return out;
}

/**
 * A chain ranked and merged from the shards' heads alone, its entries not read yet: what a retrieval pass returns.
 * Its relevance and score are final (ranked on the cosines binary codes approximate); `claims` are its statements'
 * claim hashes (Shard.claim, the hash of the text an entry shows), so passes merge and deduplicate chains without
 * their texts. Only the chains a response returns are materialized (their records read): materializeChain.
 */
export interface PendingChain {
  relevance: number;
  score: number;
  draft: ChainDraft;
  shards: ReadonlyMap<number, Shard>;
  claims: readonly (number | string)[];
  /** Relevance points from its pass's ranking preference (src/core/merge.ts Mergeable.earned). */
  earned?: number;
}

/** Drafts (of one drafting, over these shards) as pending chains, in their rank order. */
export function pendingChains(drafts: readonly ChainDraft[], shards: ReadonlyMap<number, Shard>): PendingChain[] {
  return drafts.map((draft) => ({
    relevance: draft.relevance,
    score: draft.score,
    draft,
    shards,
    claims: draft.nodes.map((n) => {
      const s = shards.get(n.shard);
      return s ? s.claim[n.local]! : claimKey(n.hit!.text);
    }),
  }));
}

/**
 * The chains without the statements an earlier chain already shows. Each pass drafts its chains without repeating a
 * claim, and a preferred pass's chains push out general chains that share one (src/core/merge.ts
 * mergePreferred); but passes merged round-robin (facets, requirements: src/core/merge.ts) drop a chain only when an
 * earlier one holds all of its claims, so a row two passes found could be printed twice, once in each chain. A later
 * chain keeps its other statements (its relevance_score is the one it was drafted with) and goes when none is left.
 * Returns the chains kept, each mapped from the chain it came from.
 */
export function withoutRepeatedStatements(chains: readonly PendingChain[]): {
  chains: PendingChain[];
  from: Map<PendingChain, PendingChain>;
} {
  const shown = new Set<number | string>();
  const kept: PendingChain[] = [];
  const from = new Map<PendingChain, PendingChain>();
  for (const chain of chains) {
    const keep = chain.claims.map((k) => !shown.has(k));
    for (const k of chain.claims) shown.add(k);
    if (keep.every(Boolean)) {
      kept.push(chain);
      from.set(chain, chain);
      continue;
    }
    if (!keep.some(Boolean)) continue;
    const trimmed: PendingChain = {
      ...chain,
      draft: { ...chain.draft, nodes: chain.draft.nodes.filter((_, i) => keep[i]) },
      claims: chain.claims.filter((_, i) => keep[i]),
    };
    kept.push(trimmed);
    from.set(trimmed, chain);
  }
  return { chains: kept, from };
}

/**
 * A chain from a draft whose records are read: every statement becomes an entry citing the filings that state the
 * same claim (the builder's consensus) that `citable` accepts (the caller's own filters; inferred filters still let
 * a later 10-K that restates a figure agree, docs/DECISIONS.md), with the filings that disagree kept apart.
 */
export function materializeChain(
  draft: ChainDraft,
  shards: ReadonlyMap<number, Shard>,
  citable: CitableSource = ANY_SOURCE,
  agreeingCited = Infinity,
): Chain {
  return {
    score: draft.score,
    relevance: draft.relevance,
    entries: draft.nodes.map((n) =>
      n.hit && !shards.has(n.shard)
        ? fallbackEntry(n.hit)
        : toEntry(shards.get(n.shard)!, n.local, citable, agreeingCited, n.passage),
    ),
    explain: draft.explain,
  };
}

/**
 * About how many tokens a draft's texts add to its skeleton: of a statement read, its text; of one not read, its
 * record's size (text and consensus) from the head; its passage's statements likewise. Only decides how many chains
 * one read of records takes.
 */
export function recordTextTokens(draft: ChainDraft, shards: ReadonlyMap<number, Shard>): number {
  let chars = 0;
  for (const n of draft.nodes) {
    const s = shards.get(n.shard);
    if (!s) {
      chars += n.hit?.text.length ?? 0;
      continue;
    }
    for (const local of [n.local, ...(n.passage ?? [])])
      if (s.parts && !s.parts.records[local]) chars += recordContentBytes(s, local);
      else chars += s.texts[local]?.length ?? 0;
  }
  return Math.ceil(chars / 4);
}

/**
 * The least a draft's chain can render to, from its head alone: each entry with no text, its own source only and
 * the shortest confidence. Rendering only grows with text, sources and disagreements (registry, glossary and entry
 * lines), so a chain whose skeleton does not fit a token budget cannot fit it read (src/evidence/budget.ts).
 */
export function skeletonChain(draft: ChainDraft, shards: ReadonlyMap<number, Shard>): Chain {
  return {
    score: draft.score,
    relevance: draft.relevance,
    entries: draft.nodes.map((n) => {
      const shard = shards.get(n.shard);
      if (!shard) return fallbackEntry(n.hit!);
      const metric = shard.metric[n.local] ?? 0;
      const own: EntrySource = {
        source: shard.source[n.local]!,
        status: statementStatus(shard, n.local),
        page: shard.page[n.local]!,
        kind: statementKind(shard, n.local),
      };
      return { consensus: '', sources: [own], disagreements: [], confidence: 'Low', ...(metric ? { metric } : {}) };
    }),
  };
}

const byScore = (a: { score: number }, b: { score: number }) => b.score - a.score;

/**
 * draftChains then materializeChain without filters, for callers whose shards hold every record (whole shards, or
 * hits that carry their text: tests). Hits keep the cosines they carry.
 */
export function buildChains(...draft: Parameters<typeof draftChains>): Chain[] {
  return draftChains(...draft).map((d) => materializeChain(d, draft[4] ?? new Map()));
}

/**
 * Ranks evidence chains from fused hits, from the shards' heads. Each of the best hits anchors a path through the
 * evidence graph (graphPath); an anchor without graph neighbours is completed with the other hits of its filing
 * item on nearby pages, in document order. Overlapping chains are deduplicated: a hit already shown in a better
 * chain anchors nothing, a claim (its hash, Shard.claim) appears in one chain only, and a table row that a shown
 * row's consensus lists as agreeing (the same figure restated in another filing: its source, page and label hash,
 * Shard.rowLabel) anchors nothing. That last rule reads where the shown rows are restated from the heads
 * (Shard.restated), so drafting reads no record and gives what whole shards give. Chains with relevance 0 are dropped.
 * Graph neighbours are followed only to statements `allowed` accepts (the request's filters): the hits already satisfy
 * them, and a linked MD&A sentence must not smuggle in another item or year. The best limits.maxChains drafts are
 * returned.
 */
export function draftChains(
  hits: readonly Hit[],
  limits: EffortLimits,
  queryTermWeights: ReadonlyMap<string, number>,
  entryTerms: EntryTerms,
  shards: ReadonlyMap<number, Shard> = new Map(),
  allowed: AllowedStatement = ANY,
): ChainDraft[] {
  const hitByNode = new Map<string, Hit>();
  for (const h of hits) hitByNode.set(`${h.shard}:${h.local}`, h);
  const bySource = new Map<number, Hit[]>();
  for (const h of hits) {
    const l = bySource.get(h.source);
    if (l) l.push(h);
    else bySource.set(h.source, [h]);
  }

  // A claim: its hash from the shard's head, or (a hit without a shard) its text's key.
  const claimOf = (n: Node): number | string => {
    const s = shards.get(n.shard);
    return s ? s.claim[n.local]! : claimKey(n.hit!.text);
  };
  // Where a table row is: its source, page and label hash (hits without a shard are never rows restated).
  const rowAt = (source: number, page: number, label: number) => `${source}:${page}:${label}`;
  const shown = new Set<number | string>(); // claims already in an accepted chain
  const shownRows = new Set<string>(); // rows the shown rows' consensus lists as agreeing
  const chains: ChainDraft[] = [];
  // Every hit down to this rank may anchor a chain: the fused score of a table row is often below prose that
  // repeats the query's words, and the final order is by relevance, not by anchor rank.
  // Anchors with graph neighbours go first, so a table fact is not taken as a plain "mate" of another hit's
  // chain before its own path (fact -> explanation -> outlook) is built.
  const maxAnchors = limits.maxChains * RANKING.chains.anchorsPerChain;
  const top = hits.slice(0, maxAnchors);
  const hasPath = (h: Hit) => {
    const sh = shards.get(h.shard);
    return !!sh && edgeCount(sh, h.local) > 0;
  };
  const ordered = [...top.filter(hasPath), ...top.filter((h) => !hasPath(h))];
  let anchors = 0;
  const nodeOf = (h: Hit): Node => ({ shard: h.shard, local: h.local, hit: h });
  for (const hit of ordered) {
    if (anchors >= maxAnchors) break;
    if (shown.has(claimOf(nodeOf(hit)))) continue;
    const label = shards.get(hit.shard)?.rowLabel[hit.local];
    if (hit.kind === 'table_row' && label && shownRows.has(rowAt(hit.source, hit.page, label))) continue;
    anchors++;
    const shard = shards.get(hit.shard);
    let nodes: Node[];
    const path = shard ? graphPath(shard, hit.local, pathLength(hit, limits), allowed) : [hit.local];
    if (path.length > 1) nodes = path.map((local) => ({ shard: hit.shard, local }));
    else {
      // No graph neighbours: the anchor and the next best hits of the same filing item, in document order.
      // Only hits on the anchor's page or the next/previous one: a filing item spans dozens of pages, and
      // statements far apart are unrelated text that costs budget without supporting the anchor.
      const mates = (bySource.get(hit.source) ?? [])
        .filter(
          (h) =>
            h !== hit && Math.abs(h.page - hit.page) <= RANKING.chains.matePageSpan && !shown.has(claimOf(nodeOf(h))),
        )
        .slice(0, limits.entriesPerChain - 1);
      nodes = [hit, ...mates].sort((a, b) => a.local - b.local).map(nodeOf);
    }
    const kept: Node[] = [];
    const terms = new Set<string>();
    const perEntry: Set<string>[] = [];
    const keys = new Set<number | string>();
    const mateFused: number[] = [];
    let bestCosine = hit.cosine;
    for (const node of nodes) {
      const n = { ...node, hit: node.hit ?? hitByNode.get(`${node.shard}:${node.local}`) };
      const s = shards.get(n.shard);
      const h = n.hit;
      const key = claimOf(n);
      if (keys.has(key) || (shown.has(key) && !(n.shard === hit.shard && n.local === hit.local))) continue;
      keys.add(key);
      kept.push(n);
      const covered = entryTerms(s, n.local, h);
      for (const t of covered) terms.add(t);
      perEntry.push(new Set(covered));
      if (h && h !== hit) {
        mateFused.push(h.fused);
        bestCosine = Math.max(bestCosine, h.cosine);
      }
    }
    const relevanceParts = chainRelevance(terms, queryTermWeights, bestCosine, perEntry, !!hit.namedRow);
    const relevance = relevanceParts.score;
    if (relevance === 0 || !kept.length) continue;
    for (const k of keys) shown.add(k);
    for (const n of kept) {
      const s = shards.get(n.shard);
      if (!s) continue;
      const { at, source, page } = s.restated;
      for (let k = at[n.local]!; k < at[n.local + 1]!; k++)
        shownRows.add(rowAt(source[k]!, page[k]!, s.rowLabel[n.local]!));
    }
    const order = chainOrder(hit.fused, mateFused, path.length > 1, !!hit.namedRow);
    const rank = rankChain(relevanceParts, order);
    chains.push({ score: rank.score, relevance, nodes: kept, explain: rank });
  }
  return chains.sort(byScore).slice(0, limits.maxChains);
}

/** An entry from a hit alone, for callers that pass no shards (tests of the ranking without an index). */
function fallbackEntry(h: Hit): Entry {
  const sources: EntrySource[] = [{ source: h.source, status: h.status, page: h.page, kind: h.kind }];
  return { consensus: h.text, sources, disagreements: [], confidence: confidenceOf(sources) };
}
