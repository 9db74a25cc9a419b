import type { Shard } from '../format/types';

/**
 * The query terms a statement holds, read from its shard's posting lists instead of its text: chain relevance
 * (src/evidence/chains.ts) counts which query terms each entry covers, and tokenizing every candidate statement's
 * text was a tenth of a warm query. The lists of every query term are filled in each shard a request searched, and
 * a statement's index terms are its text's tokens plus its metric's name (index-builder/build.ts withMetricTerms),
 * which is what chainTerms gives; chainTerms also answers to `fy<year>` for a bare year in the text, which the
 * index does not hold, so that one case reads the text. The same set chainTerms gives, restricted to the query's terms
 * (the twin test is test/unit/search-fast-paths.test.ts).
 */
export function statementQueryTerms(shard: Shard, local: number, query: MembershipQuery): string[] {
  const out: string[] = [];
  for (const { term, bareYear } of query) {
    const t = shard.termIndex.get(term);
    if (t !== undefined && inPostings(shard, t, local)) out.push(term);
    else if (bareYear?.test(shard.texts[local]!)) out.push(term);
  }
  return out;
}

/** Query terms prepared once per retrieval: each `fy<year>` term with the pattern of its bare year. */
export type MembershipQuery = readonly { term: string; bareYear: RegExp | null }[];

export function membershipQuery(queryTerms: readonly string[]): MembershipQuery {
  return queryTerms.map((term) => ({ term, bareYear: /^fy(?:19|20)\d\d$/.test(term) ? new RegExp(`\\b${term.slice(2)}\\b`) : null }));
}

/** Is statement `local` in term t's posting list (ascending ids, checked when filled)? */
function inPostings(shard: Shard, t: number, local: number): boolean {
  let lo = shard.postOffsets[t]!;
  let hi = shard.postOffsets[t + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const doc = shard.postDocs[mid]!;
    if (doc === local) return true;
    if (doc < local) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
