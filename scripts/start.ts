/**
 * npm start: build the index if needed, publish it to local R2/KV, and serve the Worker on 127.0.0.1.
 *   FILINGS_DIR      corpus to index (default: the invented sample corpus in fixtures/)
 *   PORT             port (default 8787)
 *   REBUILD=1        rebuild even when an index of the same corpus exists
 *   ARTIFACTS_DIR    where builds go (default artifacts/); PERSIST_DIR: the local R2/KV state (default .wrangler/state)
 *   WRANGLER_CONFIG  the wrangler config to serve (default wrangler.toml); .dev.vars is read and written beside it
 * Arguments after `--` go to `wrangler dev` (for example `npm start -- --inspector-port 9230`).
 * Once wrangler says it is ready, a block with the URL, the key, the reference page and the index stands out.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DOMAIN } from '../index-builder/build';
import {
  DEFAULT_ARTIFACTS_DIR,
  DEFAULT_FILINGS_DIR,
  latestVersionDir,
  runBuild,
  runPublishLocal,
} from '../index-builder/cli/cli';
import { DEFAULT_PERSIST_DIR } from '../index-builder/publish/storage';
import { readyAddress, readyBlock, wranglerEnv, type ServedIndex } from './start-output';

const LOCAL_KEY = 'local-dev-key';

async function main() {
  const filingsDir = resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR);
  const artifactsDir = resolve(process.env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  const persistDir = resolve(process.env.PERSIST_DIR ?? DEFAULT_PERSIST_DIR);
  const config = resolve(process.env.WRANGLER_CONFIG ?? 'wrangler.toml');
  const port = process.env.PORT ?? '8787';
  // The publish below runs Miniflare in this process too: the same setting keeps it from fetching Request.cf.
  Object.assign(process.env, { CLOUDFLARE_CF_FETCH_ENABLED: 'false' });

  // Rebuild when the corpus changed since the last build (or on request); otherwise reuse the built version.
  const sourceFile = join(artifactsDir, DOMAIN, 'SOURCE');
  const builtFrom = existsSync(sourceFile) ? readFileSync(sourceFile, 'utf8').trim() : null;
  if (process.env.REBUILD === '1' || builtFrom !== filingsDir || !latestVersionDir(artifactsDir)) {
    console.log(`building the index of ${filingsDir} ...`);
    await runBuild(filingsDir, artifactsDir);
    writeFileSync(sourceFile, `${filingsDir}\n`);
  } else console.log(`reusing the index built from ${filingsDir} (REBUILD=1 to rebuild)`);
  await runPublishLocal(artifactsDir, persistDir);
  const manifestFile = join(latestVersionDir(artifactsDir)!, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    domain: string;
    version: string;
    totals: { statements: number };
  };
  const index: ServedIndex = {
    domain: manifest.domain,
    version: manifest.version,
    statements: manifest.totals.statements,
    source: relative(process.cwd(), filingsDir) || filingsDir,
  };

  // The local key is documented; only its hash is configured, as in production.
  const devVars = join(dirname(config), '.dev.vars');
  if (!existsSync(devVars)) {
    const hash = createHash('sha256').update(LOCAL_KEY).digest('hex');
    writeFileSync(devVars, `API_KEY_HASHES=${hash}\n`);
  }

  const colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  const wrangler = spawn(
    join('node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '--local',
      '--config',
      config,
      '--persist-to',
      persistDir,
      '--ip',
      '127.0.0.1',
      '--port',
      port,
      '--show-interactive-dev-session=false',
      ...process.argv.slice(2),
    ],
    { stdio: ['inherit', 'pipe', 'pipe'], env: wranglerEnv(process.env, colour) },
  );
  // wrangler's lines pass through unchanged; the ready block follows its "Ready on" line.
  let announced = false;
  const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) =>
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      out.write(`${line}\n`);
      const address = announced ? null : readyAddress(line);
      if (!address) return;
      announced = true;
      process.stdout.write(readyBlock({ origin: new URL(address).origin, key: LOCAL_KEY, index }, colour));
    });
  relay(wrangler.stdout, process.stdout);
  relay(wrangler.stderr, process.stderr);
  const stop = () => wrangler.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  wrangler.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
