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

/**
 * A statement is indexed with two fields (BM25F, Robertson, Zaragoza and Taylor 2004: field frequencies weighted and
 * summed before saturation): its own words (the body) and the words of its place (its section heading, note title,
 * the sentence introducing its table, its paragraph's first sentence: index-builder/statements.ts). A posting's byte
 * holds both: the body's term frequency in the upper seven bits, whether the context holds the term in the lowest.
 * The context counts once however often its words repeat (a heading is short; a first sentence shared by a whole
 * paragraph must not outweigh the statement's own words), and adds nothing to the statement's length.
 */
export const MAX_BODY_TF = 127;

/** A posting's byte from the body's term frequency (capped) and whether the context holds the term. */
export function encodePostingTf(bodyTf: number, inContext: boolean): number {
  return (Math.min(MAX_BODY_TF, bodyTf) << 1) | (inContext ? 1 : 0);
}

/** The body's term frequency of a posting (0: the term is in the statement's context only). */
export function bodyTf(posting: number): number {
  return posting >> 1;
}

/** The BM25F frequency of a posting: the body's count plus the context's weight when the context holds the term. */
export function fieldTf(posting: number, contextWeight: number): number {
  return (posting >> 1) + (posting & 1) * contextWeight;
}
