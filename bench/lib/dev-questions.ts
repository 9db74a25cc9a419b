import { join } from 'node:path';
import { readJsonl } from './jsonl';

/**
 * The dev questions the in-process benchmarks run, in this order: FinanceBench dev and docugami 10-Q dev (from the
 * shared bench) and dev-2 (the project's own). Never the blind set.
 */
export function devQuestions(root: string, shared: string): string[] {
  return [
    ...readJsonl<{ question: string }>(join(shared, 'bench/financebench-dev.jsonl')),
    ...readJsonl<{ question: string }>(join(shared, 'bench/docugami-10q-dev.jsonl')),
    ...readJsonl<{ question: string }>(join(root, 'bench/dev-2/questions.jsonl')),
  ].map((q) => q.question);
}
