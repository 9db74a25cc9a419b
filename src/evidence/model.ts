import type { ChainRank } from '../search/ranking';
import type { EpistemicStatus, StatementKind } from '../../index-format/types';

export type Confidence = 'High' | 'Medium' | 'Low';

/** One cited occurrence of a claim. */
export interface EntrySource {
  source: number; // catalog source index
  status: EpistemicStatus;
  page: number;
  kind: StatementKind;
  /** What this source adds, e.g. "same value for FY2018, FY2017" (restated rows), or a differing value. */
  note?: string;
}

/** One claim and every source that states it; sources stating a different value are kept apart. */
export interface Entry {
  consensus: string;
  sources: EntrySource[];
  /**
   * Further filings (within the caller's filters) that state the same claim, counted but not cited
   * (RANKING.agreeingSourcesCited).
   */
  moreSources?: number;
  /** Other filings that give a different value for the same row and period (never merged into `sources`). */
  disagreements?: EntrySource[];
  confidence: Confidence;
  /** Primary metric code of the claim (index-format/metrics.ts), for the glossary; absent or 0 = none. */
  metric?: number;
}

/** An evidence path: related entries, ordered, with a 0-10 relevance score. */
export interface Chain {
  relevance: number;
  score: number;
  entries: Entry[];
  /** Each ranking signal's part in the score the chain ranked with (src/search/ranking.ts ChainRank), for the trace. */
  explain?: ChainRank;
}
