import type { Hit } from '../search/retrieve';
import type { EffortPlan } from '../search/plan';
import type { Chain, Confidence, Entry, EntrySource } from './model';

/** Text key under which restatements of one claim merge: case, spacing and punctuation do not matter. */
export function claimKey(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Confidence rule (first version): High when two or more sources state the claim identically; otherwise Medium
 * for a fact and Low for a forward-looking statement.
 */
export function confidenceOf(sources: readonly EntrySource[]): Confidence {
  if (new Set(sources.map((s) => s.source)).size >= 2) return 'High';
  return sources.every((s) => s.status === 'FACT') ? 'Medium' : 'Low';
}

/**
 * How well a chain matches the query, 0-10: the IDF-weighted share of query terms the chain's text contains
 * (70%) and the best cosine of its statements (30%). Integer, so agents can threshold on it.
 */
export function relevanceScore(chainTerms: ReadonlySet<string>, queryTermWeights: ReadonlyMap<string, number>, bestCosine: number): number {
  let total = 0;
  let matched = 0;
  for (const [term, w] of queryTermWeights) {
    total += w;
    if (chainTerms.has(term)) matched += w;
  }
  const coverage = total ? matched / total : 0;
  const score = 10 * (0.7 * coverage + 0.3 * Math.max(0, Math.min(1, bestCosine)));
  return Math.max(0, Math.min(10, Math.round(score)));
}

/**
 * Builds evidence chains from fused hits: the same claim from several sources becomes one entry citing all of
 * them; hits are grouped by source (one filing item) into a chain of up to `entriesPerChain` entries in document
 * order; chains are ranked by their best hit. Chains with relevance 0 are dropped.
 */
export function buildChains(
  hits: readonly Hit[],
  plan: EffortPlan,
  queryTermWeights: ReadonlyMap<string, number>,
  tokenize: (text: string) => string[],
): Chain[] {
  // 1. Merge restatements: first (best) occurrence carries the entry.
  const entries = new Map<string, { hit: Hit; sources: EntrySource[] }>();
  for (const hit of hits) {
    const key = claimKey(hit.text);
    const src: EntrySource = { source: hit.source, status: hit.status, page: hit.page, kind: hit.kind };
    const existing = entries.get(key);
    if (existing) {
      if (!existing.sources.some((s) => s.source === src.source)) existing.sources.push(src);
    } else entries.set(key, { hit, sources: [src] });
  }
  // 2. Group by the best occurrence's source.
  const groups = new Map<number, { hit: Hit; sources: EntrySource[] }[]>();
  for (const e of entries.values()) {
    const g = groups.get(e.hit.source) ?? [];
    if (g.length < plan.entriesPerChain) g.push(e);
    groups.set(e.hit.source, g);
  }
  const chains: Chain[] = [];
  for (const group of groups.values()) {
    const best = Math.max(...group.map((g) => g.hit.fused));
    const ordered = [...group].sort((a, b) => a.hit.shard - b.hit.shard || a.hit.local - b.hit.local);
    const terms = new Set(ordered.flatMap((g) => tokenize(g.hit.text)));
    const bestCosine = Math.max(...group.map((g) => g.hit.cosine));
    const chain: Chain = {
      score: best + 0.1 * group.reduce((a, g) => a + g.hit.fused, 0),
      relevance: relevanceScore(terms, queryTermWeights, bestCosine),
      entries: ordered.map<Entry>((g) => ({
        consensus: g.hit.text,
        sources: g.sources,
        confidence: confidenceOf(g.sources),
      })),
    };
    if (chain.relevance > 0) chains.push(chain);
  }
  return chains
    .sort((a, b) => b.relevance - a.relevance || b.score - a.score)
    .slice(0, plan.maxChains);
}
