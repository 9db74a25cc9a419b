import type { Lexicon, Shard } from '../../index-format/types';
import { postingList } from '../../index-format/shard-layout';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import type { StandIns } from './ranking';
import { TopK, type ScoredStatement } from './top-k';

export type { ScoredStatement } from './top-k';

/**
 * BM25 over one shard's postings, with corpus-wide statistics (the query terms' lexicon), restricted to allowed
 * statements. `boost` scales a statement's score before the cut (a table row of the metric the question names,
 * see retrieve.ts). A query term with stand-ins (src/search/equivalents.ts) scores once per statement: the best of its
 * own BM25 and each stand-in's times its weight.
 */
export function searchLexical(
  shard: Shard,
  lexicon: Lexicon,
  queryTerms: readonly string[],
  isAllowed: (local: number) => boolean,
  depth: number,
  boost?: (local: number) => number,
  standIns?: StandIns,
): ScoredStatement[] {
  // Scores in a dense array, the statements that got one listed in first-seen order (what the Map this replaces
  // iterated in): a shard has a few thousand statements, and common terms post to most of them.
  const scores = new Float64Array(shard.docLen.length);
  const seen = new Uint8Array(shard.docLen.length);
  const touched: number[] = [];
  const add = (doc: number, score: number) => {
    if (!seen[doc]) {
      seen[doc] = 1;
      touched.push(doc);
    }
    scores[doc] = scores[doc]! + score;
  };
  for (const term of new Set(queryTerms)) {
    const others = standIns?.get(term);
    if (!others?.length) {
      termScores(shard, lexicon, term, isAllowed, 1, add);
      continue;
    }
    const best = new Map<number, number>();
    const keep = (doc: number, score: number) => {
      if (score > (best.get(doc) ?? 0)) best.set(doc, score);
    };
    termScores(shard, lexicon, term, isAllowed, 1, keep);
    for (const other of others) termScores(shard, lexicon, other.term, isAllowed, other.weight, keep);
    for (const [doc, score] of best) add(doc, score);
  }
  const top = new TopK(depth);
  for (const local of touched) top.offer(local, boost ? scores[local]! * boost(local) : scores[local]!);
  return top.sorted();
}

/** One term's BM25 score (times `weight`) for each allowed statement of its posting list in this shard. */
function termScores(
  shard: Shard,
  lexicon: Lexicon,
  term: string,
  isAllowed: (local: number) => boolean,
  weight: number,
  onScore: (doc: number, score: number) => void,
): void {
  const t = shard.termIndex.get(term);
  if (t === undefined) return;
  const g = lexicon.termIndex.get(term);
  if (g === undefined) return;
  const idf = bm25Idf(lexicon.totalStatements, lexicon.df[g]!);
  const { docs, tfs } = postingList(shard, t);
  for (let p = 0; p < docs.length; p++) {
    const doc = docs[p]!;
    if (!isAllowed(doc)) continue;
    onScore(doc, weight * bm25TermScore(idf, tfs[p]!, shard.docLen[doc]!, lexicon.avgLen));
  }
}
