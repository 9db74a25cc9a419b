import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { wranglerEnv } from '../../scripts/start-output';

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

/**
 * wrangler.toml, changed by `edit`, written to `dir` with the Worker's entry made absolute: wrangler then keeps its
 * bundle and reads .dev.vars in `dir`, never in the repository. Returns its path.
 */
export function copyWranglerConfig(dir: string, edit: (toml: string) => string = (toml) => toml): string {
  const config = edit(readFileSync('wrangler.toml', 'utf8')).replace(
    /^main = .*$/m,
    `main = ${JSON.stringify(resolve('src/index.ts'))}`,
  );
  const file = join(dir, 'wrangler.toml');
  writeFileSync(file, config);
  return file;
}

export interface ProcessGroup {
  /** What the processes printed so far (stdout and stderr, the last 50 kB). */
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * A command in a process group of its own, its output kept for a failing test's message: stop() ends it and every
 * process it started (wrangler and its workerd), and nothing else.
 */
export function spawnGroup(command: string, args: string[], env: NodeJS.ProcessEnv): ProcessGroup {
  const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
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
  return { output: () => output, exited: () => exited, stop };
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
 * needs no index). `vars` override the config's vars (e.g. API_KEY_HASHES).
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
  // As npm start runs it (no download of the Request.cf placeholder, no metrics), without colours.
  const group = spawnGroup(resolve('node_modules/.bin/wrangler'), args, {
    ...wranglerEnv(process.env, false),
    CLOUDFLARE_ENV: '',
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (group.exited()) throw new Error(`wrangler dev exited during startup:\n${group.output()}`);
    try {
      const res = await fetch(`${origin}/v2/sp500/openapi.json`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await group.stop();
      throw new Error(`wrangler dev not ready after 120 s:\n${group.output()}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { origin, output: group.output, stop: group.stop };
}
