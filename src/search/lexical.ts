import type { Lexicon, Shard } from '../../index-format/types';
import { postingList } from '../../index-format/shard-layout';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import { TopK, type ScoredStatement } from './top-k';
import { inPostings } from './term-membership';
import type { Compound } from '../../index-format/tokenize';

export type { ScoredStatement } from './top-k';

/**
 * Query terms that the statements `holds` accepts count as held once where their text lacks them (the words of a
 * named quarter in the filings that report it: src/plan/query-plan.ts periodCredit).
 */
export interface TermCredit {
  terms: readonly string[];
  holds: (local: number) => boolean;
}

/**
 * BM25 over one shard's postings, with corpus-wide statistics (the query terms' lexicon), restricted to allowed
 * statements. `boost` scales a statement's score before the cut (a table row of the metric the question names,
 * see retrieve.ts). A statement that another query term found scores each credited term it lacks as a term it holds
 * once (`credit`); credit alone finds no statement. A statement printing a compound's joined spelling ("eCommerce"
 * for the question's "e-commerce": `compounds`) is found by it and scores each of its parts it lacks as held once;
 * the joined term adds nothing of its own, so the statement printing the hyphen, which the index posts under the
 * joined spelling too, scores its parts only (index-format/tokenize.ts hyphenCompounds).
 */
export function searchLexical(
  shard: Shard,
  lexicon: Lexicon,
  queryTerms: readonly string[],
  isAllowed: (local: number) => boolean,
  depth: number,
  boost?: (local: number) => number,
  credit?: TermCredit | null,
  compounds: readonly Compound[] = [],
): ScoredStatement[] {
  // Scores in a dense array, the statements that got one listed in first-seen order (what the Map this replaces
  // iterated in): a shard has a few thousand statements, and common terms post to most of them.
  const scores = new Float64Array(shard.docLen.length);
  const seen = new Uint8Array(shard.docLen.length);
  const touched: number[] = [];
  // Which credited terms each statement holds, one bit per term, marked while their postings are walked anyway.
  const credited = creditedTerms(lexicon, queryTerms, credit);
  const holdsCredited = credited.length ? new Uint32Array(shard.docLen.length) : null;
  for (const term of new Set(queryTerms)) {
    const t = shard.termIndex.get(term);
    if (t === undefined) continue;
    const g = lexicon.termIndex.get(term);
    if (g === undefined) continue;
    const idf = bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
    const bit = credited.findIndex((c) => c.term === term);
    const { docs, tfs } = postingList(shard, t);
    for (let p = 0; p < docs.length; p++) {
      const doc = docs[p]!;
      if (!isAllowed(doc)) continue;
      if (!seen[doc]) {
        seen[doc] = 1;
        touched.push(doc);
      }
      scores[doc] = scores[doc]! + bm25TermScore(idf, tfs[p]!, shard.docLen[doc]!, lexicon.avgLen);
      if (bit >= 0) holdsCredited![doc]! |= 1 << bit;
    }
  }
  for (const compound of compounds) {
    const t = shard.termIndex.get(compound.joined);
    if (t === undefined) continue;
    const parts = compound.parts.map((part) => {
      const g = lexicon.termIndex.get(part);
      const idf = g === undefined ? 0 : bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
      return { idf, inShard: shard.termIndex.get(part) ?? -1 };
    });
    for (const doc of postingList(shard, t).docs) {
      if (!isAllowed(doc)) continue;
      for (const { idf, inShard } of parts)
        if (idf > 0 && !inPostings(shard, inShard, doc)) {
          if (!seen[doc]) {
            seen[doc] = 1;
            touched.push(doc);
          }
          scores[doc] = scores[doc]! + bm25TermScore(idf, 1, shard.docLen[doc]!, lexicon.avgLen);
        }
    }
  }
  if (holdsCredited)
    for (const doc of touched) {
      if (!credit!.holds(doc)) continue;
      credited.forEach(({ idf }, bit) => {
        if (!(holdsCredited[doc]! & (1 << bit)))
          scores[doc] = scores[doc]! + bm25TermScore(idf, 1, shard.docLen[doc]!, lexicon.avgLen);
      });
    }
  const top = new TopK(depth);
  for (const local of touched) top.offer(local, boost ? scores[local]! * boost(local) : scores[local]!);
  return top.sorted();
}

/** The credited query terms the lexicon knows, with their IDF (at most 32: one bit each). */
function creditedTerms(
  lexicon: Lexicon,
  queryTerms: readonly string[],
  credit: TermCredit | null | undefined,
): { term: string; idf: number }[] {
  if (!credit) return [];
  const out: { term: string; idf: number }[] = [];
  for (const term of new Set(queryTerms)) {
    const g = lexicon.termIndex.get(term);
    if (g === undefined || !credit.terms.includes(term) || out.length === 32) continue;
    out.push({ term, idf: bm25Idf(lexicon.totalStatements, lexicon.df[g]!) });
  }
  return out;
}
