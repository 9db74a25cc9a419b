import { postingList } from '../../index-format/shard-layout';
import type { Shard } from '../../index-format/types';
import type { Compound } from '../../index-format/tokenize';

/**
 * The query terms a statement holds, read from its shard's posting lists instead of its text: chain relevance
 * (src/evidence/chains.ts) counts which query terms each entry covers, and tokenizing every candidate statement's
 * text was a tenth of a warm query. The lists of every query term are filled in each shard a request searched, and
 * a statement's index terms are its text's tokens, their hyphenated words' joined forms and its metric's name
 * (index-builder/build.ts), which is what chainTerms gives; chainTerms also answers to `fy<year>` for a bare year
 * token of the text, which is in the posting list of that year (`2023`), and to a question's hyphenated word's
 * parts for its joined spelling. So no text is read: chains are ranked before any record is. The same set
 * chainTerms gives, restricted to the query's terms (the twin test is test/unit/search-fast-paths.test.ts). The
 * posting lists of membershipTerms(query terms, compounds) must be filled.
 */
export function statementQueryTerms(shard: Shard, local: number, query: MembershipQuery): string[] {
  const ids = query.resolved(shard);
  const out: string[] = [];
  query.terms.forEach(({ term }, k) => {
    if (ids[k]!.some((t) => inPostings(shard, t, local))) out.push(term);
  });
  return out;
}

/**
 * Query terms prepared once per retrieval: each with the other spellings a statement may hold it by (a `fy<year>`
 * term's bare year; a hyphenated word's joined spelling for each of its parts), and per shard where each of them is
 * in its dictionary (looked up once per shard, not once per statement: a query asks about hundreds).
 */
export interface MembershipQuery {
  terms: readonly { term: string; spellings: readonly string[] }[];
  /** Per query term k, the dictionary indexes of its spellings (the term's own first; -1 when absent). */
  resolved(shard: Shard): readonly (readonly number[])[];
}

const FISCAL_YEAR_TERM = /^fy((?:19|20)\d\d)$/;

export function membershipQuery(queryTerms: readonly string[], compounds: readonly Compound[] = []): MembershipQuery {
  const terms = queryTerms.map((term) => ({ term, spellings: spellingsOf(term, compounds) }));
  const byShard = new WeakMap<Shard, number[][]>();
  return {
    terms,
    resolved(shard) {
      let ids = byShard.get(shard);
      if (!ids) {
        ids = terms.map(({ spellings }) => spellings.map((t) => shard.termIndex.get(t) ?? -1));
        byShard.set(shard, ids);
      }
      return ids;
    },
  };
}

/** A query term and the other spellings that count as it (chainTerms gives the same: src/evidence/chains.ts). */
function spellingsOf(term: string, compounds: readonly Compound[]): string[] {
  const bareYear = FISCAL_YEAR_TERM.exec(term)?.[1];
  const joined = compounds.filter((c) => c.parts.includes(term)).map((c) => c.joined);
  return [term, ...(bareYear ? [bareYear] : []), ...joined];
}

/** The terms whose posting lists statementQueryTerms reads for these query terms: every spelling of each. */
export function membershipTerms(queryTerms: readonly string[], compounds: readonly Compound[] = []): string[] {
  return [...new Set(membershipQuery(queryTerms, compounds).terms.flatMap((q) => q.spellings))];
}

/** Is statement `local` in term t's posting list (ascending ids, checked when filled)? False for t = -1 (no term). */
export function inPostings(shard: Shard, t: number, local: number): boolean {
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
