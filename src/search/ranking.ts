/**
 * Every ranking signal, combined in one place from one parameters object, on one scale. Retrieval normalises each
 * leg once and fuses them into a 0-1 score (`normaliseLeg`, `fusedScore`); a chain ranks on relevance points: its
 * relevance_score (`chainRelevance`), its order within that score, below one point (`chainOrder`, from the fused
 * scores of its hits), and the preference points of the merges of a request's passes (`mergeKey`). Each combination
 * returns its parts, so a chain explains its score (`Chain.explain`, traced per response). docs/PARAMETERS.md gives
 * every value and how it was chosen; the values below must match it.
 */
export const RANKING = {
  /**
   * Weight of each leg in the fusion, applied to its normalised score (each leg's score divided by its best among
   * the retrieval's candidates, as Orama fuses its hybrid legs), so the fused score is 0-1. The vector leg's
   * corpus-trained vectors rank boilerplate that shares the question's topic above the row that states the figure,
   * so it weighs less than the lexical leg (docs/PARAMETERS.md "Fusion").
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
  /** relevance_score (0-10): 60% query-term coverage, 40% best cosine; coverage 75% best entry, 25% whole chain. */
  relevance: { termCoverage: 0.6, cosine: 0.4, bestEntry: 0.75, wholeChain: 0.25, metricRowBonus: 2 },
  /**
   * The order of chains within one relevance_score, in points below 1, so it never lifts a chain past the next
   * score: `namedRow` for a chain anchored on a named row (its relevance bonus is lost to the 0-10 clamp when prose
   * also reaches 10), `graph` for a chain built along graph edges (a fact with the sentence that explains it beats
   * statements that merely share an item), then `retrieval` times the anchor's fused score plus `mateShare` of each
   * other hit's (capped at 1). namedRow > graph + retrieval and graph > retrieval keep that precedence.
   */
  order: { namedRow: 0.5, graph: 0.25, retrieval: 0.2, mateShare: 0.1 },
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

/**
 * A leg's score normalised to 0-1 by the best score among its candidates. Dividing by the best, not stretching the
 * range between worst and best, keeps a leg whose candidates all score alike (the cosines of one topic) from
 * spreading them over the whole scale (min-max lost on the tuning half: docs/PARAMETERS.md "Fusion").
 */
export function normaliseLeg(score: number, best: number): number {
  return best > 0 ? Math.max(0, score) / best : 0;
}

/** The fused retrieval score, 0-1: the legs' normalised scores, weighted (RANKING.legWeight). */
export function fusedScore(lexical: number, cosine: number): number {
  const w = RANKING.legWeight;
  return (w.lexical * lexical + w.cosine * cosine) / (w.lexical + w.cosine);
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
  return withBestCosine(
    {
      bestEntry: total ? best / total : 0,
      wholeChain: total ? matched / total : 0,
      cosine: 0,
      metricRowBonus: metricRow ? p.metricRowBonus : 0,
      score: 0,
    },
    bestCosine,
  );
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

export interface ChainOrderParts {
  /** RANKING.order.retrieval x min(1, anchor fused + mateShare x each mate's fused). */
  retrieval: number;
  graph: number;
  namedRow: number;
  /** The sum, below 1. */
  total: number;
}

/** A chain's order within its relevance_score from its hits' fused scores and its shape (the sums are the ranking's). */
export function chainOrder(
  anchorFused: number,
  mateFused: readonly number[],
  alongGraph: boolean,
  namedRow: boolean,
): ChainOrderParts {
  const p = RANKING.order;
  let fused = anchorFused;
  for (const f of mateFused) fused += p.mateShare * f;
  const retrieval = p.retrieval * Math.min(1, fused);
  const graph = alongGraph ? p.graph : 0;
  const named = namedRow ? p.namedRow : 0;
  return { retrieval, graph, namedRow: named, total: retrieval + graph + named };
}

/**
 * The score a merge of chain lists orders by, on the one scale every chain is ranked on: its rank score
 * (relevance_score plus its order), plus the bonus of the preferred side, plus what it earned from its own pass's
 * preference.
 */
export function mergeKey(
  score: number,
  preferred: boolean,
  bonus: number = RANKING.preferenceBonus,
  earned = 0,
): number {
  return score + earned + (preferred ? bonus : 0);
}
