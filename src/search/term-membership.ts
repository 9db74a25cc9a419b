import { postingList } from '../../index-format/shard-layout';
import type { Shard } from '../../index-format/types';

/**
 * The query terms a statement holds, read from its shard's posting lists instead of its text: chain relevance
 * (src/evidence/chains.ts) counts which query terms each entry covers, and tokenizing every candidate statement's
 * text was a tenth of a warm query. The lists of every query term are filled in each shard a request searched, and
 * a statement's index terms are its text's tokens plus its metric's name (index-builder/build.ts withMetricTerms),
 * which is what chainTerms gives; chainTerms also answers to `fy<year>` for a bare year token of the text, which is
 * in the posting list of that year (`2023`). So no text is read: chains are ranked before any record is. The same
 * set chainTerms gives, restricted to the query's terms (the twin test is test/unit/search-fast-paths.test.ts). The
 * posting lists of membershipTerms(query terms) must be filled.
 */
export function statementQueryTerms(shard: Shard, local: number, query: MembershipQuery): string[] {
  const ids = query.resolved(shard);
  const out: string[] = [];
  query.terms.forEach(({ term }, k) => {
    if (inPostings(shard, ids[2 * k]!, local) || inPostings(shard, ids[2 * k + 1]!, local)) out.push(term);
  });
  return out;
}

/**
 * Query terms prepared once per retrieval: each `fy<year>` term with its bare year, and per shard where each of
 * them is in its dictionary (looked up once per shard, not once per statement: a query asks about hundreds).
 */
export interface MembershipQuery {
  terms: readonly { term: string; bareYear: string | null }[];
  /** Per query term k, the dictionary index of the term (2k) and of its bare year (2k + 1), -1 when absent. */
  resolved(shard: Shard): Int32Array;
}

const FISCAL_YEAR_TERM = /^fy((?:19|20)\d\d)$/;

export function membershipQuery(queryTerms: readonly string[]): MembershipQuery {
  const terms = queryTerms.map((term) => ({ term, bareYear: FISCAL_YEAR_TERM.exec(term)?.[1] ?? null }));
  const byShard = new WeakMap<Shard, Int32Array>();
  const indexOf = (shard: Shard, term: string | null) => (term === null ? -1 : (shard.termIndex.get(term) ?? -1));
  return {
    terms,
    resolved(shard) {
      let ids = byShard.get(shard);
      if (!ids) {
        ids = Int32Array.from(terms.flatMap(({ term, bareYear }) => [indexOf(shard, term), indexOf(shard, bareYear)]));
        byShard.set(shard, ids);
      }
      return ids;
    },
  };
}

/** The terms whose posting lists statementQueryTerms reads for these query terms: them and their bare years. */
export function membershipTerms(queryTerms: readonly string[]): string[] {
  return [...new Set([...queryTerms, ...membershipQuery(queryTerms).terms.flatMap((q) => q.bareYear ?? [])])];
}

/** Is statement `local` in term t's posting list (ascending ids, checked when filled)? False for t = -1 (no term). */
function inPostings(shard: Shard, t: number, local: number): boolean {
  if (t < 0) return false;
  const { docs } = postingList(shard, t);
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const doc = docs[mid]!;
    if (doc === local) return true;
    if (doc < local) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
