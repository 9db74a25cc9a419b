/**
 * Every ranking signal, combined in one place from one parameters object. Retrieval fuses the two legs
 * (`fusedContribution`, `lexicalBoost` inputs), chain building scores chains (`chainRelevance`, `chainScore`), and
 * the merges of a request's passes order chains (`mergeKey`). Each combination returns its parts, so a chain can
 * explain itself (`Chain.explain`, for tests and the bench). docs/PARAMETERS.md gives every value and how it was
 * chosen; the values below must match it.
 */
export const RANKING = {
  /** Reciprocal-rank-fusion constant: 60 is the value of the original RRF paper and insensitive in practice. */
  rrfK: 60,
  /**
   * Weight of each leg in the fusion. The vector leg's corpus-trained vectors rank boilerplate that shares the
   * question's topic above the row that states the figure: at full weight they cost 10-20 points of FinanceBench
   * dev gold-page hit, off entirely they cost dev-2 answer support; 0.3 was the best of 0, 0.15, 0.3, 0.5, 0.6, 1.
   */
  legWeight: { lexical: 1, cosine: 0.3 },
  /**
   * Lexical score factor of a table row that states a metric the question names (its metric tag, or its whole
   * label): plain BM25 ranked prose that repeats more of the question's words above it (3M's FY2018 purchases of
   * PP&E row was 22nd).
   */
  metricRowBoost: 1.5,
  /** The same for a sentence tagged with a named metric: a mild preference only, prose is rarely the figure. */
  metricBoost: 1.2,
  /** relevance_score (0-10): 70% query-term coverage, 30% best cosine; coverage 75% best entry, 25% whole chain. */
  relevance: { termCoverage: 0.7, cosine: 0.3, bestEntry: 0.75, wholeChain: 0.25, metricRowBonus: 2 },
  /**
   * A chain's rank score (ties of relevance): its anchor's fused score, `mateShare` of each other hit it holds,
   * `graphBonus` for a chain built along graph edges (a fact with the sentence that explains it beats statements
   * that merely share an item; fused scores are below 0.04), `namedRowBonus` for a chain anchored on a named row
   * (the relevance bonus is lost to the 0-10 clamp when prose also reaches 10; larger than graphBonus).
   */
  chainScore: { mateShare: 0.1, graphBonus: 0.05, namedRowBonus: 0.1 },
  /**
   * Relevance points a chain from the preferred side of a merge ranks with (a named section or quarter, the routed
   * filings, the named fiscal year): 1 breaks near-ties in its favour, a clearly better chain still leads. The
   * reported relevance_score is not changed.
   */
  preferenceBonus: 1,
  /**
   * The same for a chain anchored on a row of a financial statement the question names ("from the income statement,
   * what was net income"): the caller said where to look, so the statement's row leads unless another chain is
   * clearly (3 points) more relevant.
   */
  namedStatementBonus: 3,
  /**
   * At most this share of the chains an effort plan keeps come from a statement preference: the statement's other
   * rows, weakly matched, would otherwise take every place from a note or MD&A passage that answers.
   */
  statementChainShare: 0.5,
} as const;

export type Leg = keyof typeof RANKING.legWeight;

/** What a hit at 0-based `rank` of a leg adds to its fused score. */
export function fusedContribution(leg: Leg, rank: number): number {
  return RANKING.legWeight[leg] / (RANKING.rrfK + rank + 1);
}

export interface RelevanceParts {
  /** IDF-weighted share of the query terms in the best single entry, and in the whole chain (0-1). */
  bestEntry: number;
  wholeChain: number;
  /** The best cosine of the chain's statements, clamped to 0-1. */
  cosine: number;
  metricRowBonus: number;
  /** The integer relevance_score, 0-10. */
  score: number;
}

/**
 * How well a chain matches the query, 0-10: the IDF-weighted share of query terms covered and the best cosine of
 * its statements, plus a bonus when the chain's anchor is a table row of the metric the question names. The share
 * is mostly that of the best single entry: three loosely related statements that together repeat the query's words
 * must not outscore one statement that answers it. Integer, so agents can threshold on it.
 */
export function chainRelevance(
  chainTerms: ReadonlySet<string>,
  queryTermWeights: ReadonlyMap<string, number>,
  bestCosine: number,
  entryTerms: readonly ReadonlySet<string>[] = [chainTerms],
  metricRow = false,
): RelevanceParts {
  const p = RANKING.relevance;
  let total = 0;
  let matched = 0;
  for (const [term, w] of queryTermWeights) {
    total += w;
    if (chainTerms.has(term)) matched += w;
  }
  let best = 0;
  for (const terms of entryTerms) {
    let m = 0;
    for (const [term, w] of queryTermWeights) if (terms.has(term)) m += w;
    best = Math.max(best, m);
  }
  return withBestCosine({ bestEntry: total ? best / total : 0, wholeChain: total ? matched / total : 0, cosine: 0, metricRowBonus: metricRow ? p.metricRowBonus : 0, score: 0 }, bestCosine);
}

/**
 * Relevance parts with this best cosine, the score recomputed. Chains are ranked on the cosines binary codes
 * approximate (from shard heads): their records are read only for the chains a response returns.
 */
export function withBestCosine(parts: RelevanceParts, bestCosine: number): RelevanceParts {
  const p = RANKING.relevance;
  const cosine = Math.max(0, Math.min(1, bestCosine));
  const coverage = p.bestEntry * parts.bestEntry + p.wholeChain * parts.wholeChain;
  const raw = 10 * (p.termCoverage * coverage + p.cosine * cosine) + parts.metricRowBonus;
  return { ...parts, cosine, score: Math.max(0, Math.min(10, Math.round(raw))) };
}

export interface ChainScoreParts {
  anchor: number;
  mates: number;
  graphBonus: number;
  namedRowBonus: number;
  total: number;
}

/** A chain's rank score from its anchor's and other hits' fused scores (the order of the sums is the ranking's). */
export function chainScore(anchorFused: number, mateFused: readonly number[], alongGraph: boolean, namedRow: boolean): ChainScoreParts {
  const p = RANKING.chainScore;
  let score = anchorFused;
  for (const f of mateFused) score += p.mateShare * f;
  const graphBonus = alongGraph ? p.graphBonus : 0;
  const namedRowBonus = namedRow ? p.namedRowBonus : 0;
  return { anchor: anchorFused, mates: score - anchorFused, graphBonus, namedRowBonus, total: score + graphBonus + namedRowBonus };
}

/**
 * The key a merge of two chain lists orders by: relevance, plus the bonus of the preferred side, plus what the chain
 * earned from its own pass's preference.
 */
export function mergeKey(relevance: number, preferred: boolean, bonus: number = RANKING.preferenceBonus, earned = 0): number {
  return relevance + earned + (preferred ? bonus : 0);
}
