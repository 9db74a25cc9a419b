/**
 * Bytes a cold query reads (nothing cached: a fresh isolate in a colo whose cache holds nothing), per question, on
 * one or more built index versions: what the Worker's storage_bytes would log. Runs runQuery in process over the
 * file reader, which reads the same objects the Worker does (neither uses HNSW graphs below GRAPH_MIN_STATEMENTS,
 * and no shard of the shared corpus reaches it).
 *
 *   npm run bench:cold -- <version dir> [<version dir> ...]     (SHARD_READS=whole: whole shards, the slow twin)
 * Every question is asked once in each mode first, unmeasured, to warm the JIT (COLD_WARMUP=0 skips it).
 * STORAGE_LATENCY_MS=n: every read resolves n ms later, as remote storage would, and each query is timed: its time
 * over n is about how many reads it waits for one after another (round trips), whatever the machine.
 * Questions: FinanceBench dev, docugami 10-Q dev and dev-2 (COLD_QUESTIONS=n: n of them, spread over the list); modes
 * basic and research (medium effort, 4,000 tokens).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { decodeArtifactHead } from '../index-format/container';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { openFileIndex } from '../test/support/file-index';
import { askInProcess } from './lib/ask';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const dirs = process.argv.slice(2);
if (!dirs.length) throw new Error('usage: tsx bench/cold-bytes.ts <version dir> [...]');

// COLD_QUESTIONS=n: n questions spread evenly over the list (every k-th), for a quicker run.
const all = devQuestions(ROOT, SHARED);
const take = Number(process.env.COLD_QUESTIONS) || all.length;
const questions = Array.from(
  { length: Math.min(take, all.length) },
  (_, i) => all[Math.floor((i * all.length) / Math.min(take, all.length))]!,
);

/** What kind of object a file is, by its place in the version's layout (docs/DECISIONS.md "Partitioned index"). */
const objectKind = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);

/** Where each section of a shard object starts (the head is everything before the postings). */
const sectionStarts = new Map<string, [string, number][]>();
function shardPart(dir: string, file: string, offset: number): string {
  let starts = sectionStarts.get(file);
  if (!starts) {
    const head = decodeArtifactHead(new Uint8Array(readFileSync(join(dir, file))), 'shard');
    starts = Object.entries(head.places)
      .map(([name, p]) => [name, p.start] as [string, number])
      .sort((a, b) => a[1] - b[1]);
    sectionStarts.set(file, starts);
  }
  if (offset < starts.find(([name]) => name === 'postings')![1]) return 'head';
  return starts.filter(([, start]) => start <= offset).at(-1)![0];
}

/**
 * A read's kind: its object's, and for a range of a shard the part it reads (head with its codes, postings, records).
 */
const kindOf = (dir: string, file: string, offset: number, bytes: number, shardReads: string) =>
  objectKind(file) === 'shards' && shardReads === 'ranges' && !file.includes('graph')
    ? `shards: ${shardPart(dir, file, offset + bytes - 1)}`
    : objectKind(file);

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const kb = (b: number) => (b / 1000).toFixed(1);

// Every question once in each mode before anything is measured (COLD_WARMUP=0: none): the JIT is otherwise warmed
// by the first version's questions, and the version asked first looked up to 1.3x slower warm than the same code
// asked second. A fresh reader per question, as measured below, so the cold-read path is warmed too.
if (process.env.COLD_WARMUP !== '0')
  for (const mode of ['basic', 'research'])
    for (const question of questions) await askInProcess(openFileIndex(dirs[0]!), { query: question, mode, cap: 4000 });

for (const dir of dirs) {
  for (const mode of ['basic', 'research']) {
    const totals: number[] = [];
    const objects: number[] = [];
    const byKind = new Map<string, number[]>();
    const readsByKind = new Map<string, number[]>();
    let largest = { file: '', bytes: 0 };
    const latencyMs = Number(process.env.STORAGE_LATENCY_MS) || 0;
    const elapsed: number[] = [];
    const warm: number[] = [];
    for (const question of questions) {
      // Bytes per file (a shard is read as its head and then ranges), and every read's size.
      const kinds = new Map<string, number>();
      const kindReads = new Map<string, number>();
      let count = 0;
      let total = 0;
      let counting = true;
      const shardReads = process.env.SHARD_READS === 'whole' ? 'whole' : 'ranges';
      const reader = openFileIndex(dir, {
        shardReads,
        latencyMs,
        onRead: (file, bytes, offset) => {
          if (!counting) return; // the warm run: its reads are not what a cold query reads
          const kind = kindOf(dir, file, offset, bytes, shardReads);
          kinds.set(kind, (kinds.get(kind) ?? 0) + bytes);
          kindReads.set(kind, (kindReads.get(kind) ?? 0) + 1);
          total += bytes;
          count++;
          if (bytes > largest.bytes) largest = { file: `${file} (${kind})`, bytes };
        },
      });
      const req = ResearchRequest.parse({
        query: question,
        mode,
        effort: 'medium',
        retrieval: { max_evidence_tokens: 4000 },
      });
      const started = performance.now();
      await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      elapsed.push(performance.now() - started);
      // The same question again on the same reader: every whole object it read is decoded and held (shard ranges are
      // read again, from the page cache): the query's own work, which must not grow with the corpus.
      counting = false;
      const warmStarted = performance.now();
      await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      warm.push(performance.now() - warmStarted);
      for (const k of new Set([...byKind.keys(), ...kinds.keys()])) {
        if (!byKind.has(k)) byKind.set(k, new Array(totals.length).fill(0));
        byKind.get(k)!.push(kinds.get(k) ?? 0);
        if (!readsByKind.has(k)) readsByKind.set(k, new Array(totals.length).fill(0));
        readsByKind.get(k)!.push(kindReads.get(k) ?? 0);
      }
      totals.push(total);
      objects.push(count);
    }
    console.log(
      `${dir} ${mode}: ${questions.length} questions, cold bytes per query median ` +
        `${kb(quantile(totals, 0.5))} KB, p90 ${kb(quantile(totals, 0.9))} KB, p95 ` +
        `${kb(quantile(totals, 0.95))} KB, max ${kb(Math.max(...totals))} KB; reads (objects and ranges) ` +
        `median ${quantile(objects, 0.5)}, p90 ${quantile(objects, 0.9)}, max ${Math.max(...objects)}; largest ` +
        `read ${largest.file} ${kb(largest.bytes)} KB`,
    );
    console.log(
      `    warm (same reader, asked again): p50 ${quantile(warm, 0.5).toFixed(1)} ms, p95 ` +
        `${quantile(warm, 0.95).toFixed(1)} ms (load ${loadavg()[0]!.toFixed(1)})`,
    );
    if (latencyMs) {
      const p50 = quantile(elapsed, 0.5);
      const p95 = quantile(elapsed, 0.95);
      console.log(
        `    with ${latencyMs} ms per read: p50 ${p50.toFixed(0)} ms (${(p50 / latencyMs).toFixed(1)} round ` +
          `trips), p95 ${p95.toFixed(0)} ms (${(p95 / latencyMs).toFixed(1)})`,
      );
    }
    for (const [k, xs] of [...byKind].sort()) {
      const rs = readsByKind.get(k)!;
      console.log(
        `    ${k.padEnd(16)} median ${kb(quantile(xs, 0.5)).padStart(8)} KB  max ` +
          `${kb(Math.max(...xs)).padStart(8)} KB  reads median ${quantile(rs, 0.5)}, max ${Math.max(...rs)}`,
      );
    }
  }
}
