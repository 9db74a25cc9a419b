/**
 * BM25 as used by the lexical leg and by the builder's shard-routing impacts (both must agree).
 * K1 = 1.2 and B = 0.75 are the textbook defaults; statements are short, so length normalization matters little.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export function bm25Idf(totalDocs: number, df: number): number {
  return Math.log(1 + (totalDocs - df + 0.5) / (df + 0.5));
}

export function bm25TermScore(idf: number, tf: number, docLen: number, avgLen: number): number {
  return bm25ScoreWithNorm(idf, tf, bm25Norm(docLen, avgLen));
}

/** The length normalization of a statement of `docLen` terms, which bm25TermScore adds to tf in its denominator. */
export function bm25Norm(docLen: number, avgLen: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * docLen) / (avgLen || 1));
}

/** bm25TermScore from bm25Norm's value, the same arithmetic: for a caller scoring many statements of a few lengths. */
export function bm25ScoreWithNorm(idf: number, tf: number, norm: number): number {
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}
