import type { EpistemicStatus, StatementKind } from '../format/types';

export type Confidence = 'High' | 'Medium' | 'Low';

/** One cited occurrence of a claim. */
export interface EntrySource {
  source: number; // catalog source index
  status: EpistemicStatus;
  page: number;
  kind: StatementKind;
}

/** One claim and every source that states it. */
export interface Entry {
  consensus: string;
  sources: EntrySource[];
  confidence: Confidence;
}

/** An evidence path: related entries, ordered, with a 0-10 relevance score. */
export interface Chain {
  relevance: number;
  score: number;
  entries: Entry[];
}
