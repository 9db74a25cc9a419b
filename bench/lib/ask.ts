import type { IndexReader } from '../../index-format/index-reader';
import { runQuery, type QueryOutcome } from '../../src/core/run-query';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../index-format/normalize';
import { parseEvidence, type EvidenceEntry } from './evidence';

/** A question as the in-process benches and the quality floors ask it. */
export interface InProcessAsk {
  query: string;
  mode: string;
  /** Default medium. */
  effort?: string;
  /** The token cap; null asks uncapped. */
  cap: number | null;
  /** The caller's metadata_filters, as a request body carries them. */
  filters?: Record<string, unknown>;
}

/**
 * runQuery (the pure core, no Worker) on a request body validated as the API validates it, with the response's
 * evidence read back into entries (bench/lib/evidence.ts).
 */
export async function askInProcess(
  reader: IndexReader,
  ask: InProcessAsk,
): Promise<QueryOutcome & { entries: EvidenceEntry[] }> {
  const req = ResearchRequest.parse({
    query: ask.query,
    mode: ask.mode,
    effort: ask.effort ?? 'medium',
    ...(ask.cap === null ? {} : { retrieval: { max_evidence_tokens: ask.cap } }),
    ...(ask.filters ? { metadata_filters: ask.filters } : {}),
  });
  const outcome = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  return { ...outcome, entries: parseEvidence(outcome.body.evidence) };
}
