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
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * docLen) / (avgLen || 1));
  return (idf * tf * (BM25_K1 + 1)) / (tf + norm);
}
