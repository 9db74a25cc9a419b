import { readFileSync } from 'node:fs';

/** The rows of a JSON-lines file (blank lines skipped), for the benchmark's question sets. */
export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
