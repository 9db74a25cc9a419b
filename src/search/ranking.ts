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
   * At most this share of the chains the effort limits keep come from a statement preference: the statement's other
   * rows, weakly matched, would otherwise take every place from a note or MD&A passage that answers.
   */
  statementChainShare: 0.5,
  /** How chains are drafted from a retrieval's hits (src/evidence/chains.ts draftChains). */
  chains: {
    /** Anchors tried per chain wanted: later hits rarely make a better chain than the first ones. */
    anchorsPerChain: 4,
    /**
     * Entries of a chain anchored on a named row: the row and the sentence that explains it. The outlook would
     * follow, but at a 4,000-token cap it costs the room of another row the question needs (ratios need two or three).
     */
    namedRowEntries: 2,
    /** How many pages away from its anchor a graph-less chain may take its other statements. */
    matePageSpan: 1,
    /**
     * An entry's passage (src/core/passages.ts): the statements that follow it in its filing (same page and kind:
     * the next sentences, the next rows of its table), shown in the entry after its own when the token budget has
     * room once the chains are chosen; at most this many statements and characters (docs/PARAMETERS.md).
     */
    passageStatements: 4,
    passageChars: 600,
    /**
     * Under a token budget every chain's sentence entries show the `statements` that follow them before the budget
     * chooses (src/core/passages.ts withLeadPassages), so their passages count against the cap like any entry text
     * and are not left to whatever room the chosen chains leave. A descriptive answer is often the sentence after the
     * one that matched the question's words, in any chain; measured, the room the passages take from later chains
     * cost fewer answers than the passages carried (docs/DECISIONS.md "Lead passages under a budget").
     * Rows keep their room-only passages: a row's next rows are other figures, not the rest of its statement.
     */
    leadPassages: { statements: 2 },
  },
  /**
   * Agreeing filings an entry cites besides its own under a token budget. A restated figure is often in five to ten
   * filings (a table row in each later 10-K's MD&A and statements), and each cited source costs a registry line, a
   * source-key line, a status line and a context line: with every one cited, sources took about 60% of a 4,000-token
   * response and fewer chains fit. So under a budget an entry cites the nearest agreeing filing and counts the rest
   * (Entry.moreSources); without one it cites them all. Confidence counts them all either way. docs/PARAMETERS.md
   * has the measurements.
   */
  agreeingSourcesCited: 1,
  /**
   * Facets of a research question (src/plan/facets.ts): at most this many line-item or period passes, each one more
   * retrieval; the question's own pass is merged first, so at most the effort's chain count still comes back.
   */
  maxFacets: 4,
  /**
   * Shards searched when nothing filters the corpus (basic mode): the best by the lexicon's impact bounds. Every
   * shard is a candidate there, and the effort limits' 6/12 shards per request cycled the Worker's 64 MB artifact
   * cache (warm p50 84 / 337 ms); 4 gave equal or better dev and hold-out figures than 6 or 12 (2 lost hold-out
   * hits).
   */
  unfilteredMaxShards: 4,
  /**
   * The medium limits for a lookup or a ratio (src/search/effort.ts effortLimits): one entry fewer per chain, four
   * chains more. Under a token budget a chain's third entry (an outlook sentence, a period row, a nearby hit) took
   * the room of the next chain, whose anchor may be the row that answers; uncapped, 16 x 2 = 32 statements against
   * 12 x 3 = 36. docs/PARAMETERS.md has the measurements. Low (5 x 2) is already shallow; high keeps its depth for
   * every shape (the effort for multi-part and comparative questions, not measured by the benchmarks).
   * `deepShapes` keep medium's depth: a trend gathers the same line across periods and a comparison the same line
   * across issuers (a chain's further entries are those periods and issuers), and a descriptive answer is a passage,
   * read better as three statements than two; a lookup or a ratio asks for a figure, and its best candidates are
   * spread over many chains.
   */
  mediumBreadth: { maxChains: 16, entriesPerChain: 2, deepShapes: ['trend', 'comparison', 'descriptive'] },
  /**
   * Smallest share of a shard's statements the filters may leave for its HNSW graph to be used; below it, exact
   * scan (src/search/vector-strategy.ts). Filtered HNSW walks through disallowed nodes, so its cost grows as the
   * filter gets more selective (0.6 ms at 50% pass, 12 ms at 2% on 50k vectors), while an exact scan only scores the
   * allowed vectors (0.3 ms per ~500). On a 20k-statement shard (the smallest that gets a graph) with item-level
   * filters, which leave topically clustered statements and are the hard case for a graph, we measured the crossover
   * at 15% (low effort), 17% (medium) and 22% (high): at 20% the scan is ~2.0 ms and the graph 1.3 / 1.7 / 2.4 ms; at
   * 30% the graph wins 1.7-2.9x; at 2% the scan wins 8-30x. 0.25 uses the graph only where it was never slower, and
   * leaves selective filters to the scan, which is also exact (docs/PARAMETERS.md, "Vector search: exact scan or
   * HNSW graph").
   */
  graphMinPassRate: 0.25,
  /**
   * How far past the budget the first read of records reaches, in estimated tokens (skeletons rendered alone,
   * records' sizes: both overestimate). Smaller reads fewer records but needs a second read more often (a round
   * trip): cold, 233 dev questions at 4,000 tokens, research, 1.0: a second read in 173 of 233, median 14 record
   * reads; 1.5: 63, 13; 2.5: none, 14 (docs/PARAMETERS.md).
   */
  firstReadShare: 2.5,
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

/**
 * A chain's order within its relevance_score from its hits' fused scores and its shape (the sums are the ranking's).
 */
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
 * How a chain ranks, by part, on the one scale: `score` = relevance.score (the reported 0-10 relevance_score) +
 * order.total (its order within that score, below 1) + preference (the points a ranking preference (a named section,
 * quarter, statement, filing or year) gave it when passes merged). Built here only (rankChain, withPreference) and
 * carried by the chain from drafting to the response's trace: it is the chain's `explain`.
 */
export interface ChainRank {
  relevance: RelevanceParts;
  order: ChainOrderParts;
  preference: number;
  score: number;
}

/** A drafted chain's rank: its relevance and its order within it; no preference yet. */
export function rankChain(relevance: RelevanceParts, order: ChainOrderParts): ChainRank {
  return { relevance, order, preference: 0, score: relevance.score + order.total };
}

/** The rank with the preference points the merges of a request's passes gave the chain (the score it is ordered by). */
export function withPreference(rank: ChainRank, points: number): ChainRank {
  return { ...rank, preference: points, score: rank.score + points };
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
