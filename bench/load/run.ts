/**
 * npm run bench:load — a bounded load test of the Worker served by `wrangler dev` (workerd) on loopback.
 *
 *   --duration <s>        seconds per concurrency level (default 60)
 *   --concurrency <list>  comma-separated connection counts (default 1,8,32)
 *   --cache-bytes <n>     ARTIFACT_CACHE_BYTES for this run (default: wrangler.toml's 64 MiB); a budget smaller than
 *   the index's working set shows eviction under load
 *   --limiter-seconds <s> length of the final rate-limiter phase, one key over its limit (default 10; 0 skips it)
 *   --out <file>          JSON results (default bench/load/results/last-run.json)
 *   --mix sample|corpus   request mix (default: sample for the sample corpus, corpus for any other FILINGS_DIR)
 *   PORT / INSPECTOR_PORT (default 8787 / 9229), FILINGS_DIR (default: the sample corpus the mix is written for)
 *
 * Builds the index if needed (or reuses it), publishes it to local R2/KV, starts wrangler dev with 64 generated API
 * keys (only their hashes are configured), warms every request of the mix once, then runs the mix at each
 * concurrency with autocannon. Reports throughput, client-side p50/p99, status counts (every request is valid: any
 * non-2xx is an error), server-side latency per mode and the artifact cache's bytes from the Worker's log lines.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { DOMAIN } from '../../index-builder/build';
import {
  DEFAULT_ARTIFACTS_DIR,
  DEFAULT_FILINGS_DIR,
  latestVersionDir,
  runBuild,
  runPublishLocal,
} from '../../index-builder/cli/cli';
import { DEFAULT_PERSIST_DIR } from '../../index-builder/publish/storage';
import { CORPUS_MIX, SAMPLE_MIX, type MixEntry } from './mix';
import { startWranglerDev, type DevServer, type WorkerLogLine } from './server';
import { fmt, percentile } from './stats';

const KEY_COUNT = 64;
const LIMITER_KEY = 'load-limiter-key';

interface Options {
  duration: number;
  concurrency: number[];
  cacheBytes: number | null;
  limiterSeconds: number;
  out: string;
  mix: MixEntry[];
  port: number;
  inspectorPort: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    duration: 60,
    concurrency: [1, 8, 32],
    cacheBytes: null,
    limiterSeconds: 10,
    out: 'bench/load/results/last-run.json',
    mix:
      resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR) === resolve(DEFAULT_FILINGS_DIR)
        ? SAMPLE_MIX
        : CORPUS_MIX,
    port: Number(process.env.PORT ?? 8787),
    inspectorPort: Number(process.env.INSPECTOR_PORT ?? 9229),
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    const positive = (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${flag}: expected a non-negative integer, got ${v}`);
      return n;
    };
    if (flag === '--duration') opts.duration = Math.max(1, positive(value));
    else if (flag === '--concurrency') opts.concurrency = value.split(',').map((v) => Math.max(1, positive(v.trim())));
    else if (flag === '--cache-bytes') opts.cacheBytes = positive(value);
    else if (flag === '--limiter-seconds') opts.limiterSeconds = positive(value);
    else if (flag === '--out') opts.out = value;
    else if (flag === '--mix') {
      if (value !== 'sample' && value !== 'corpus') throw new Error('--mix: sample or corpus');
      opts.mix = value === 'sample' ? SAMPLE_MIX : CORPUS_MIX;
    } else throw new Error(`unknown flag ${flag}`);
  }
  return opts;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Builds (or reuses) the index of FILINGS_DIR and publishes it to the local state wrangler dev serves. */
async function prepareIndex(persistDir: string): Promise<void> {
  const filingsDir = resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR);
  const artifactsDir = resolve(process.env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  const sourceFile = join(artifactsDir, DOMAIN, 'SOURCE');
  const builtFrom = existsSync(sourceFile) ? readFileSync(sourceFile, 'utf8').trim() : null;
  if (builtFrom !== filingsDir || !latestVersionDir(artifactsDir)) {
    console.log(`building the index of ${filingsDir} ...`);
    await runBuild(filingsDir, artifactsDir);
    writeFileSync(sourceFile, `${filingsDir}\n`);
  } else console.log(`reusing the index built from ${filingsDir}`);
  await runPublishLocal(artifactsDir, persistDir);
}

interface PhaseCounts {
  byStatus: Record<string, number>;
  byMode: Record<string, { ok: number; other: number }>;
  invalidBodies: number;
  retryAfterMissing: number;
}

/** The mix as autocannon requests, spread over the keys, each checking its answer. */
function requestsFor(mix: MixEntry[], keys: string[], counts: PhaseCounts): autocannon.Request[] {
  const out: autocannon.Request[] = [];
  for (const key of keys) {
    for (const entry of mix) {
      out.push({
        method: 'POST',
        path: `/v2/${DOMAIN}/query`,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(entry.body),
        // @ts-expect-error onResponse's fourth argument (headers) exists in autocannon 8 but not in @types 7
        onResponse: (status: number, body: string, _context: unknown, headers: Record<string, string>) => {
          counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
          const mode = (counts.byMode[entry.mode] ??= { ok: 0, other: 0 });
          if (status >= 200 && status < 300) mode.ok++;
          else mode.other++;
          // Raw header names keep the server's case.
          if (status === 429 && !Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'retry-after'))
            counts.retryAfterMissing++;
          try {
            const json = JSON.parse(body);
            const valid =
              status === 200
                ? typeof json.request_id === 'string' && typeof json.summary?.evidence_count === 'number'
                : typeof json.detail?.code === 'string';
            if (!valid) counts.invalidBodies++;
          } catch {
            counts.invalidBodies++;
          }
        },
      });
    }
  }
  return out;
}

function runCannon(
  base: string,
  connections: number,
  duration: number,
  requests: autocannon.Request[],
): Promise<autocannon.Result> {
  return new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      { url: new URL(base).origin, connections, duration, timeout: 30, requests },
      (err, result) => {
        if (err) reject(err);
        else resolvePromise(result);
      },
    );
    instance.on('error', reject);
  });
}

interface CacheFigures {
  before: number;
  after: number;
  max: number;
  budget: number;
  entries_after: number;
}

function cacheOf(lines: WorkerLogLine[], before: number): CacheFigures {
  const last = lines.at(-1);
  return {
    before,
    after: last?.cache_bytes ?? before,
    max: Math.max(before, ...lines.map((l) => l.cache_bytes)),
    budget: last?.cache_budget ?? NaN,
    entries_after: last?.cache_entries ?? NaN,
  };
}

function serverLatency(lines: WorkerLogLine[]): Record<string, { n: number; p50: number; p99: number }> {
  const modes = new Map<string, number[]>();
  for (const l of lines) if (l.mode) (modes.get(l.mode) ?? modes.set(l.mode, []).get(l.mode)!).push(l.ms);
  return Object.fromEntries(
    [...modes].map(([m, ms]) => [m, { n: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99) }]),
  );
}

/** Median and p99 of each stage timing (src/http/logging.ts) over the phase's query log lines. */
function stageTimings(lines: WorkerLogLine[]): Record<string, { p50: number; p99: number }> {
  const stages = new Map<string, number[]>();
  for (const l of lines) {
    if (!l.mode) continue;
    for (const [stage, ms] of Object.entries(l.timings_ms ?? {}))
      (stages.get(stage) ?? stages.set(stage, []).get(stage)!).push(ms);
  }
  return Object.fromEntries(
    [...stages].map(([stage, ms]) => [stage, { p50: percentile(ms, 50), p99: percentile(ms, 99) }]),
  );
}

/** Waits until the Worker's log lines for `expected` requests have arrived (they trail the responses slightly). */
async function settle(server: DevServer, expected: number): Promise<void> {
  for (let i = 0; i < 50 && server.lines.length < expected; i++) await new Promise((r) => setTimeout(r, 100));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const persistDir = resolve(process.env.PERSIST_DIR ?? DEFAULT_PERSIST_DIR);
  await prepareIndex(persistDir);

  const keys = Array.from({ length: KEY_COUNT }, (_, i) => `load-key-${i}`);
  const vars: Record<string, string> = { API_KEY_HASHES: [...keys, LIMITER_KEY].map(sha256).join(',') };
  if (opts.cacheBytes !== null) vars.ARTIFACT_CACHE_BYTES = String(opts.cacheBytes);
  console.log(`starting wrangler dev on 127.0.0.1:${opts.port} ...`);
  const server = await startWranglerDev({
    port: opts.port,
    inspectorPort: opts.inspectorPort,
    persistDir,
    vars,
    readyKey: keys[0]!,
  });
  const started = new Date().toISOString();
  try {
    // Warm-up: every request of the mix once, sequentially; each must be a 200 (the mix is valid by construction).
    for (const entry of opts.mix) {
      const res = await fetch(`${server.base}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': keys[0]! },
        body: JSON.stringify(entry.body),
      });
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(`warm-up request "${entry.name}" answered ${res.status}: ${text.slice(0, 400)}`);
    }
    await settle(server, server.lines.length);
    const warmCache = server.lines.at(-1)?.cache_bytes ?? 0;
    let cacheBefore = warmCache;
    console.log(`warm: cache ${cacheBefore} bytes after ${opts.mix.length} requests`);

    const phases = [];
    for (const c of opts.concurrency) {
      const counts: PhaseCounts = { byStatus: {}, byMode: {}, invalidBodies: 0, retryAfterMissing: 0 };
      const from = server.lines.length;
      const loadBefore = loadavg()[0]!;
      process.stdout.write(`c=${c}: ${opts.duration} s ... `);
      const result = await runCannon(server.base, c, opts.duration, requestsFor(opts.mix, keys, counts));
      await settle(server, from + result.requests.total);
      const lines = server.lines.slice(from);
      const cache = cacheOf(lines, cacheBefore);
      cacheBefore = cache.after;
      const phase = {
        concurrency: c,
        duration_s: opts.duration,
        requests: result.requests.total,
        throughput_rps: result.requests.average,
        latency_ms: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
        },
        status_counts: counts.byStatus,
        non_2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        invalid_bodies: counts.invalidBodies,
        by_mode: counts.byMode,
        server_ms_by_mode: serverLatency(lines),
        server_stage_ms: stageTimings(lines),
        log_lines: lines.length,
        cache,
        // 1-minute load average of this 2-core machine before and after the phase: other work shares it.
        machine_load: { before: Math.round(loadBefore * 100) / 100, after: Math.round(loadavg()[0]! * 100) / 100 },
      };
      phases.push(phase);
      console.log(
        `${fmt(phase.throughput_rps)} req/s, p50 ${phase.latency_ms.p50} ms, p99 ${phase.latency_ms.p99} ms, ` +
          `non-2xx ${phase.non_2xx}`,
      );
    }

    let limiter = null;
    if (opts.limiterSeconds > 0) {
      // One key over its limit (wrangler.toml: 600 per 60 s): the limiter must answer 429 + Retry-After, nothing else.
      const counts: PhaseCounts = { byStatus: {}, byMode: {}, invalidBodies: 0, retryAfterMissing: 0 };
      process.stdout.write(`limiter: one key, c=8, ${opts.limiterSeconds} s ... `);
      const basic = opts.mix.filter((e) => e.mode === 'basic');
      const result = await runCannon(server.base, 8, opts.limiterSeconds, requestsFor(basic, [LIMITER_KEY], counts));
      limiter = {
        concurrency: 8,
        duration_s: opts.limiterSeconds,
        requests: result.requests.total,
        status_counts: counts.byStatus,
        retry_after_missing: counts.retryAfterMissing,
        invalid_bodies: counts.invalidBodies,
        latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
      };
      console.log(JSON.stringify(counts.byStatus));
    }

    const report = {
      started,
      corpus: resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR),
      mix: opts.mix.map((e) => ({ name: e.name, mode: e.mode })),
      keys: KEY_COUNT,
      wrangler_dev_other_output_sample: server.other.slice(-5),
      cache_budget_bytes: server.lines.at(-1)?.cache_budget ?? null,
      cache_after_warmup_bytes: warmCache,
      phases,
      limiter,
    };
    mkdirSync(dirname(opts.out), { recursive: true });
    writeFileSync(opts.out, `${JSON.stringify(report, null, 2)}\n`);
    printTable(report);
    console.log(`\nJSON: ${opts.out}`);
    const failed = phases.some(
      (p) => p.non_2xx > 0 || p.errors > 0 || p.timeouts > 0 || p.invalid_bodies > 0 || p.cache.max > p.cache.budget,
    );
    if (failed) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

function printTable(report: {
  cache_budget_bytes: number | null;
  cache_after_warmup_bytes: number;
  phases: any[];
  limiter: any;
}) {
  const mb = (b: number) => (b / 1024 / 1024).toFixed(2);
  console.log(
    `\n| concurrency | requests | req/s | p50 ms | p99 ms | non-2xx | errors | server p50/p99 ms (basic · ` +
      `research · agentic) | cache MiB before → after (max) | budget MiB |`,
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---|---:|');
  for (const p of report.phases) {
    const s = (m: string) =>
      p.server_ms_by_mode[m] ? `${p.server_ms_by_mode[m].p50}/${p.server_ms_by_mode[m].p99}` : '—';
    console.log(
      `| ${p.concurrency} | ${p.requests} | ${fmt(p.throughput_rps)} | ${p.latency_ms.p50} | ` +
        `${p.latency_ms.p99} | ${p.non_2xx} | ${p.errors + p.timeouts} | ${s('basic')} · ${s('research')} · ` +
        `${s('agentic_research')} | ${mb(p.cache.before)} → ${mb(p.cache.after)} (${mb(p.cache.max)}) | ` +
        `${mb(p.cache.budget)} |`,
    );
  }
  const last = report.phases.at(-1);
  if (last) {
    const max = Math.max(...report.phases.map((p) => p.cache.max));
    console.log(
      `\nCache: ${report.cache_after_warmup_bytes} bytes after warm-up, ${last.cache.after} after the last ` +
        `phase (growth ${last.cache.after - report.cache_after_warmup_bytes}), max ${max} of a ` +
        `${report.cache_budget_bytes}-byte budget ` +
        `(${max <= (report.cache_budget_bytes ?? 0) ? 'inside' : 'OVER'}).`,
    );
    const st = last.server_stage_ms;
    const fmtStage = (k: string) => (st[k] ? `${k} ${st[k].p50}/${st[k].p99}` : null);
    console.log(
      `Stage timings at c=${last.concurrency}, p50/p99 ms: ` +
        `${['auth', 'rate_limit', 'parse', 'load', 'retrieve_render'].map(fmtStage).filter(Boolean).join(', ')}`,
    );
  }
  if (report.limiter) {
    const l = report.limiter;
    console.log(
      `\nRate limiter (one key, c=${l.concurrency}, ${l.duration_s} s): ${l.requests} requests, statuses ` +
        `${JSON.stringify(l.status_counts)}, 429 without Retry-After: ${l.retry_after_missing}`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
