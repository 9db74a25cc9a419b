/**
 * The dev companies' split into a tuning half and a check half (bench/split.json): ranking is tuned on questions
 * about tuning companies, and a change is kept only when the check half gains. A question's company is the ticker
 * of the filing its gold evidence is in (FinanceBench, dev-2) or of its source filings (docugami).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from './jsonl';

export type Half = 'tuning' | 'check';

interface SplitFile {
  tuning: string[];
  check: string[];
}

/** Reads bench/split.json and the corpus's documents.jsonl: the half of a corpus doc_id's company. */
export function loadSplit(
  root: string,
  shared: string,
): { halfOfDoc: (docId: string) => Half; halfOfTicker: (ticker: string) => Half } {
  const split = JSON.parse(readFileSync(join(root, 'bench/split.json'), 'utf8')) as SplitFile;
  const check = new Set(split.check);
  const tuning = new Set(split.tuning);
  const tickerOf = new Map(
    readJsonl<{ doc_id: string; ticker: string }>(join(shared, 'corpus/filings/documents.jsonl')).map((d) => [
      d.doc_id,
      d.ticker,
    ]),
  );
  const halfOfTicker = (ticker: string): Half => {
    if (check.has(ticker)) return 'check';
    if (tuning.has(ticker)) return 'tuning';
    throw new Error(`${ticker} is in neither half of bench/split.json`);
  };
  const halfOfDoc = (docId: string): Half => {
    const ticker = tickerOf.get(docId);
    if (!ticker) throw new Error(`${docId} is not in the corpus's documents.jsonl`);
    return halfOfTicker(ticker);
  };
  return { halfOfDoc, halfOfTicker };
}

/** QE_HALF=tuning|check (or unset: both) for the quick evals. */
export function halfFromEnv(): Half | null {
  const v = process.env.QE_HALF;
  if (!v) return null;
  if (v !== 'tuning' && v !== 'check') throw new Error('QE_HALF must be tuning or check');
  return v;
}
