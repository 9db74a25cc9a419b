import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export interface WranglerDev {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** wrangler's and the Worker's output so far (the last 50 kB), for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `wrangler dev --local` on free ports with its own local state, ready once the public OpenAPI route answers (it
 * needs no index). `vars` override the config's vars (e.g. API_KEY_HASHES). Its own process group, so stop() ends
 * wrangler and the workerd it started, and nothing else.
 */
export async function startWranglerDev(opts: {
  configPath: string;
  persistDir: string;
  vars: Record<string, string>;
}): Promise<WranglerDev> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const args = [
    'dev',
    '--local',
    '--config',
    opts.configPath,
    '--persist-to',
    opts.persistDir,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--show-interactive-dev-session=false',
    ...Object.entries(opts.vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
  ];
  const child: ChildProcess = spawn(resolve('node_modules/.bin/wrangler'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0', CLOUDFLARE_ENV: '' },
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-50_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    process.kill(-child.pid, 'SIGTERM');
    for (let i = 0; i < 50 && !exited; i++) await new Promise((r) => setTimeout(r, 100));
    if (!exited) process.kill(-child.pid, 'SIGKILL');
  };
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`wrangler dev exited during startup:\n${output}`);
    try {
      const res = await fetch(`${origin}/v2/sp500/openapi.json`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev not ready after 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { origin, output: () => output, stop };
}
