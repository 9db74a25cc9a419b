/**
 * The Worker under test: `wrangler dev --local` (workerd) on the bench's port, serving the local R2/KV state the
 * index was published to. Every line the Worker logs (one JSON object per request, src/index.ts) is collected by
 * request_id, so latency, shards loaded and cache bytes come from inside workerd, not only from the client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * The bench sends several thousand requests in a few minutes, far over the per-key rate limit (600 per 60 s,
 * wrangler.toml), so it spreads them over a pool of keys, as many callers would, instead of weakening the limit.
 */
const BENCH_KEY_COUNT = 32;
export const BENCH_API_KEYS = Array.from({ length: BENCH_KEY_COUNT }, (_, i) => `bench-key-${i}`);
let nextKey = 0;
/** The next key of the pool, round robin. */
export function benchApiKey(): string {
  return BENCH_API_KEYS[nextKey++ % BENCH_API_KEYS.length]!;
}

export interface WorkerLog {
  request_id: string;
  status: number;
  ms: number;
  shards_loaded: number;
  cache_hits: number;
  cache_bytes: number;
  [k: string]: unknown;
}

export interface RunningWorker {
  base: string;
  logs: Map<string, WorkerLog>;
  /** The log line of a request, waiting briefly for stdout to catch up with the response. */
  logOf(requestId: string): Promise<WorkerLog | undefined>;
  /** The last 20 kB of wrangler's output (for diagnosing a failure). */
  output(): string;
  /** Whether wrangler has exited (crashed) on its own. */
  hasExited(): boolean;
  stop(): Promise<void>;
}

export async function startWorker(
  repoRoot: string,
  persistDir: string,
  port: number,
  inspectorPort: number,
): Promise<RunningWorker> {
  const hash = BENCH_API_KEYS.map((k) => createHash('sha256').update(k).digest('hex')).join(',');
  const child: ChildProcess = spawn(
    join(repoRoot, 'node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '--local',
      '--persist-to',
      persistDir,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--inspector-port',
      String(inspectorPort),
      '--show-interactive-dev-session=false',
      '--var',
      `API_KEY_HASHES:${hash}`,
      '--log-level',
      'log',
    ],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' },
    },
  );
  const logs = new Map<string, WorkerLog>();
  let output = '';
  let buffered = '';
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((r) => (readyResolve = r));
  const onData = (chunk: Buffer) => {
    const s = chunk.toString('utf8');
    output = (output + s).slice(-20_000);
    buffered += s;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (/Ready on http/.test(line)) readyResolve();
      const i = line.indexOf('{"level"');
      if (i < 0) continue;
      try {
        const rec = JSON.parse(line.slice(i)) as WorkerLog;
        if (rec.request_id) logs.set(rec.request_id, rec);
      } catch {
        /* a line that only looks like a log record */
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let hasExited = false;
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (code) => {
      hasExited = true;
      r(code);
    }),
  );
  const timeout = new Promise<never>((_, rej) =>
    setTimeout(() => rej(new Error(`wrangler dev not ready after 120 s:\n${output}`)), 120_000).unref(),
  );
  await Promise.race([
    ready,
    timeout,
    exited.then((code) => Promise.reject(new Error(`wrangler dev exited (${code}):\n${output}`))),
  ]);
  return {
    base: `http://127.0.0.1:${port}`,
    logs,
    async logOf(requestId) {
      for (let i = 0; i < 50 && !logs.has(requestId); i++) await new Promise((r) => setTimeout(r, 20));
      return logs.get(requestId);
    },
    output: () => output,
    hasExited: () => hasExited,
    async stop() {
      // Our own process group (detached above): wrangler and the workerd it started, nothing else.
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* exited */
      }
    },
  };
}
