/**
 * npm run bench:scale -- --serve: the Worker at 1x and 4x the corpus, measured by the Worker itself. Publishes each
 * index `npm run bench:scale` built (bench/.cache/scale/artifacts-<n>x) to its own local R2/KV state, serves it with
 * `wrangler dev` (workerd), and sends the same questions (FinanceBench dev, docugami 10-Q dev, dev-2) in basic and
 * research mode:
 *   - warm: the default caches; each question asked twice in a row, the second measured (what the query needs is in
 *     the isolate's cache: the query's own work, which must not grow with the corpus), the modes interleaved per
 *     question (askInterleaved);
 *   - cycled: then the whole list once more, in the same order, measured: warm only as far as the list's working set
 *     (every shard head, list and record the 233 questions touch) fits the cache budget, which it does not at every
 *     size (docs/RANGE-READS.md "What a cached shard costs"); reported with its share of requests that read storage;
 *   - cold: ARTIFACT_CACHE_SCOPE=request and EDGE_CACHE=off, so every request starts with an empty artifact cache
 *     and reads what it needs from R2, as a fresh isolate in a colo with nothing cached would (the isolate's modules
 *     are loaded already: this is the artifact-cold path).
 *   - fresh: a new `wrangler dev` per question (SCALE_SERVE_FRESH of them, default 12, spread evenly over the whole
 *     question list: the first few FinanceBench questions are heavier than the median), its first query measured;
 *     the readiness probe (GET /metadata-filters) has read the pointer, manifest and directory before it.
 * Reports, per corpus and mode, the Worker's own `ms` p50/p95 and the storage bytes of cold requests (median, max),
 * from its log lines. Writes bench/results/scale-serve.json. SCALE_SERVE_QUESTIONS=n sends only the first n questions.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runPublish } from '../index-builder/cli/cli';
import { startWranglerDev, type WorkerLogLine } from './load/server';
import { readJsonl } from './lib/jsonl';
import { fmt, percentile } from './load/stats';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const CACHE = join(ROOT, 'bench/.cache/scale');
const KEYS = Array.from({ length: 8 }, (_, i) => `scale-key-${i}`);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export interface ServeRow {
  factor: number;
  mode: string;
  questions: number;
  warmP50: number;
  warmP95: number;
  cycledP50: number;
  cycledP95: number;
  /** Share of cycled requests that read anything from storage (a cache miss somewhere). */
  cycledMissShare: number;
  coldP50: number;
  coldP95: number;
  coldStorageMedian: number;
  coldStorageMax: number;
  coldObjectsMedian: number;
  /**
   * A fresh wrangler dev (new isolate: modules, hnswlib and every artifact loaded) per question, FRESH_QUESTIONS of
   * them spread over the list.
   */
  freshP50: number;
  freshMax: number;
  /** Of a fresh isolate's request, the median ms of storage loads and of the query's own work (log timings_ms). */
  freshLoadP50: number;
  freshComputeP50: number;
  /** The same split for artifact-cold requests. */
  coldLoadP50: number;
  coldComputeP50: number;
  errors: number;
}

/** How many questions get a fresh isolate each (a wrangler dev start per question, so few). */
const FRESH_QUESTIONS = Number(process.env.SCALE_SERVE_FRESH) || 12;

/** n questions spread evenly over the list (every k-th), so a small sample is not one benchmark's first few. */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (n >= items.length) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function questions(): string[] {
  return [
    ...readJsonl<{ question: string }>(join(SHARED, 'bench/financebench-dev.jsonl')),
    ...readJsonl<{ question: string }>(join(SHARED, 'bench/docugami-10q-dev.jsonl')),
    ...readJsonl<{ question: string }>(join(ROOT, 'bench/dev-2/questions.jsonl')),
  ]
    .map((q) => q.question)
    .slice(0, Number(process.env.SCALE_SERVE_QUESTIONS) || undefined);
}

/**
 * Sends each question in `mode` (`times` in a row) and returns the Worker's log line of each question's last
 * request. Requests rotate over the bench's keys from `firstKey`, so no key reaches its rate limit.
 */
async function ask(
  base: string,
  lines: WorkerLogLine[],
  qs: string[],
  mode: string,
  times = 1,
  firstKey = 0,
): Promise<WorkerLogLine[]> {
  const out: WorkerLogLine[] = [];
  for (const [i, query] of qs.flatMap((q) => Array<string>(times).fill(q)).entries()) {
    const res = await fetch(`${base}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEYS[(firstKey + i) % KEYS.length]! },
      body: JSON.stringify({ query, mode, retrieval: { max_evidence_tokens: 4000 } }),
    });
    await res.arrayBuffer();
    const id = res.headers.get('x-request-id');
    // The log line arrives on wrangler's stdout shortly after the response.
    for (let k = 0; k < 100 && !lines.some((l) => l.request_id === id); k++)
      await new Promise((r) => setTimeout(r, 10));
    const line = lines.find((l) => l.request_id === id);
    if (!line) throw new Error(`no log line for request ${id}`);
    if ((i + 1) % times === 0) out.push(line);
  }
  return out;
}

/**
 * `ask` for several modes, interleaved: per question each mode in turn (the order rotating from one question to the
 * next), so no mode runs on code the others have already made hot. Asked mode by mode, basic read 4 ms at p50 when
 * asked first and 3 when asked after research (1x, 233 questions, each asked twice).
 */
async function askInterleaved(
  base: string,
  lines: WorkerLogLine[],
  qs: string[],
  modes: readonly string[],
  times: number,
): Promise<Map<string, WorkerLogLine[]>> {
  const out = new Map(modes.map((m) => [m, [] as WorkerLogLine[]]));
  for (const [i, q] of qs.entries()) {
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(i + k) % modes.length]!;
      out.get(mode)!.push(...(await ask(base, lines, [q], mode, times, (i * modes.length + k) * times)));
    }
  }
  return out;
}

export async function serveScale(factors: number[], port = 8797): Promise<ServeRow[]> {
  const qs = questions();
  const rows: ServeRow[] = [];
  for (const factor of factors) {
    const artifacts = join(CACHE, `artifacts-${factor}x`);
    if (!existsSync(join(artifacts, 'sp500', 'LATEST')))
      throw new Error(`no ${factor}x index in ${artifacts}: run npm run bench:scale first`);
    const persistDir = join(CACHE, `state-${factor}x`);
    mkdirSync(persistDir, { recursive: true });
    await runPublish(artifacts, { remote: false, persistDir });
    const results = new Map<string, { warm: WorkerLogLine[]; cycled: WorkerLogLine[]; cold: WorkerLogLine[] }>();
    for (const phase of ['warm', 'cold'] as const) {
      const vars: Record<string, string> = {
        API_KEY_HASHES: KEYS.map(sha256).join(','),
        ...(phase === 'cold' ? { ARTIFACT_CACHE_SCOPE: 'request', EDGE_CACHE: 'off' } : {}),
      };
      const server = await startWranglerDev({ port, inspectorPort: port + 1, persistDir, vars, readyKey: KEYS[0]! });
      try {
        const modes = ['basic', 'research'];
        const warm = phase === 'warm' ? await askInterleaved(server.base, server.lines, qs, modes, 2) : null;
        for (const mode of modes) {
          const entry = results.get(mode) ?? { warm: [], cycled: [], cold: [] };
          if (warm) {
            entry.warm = warm.get(mode)!;
            entry.cycled = await ask(server.base, server.lines, qs, mode);
          } else entry.cold = await ask(server.base, server.lines, qs, mode);
          results.set(mode, entry);
        }
      } finally {
        await server.stop();
      }
    }
    // Fresh isolates: a new wrangler dev per question, its first request measured.
    const fresh = new Map<string, WorkerLogLine[]>();
    const vars = { API_KEY_HASHES: KEYS.map(sha256).join(','), EDGE_CACHE: 'off' };
    for (const mode of ['basic', 'research']) {
      const lines: WorkerLogLine[] = [];
      for (const q of spread(qs, FRESH_QUESTIONS)) {
        const server = await startWranglerDev({ port, inspectorPort: port + 1, persistDir, vars, readyKey: KEYS[0]! });
        try {
          // The readiness probe (GET /metadata-filters) loaded the directory; drop nothing else: this is the first
          // query.
          lines.push(...(await ask(server.base, server.lines, [q], mode)));
        } finally {
          await server.stop();
        }
      }
      fresh.set(mode, lines);
    }
    for (const [mode, { warm, cycled, cold }] of results) {
      const ms = (ls: WorkerLogLine[]) => ls.map((l) => l.ms);
      const stage = (ls: WorkerLogLine[], name: string) => ls.map((l) => l.timings_ms?.[name] ?? 0);
      const storage = cold.map((l) => l.storage_bytes ?? 0);
      rows.push({
        factor,
        mode,
        questions: qs.length,
        warmP50: percentile(ms(warm), 50),
        warmP95: percentile(ms(warm), 95),
        cycledP50: percentile(ms(cycled), 50),
        cycledP95: percentile(ms(cycled), 95),
        cycledMissShare: cycled.filter((l) => (l.storage_bytes ?? 0) > 0).length / cycled.length,
        coldP50: percentile(ms(cold), 50),
        coldP95: percentile(ms(cold), 95),
        coldStorageMedian: percentile(storage, 50),
        coldStorageMax: Math.max(...storage),
        coldObjectsMedian: percentile(
          cold.map((l) => l.objects_read ?? 0),
          50,
        ),
        freshP50: percentile(ms(fresh.get(mode)!), 50),
        freshMax: Math.max(...ms(fresh.get(mode)!)),
        freshLoadP50: percentile(stage(fresh.get(mode)!, 'load'), 50),
        freshComputeP50: percentile(stage(fresh.get(mode)!, 'retrieve_render'), 50),
        coldLoadP50: percentile(stage(cold, 'load'), 50),
        coldComputeP50: percentile(stage(cold, 'retrieve_render'), 50),
        errors: [...warm, ...cycled, ...cold].filter((l) => l.status !== 200).length,
      });
    }
  }
  console.log(
    '\n| corpus | mode | warm p50 / p95 ms | cycled p50 / p95 ms (reading storage) | cold p50 / p95 ms | ' +
      'fresh isolate p50 / max ms | cold storage median / max KB | cold objects (median) | errors |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.factor}x | ${r.mode} | ${fmt(r.warmP50)} / ${fmt(r.warmP95)} | ${fmt(r.cycledP50)} / ` +
        `${fmt(r.cycledP95)} (${(100 * r.cycledMissShare).toFixed(0)}%) | ${fmt(r.coldP50)} / ` +
        `${fmt(r.coldP95)} | ${fmt(r.freshP50)} / ${fmt(r.freshMax)} | ` +
        `${(r.coldStorageMedian / 1000).toFixed(0)} / ${(r.coldStorageMax / 1000).toFixed(0)} | ` +
        `${r.coldObjectsMedian} | ${r.errors} |`,
    );
  }
  // Where cold time goes: storage loads (overlapping ones counted once) against the query's own work.
  console.log('\n| corpus | mode | cold: load / query p50 ms | fresh isolate: load / query p50 ms |');
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.factor}x | ${r.mode} | ${fmt(r.coldLoadP50)} / ${fmt(r.coldComputeP50)} | ` +
        `${fmt(r.freshLoadP50)} / ${fmt(r.freshComputeP50)} |`,
    );
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench/results/scale-serve.json'),
    `${JSON.stringify({ when: new Date().toISOString(), rows }, null, 2)}\n`,
  );
  return rows;
}
