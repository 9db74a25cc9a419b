/**
 * What the per-isolate artifact cache holds and what it really costs: runs the dev questions (FinanceBench dev,
 * docugami 10-Q dev, dev-2; medium effort, 4,000 tokens) in process through the partitioned reader and the Worker's
 * ArtifactCache at its default budget, twice in the same order, then reports
 *   - per pass: storage reads, cache misses and evictions (the second pass is warm only if the list's working set
 *     fits the budget);
 *   - per kind of entry (shard heads with what was filled in, term blocks, issuer tables): what the cache charged
 *     and what freeing them gave back to the heap (gc before and after), so a charge that drifts from real memory
 *     shows up here rather than as an isolate over its 128 MB limit.
 *
 *   npm run bench:memory -- <version dir> [research|basic]
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ArtifactCache } from '../src/adapters/artifact-cache';
import { partitionedReader } from '../index-format/partitioned-reader';
import { runQuery } from '../src/core/run-query';
import { decodeDirectory, decodeManifest } from '../index-format/codec';
import type { StoredRef } from '../index-format/types';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const [dir, mode = 'research'] = process.argv.slice(2);
if (!dir) throw new Error('usage: npm run bench:memory -- <version dir> [research|basic]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:memory does)');

const questions = devQuestions(ROOT, SHARED);

let reads = 0;
const readFile = (file: string) => {
  reads++;
  return new Uint8Array(readFileSync(join(dir, file)));
};
const manifest = decodeManifest(new TextDecoder().decode(readFile('manifest.json')));
const directory = decodeDirectory(readFile(manifest.directory.file));
const cache = new ArtifactCache();
// Keyed as src/adapters/r2-index.ts keys them: a shard read by ranges under its file and `#head`.
const keyOf = (ref: StoredRef) => (ref.prefix ? `${ref.file}#head` : ref.file);
const reader = partitionedReader(
  manifest,
  directory,
  async <T>(ref: StoredRef, decode: (b: Uint8Array) => T, size: (v: T) => number): Promise<T> => {
    const hit = cache.get<T>(keyOf(ref));
    if (hit !== undefined) return hit;
    const bytes = readFile(ref.file);
    const value = decode(ref.prefix ? bytes.subarray(0, ref.prefix.bytes) : bytes);
    return cache.set(keyOf(ref), value, size(value));
  },
  async (ref, offset, length) => readFile(ref.file).subarray(offset, offset + length),
  (ref, bytes) => cache.resize(keyOf(ref), bytes),
);

const mb = (b: number) => (b / 1e6).toFixed(1);
for (let pass = 1; pass <= 2; pass++) {
  const before = cache.stats();
  const readsBefore = reads;
  for (const question of questions) {
    const req = ResearchRequest.parse({
      query: question,
      mode,
      effort: 'medium',
      retrieval: { max_evidence_tokens: 4000 },
    });
    await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  }
  const after = cache.stats();
  console.log(
    `${mode} pass ${pass}: ${questions.length} questions, ${reads - readsBefore} reads, ` +
      `${after.misses - before.misses} misses, ${after.evictions - before.evictions} evictions; cache ` +
      `${mb(after.bytes)} of ${mb(after.budget)} MB, ${after.entries} entries`,
  );
}

const heap = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const kindOf = (key: string) =>
  key.startsWith('shards/')
    ? 'shard heads'
    : key.startsWith('terms/')
      ? 'term blocks'
      : key.startsWith('issuers/')
        ? 'issuer tables'
        : 'other';
const charges = new Map(cache.charges());
console.log('\n| entries | count | charged MB | freed from the heap MB | freed / charged |');
console.log('|---|---|---|---|---|');
for (const kind of ['shard heads', 'term blocks', 'issuer tables', 'other']) {
  const keys = [...charges.keys()].filter((k) => kindOf(k) === kind);
  if (!keys.length) continue;
  const charged = keys.reduce((sum, k) => sum + charges.get(k)!, 0);
  const before = heap();
  for (const k of keys) cache.delete(k);
  const freed = before - heap();
  console.log(`| ${kind} | ${keys.length} | ${mb(charged)} | ${mb(freed)} | ${(freed / charged).toFixed(2)} |`);
}
