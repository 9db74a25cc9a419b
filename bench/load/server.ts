import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** One structured request log line of the Worker (src/http/logging.ts), as the load test reads it. */
export interface WorkerLogLine {
  request_id: string;
  status: number;
  ms: number;
  mode?: string;
  error_code?: string;
  cache_bytes: number;
  cache_budget: number;
  cache_entries: number;
  shards_loaded: number;
  cache_hits: number;
  /** Bytes and objects read from R2 or the Cache API by this request, and how many of them the Cache API served. */
  storage_bytes?: number;
  objects_read?: number;
  edge_cache_hits?: number;
  timings_ms?: Record<string, number>;
}

export interface DevServer {
  base: string;
  /** Every Worker log line seen so far, in arrival order. */
  lines: WorkerLogLine[];
  /** Non-JSON output (wrangler's own), kept for diagnosis when something fails. */
  other: string[];
  stop(): Promise<void>;
}

/**
 * Starts `wrangler dev` (workerd, local R2/KV from `persistDir`) on 127.0.0.1:port and collects the Worker's one
 * JSON log line per request from its stdout. `vars` override wrangler.toml vars and .dev.vars (e.g. the key hashes).
 */
export async function startWranglerDev(opts: {
  port: number;
  inspectorPort: number;
  persistDir: string;
  vars: Record<string, string>;
  readyKey: string;
}): Promise<DevServer> {
  const args = [
    'dev',
    '--local',
    '--persist-to',
    opts.persistDir,
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--inspector-port',
    String(opts.inspectorPort),
    '--show-interactive-dev-session=false',
    ...Object.entries(opts.vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  // Own process group, so stop() ends wrangler and the workerd it started, and nothing else.
  const child: ChildProcess = spawn(join('node_modules', '.bin', 'wrangler'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const lines: WorkerLogLine[] = [];
  const other: string[] = [];
  const collect = (chunk: Buffer, carry: { rest: string }) => {
    const text = carry.rest + chunk.toString('utf8');
    const parts = text.split('\n');
    carry.rest = parts.pop() ?? '';
    for (const raw of parts) {
      const line = raw.trim();
      const at = line.indexOf('{"level"');
      if (at >= 0) {
        try {
          lines.push(JSON.parse(line.slice(at)) as WorkerLogLine);
          continue;
        } catch {
          // not one of ours
        }
      }
      if (line) other.push(line);
      if (other.length > 500) other.shift();
    }
  };
  const out = { rest: '' };
  const err = { rest: '' };
  child.stdout!.on('data', (c: Buffer) => collect(c, out));
  child.stderr!.on('data', (c: Buffer) => collect(c, err));
  let exited = false;
  child.on('exit', () => (exited = true));

  const base = `http://127.0.0.1:${opts.port}/v2/sp500`;
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    process.kill(-child.pid, 'SIGTERM');
    for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited) process.kill(-child.pid, 'SIGKILL');
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`wrangler dev exited during startup:\n${other.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`${base}/metadata-filters`, { headers: { 'x-api-key': opts.readyKey } });
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (res.status !== 503) {
        await stop();
        throw new Error(`wrangler dev answered ${res.status} to the readiness probe`);
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('wrangler dev answered')) throw e;
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev not ready after 90 s:\n${other.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { base, lines, other, stop };
}
