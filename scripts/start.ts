/**
 * npm start: build the index if needed, publish it to local R2/KV, and serve the Worker on 127.0.0.1.
 *   FILINGS_DIR  corpus to index (default: the invented sample corpus in fixtures/)
 *   PORT         port (default 8787)
 *   REBUILD=1    rebuild even when an index of the same corpus exists
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DOMAIN } from '../index-builder/build';
import {
  DEFAULT_ARTIFACTS_DIR,
  DEFAULT_FILINGS_DIR,
  latestVersionDir,
  runBuild,
  runPublishLocal,
} from '../index-builder/cli';
import { DEFAULT_PERSIST_DIR } from '../index-builder/storage';

const LOCAL_KEY = 'local-dev-key';

async function main() {
  const filingsDir = resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR);
  const artifactsDir = resolve(process.env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  const persistDir = resolve(process.env.PERSIST_DIR ?? DEFAULT_PERSIST_DIR);
  const port = process.env.PORT ?? '8787';

  // Rebuild when the corpus changed since the last build (or on request); otherwise reuse the built version.
  const sourceFile = join(artifactsDir, DOMAIN, 'SOURCE');
  const builtFrom = existsSync(sourceFile) ? readFileSync(sourceFile, 'utf8').trim() : null;
  if (process.env.REBUILD === '1' || builtFrom !== filingsDir || !latestVersionDir(artifactsDir)) {
    console.log(`building the index of ${filingsDir} ...`);
    await runBuild(filingsDir, artifactsDir);
    writeFileSync(sourceFile, `${filingsDir}\n`);
  } else console.log(`reusing the index built from ${filingsDir} (REBUILD=1 to rebuild)`);
  await runPublishLocal(artifactsDir, persistDir);

  // The local key is documented; only its hash is configured, as in production.
  if (!existsSync('.dev.vars')) {
    const hash = createHash('sha256').update(LOCAL_KEY).digest('hex');
    writeFileSync('.dev.vars', `API_KEY_HASHES=${hash}\n`);
  }

  const base = `http://127.0.0.1:${port}/v2/${DOMAIN}`;
  console.log(`\nserving ${base}  (X-API-Key: ${LOCAL_KEY})`);
  console.log(
    `try: curl -s ${base}/query -H 'X-API-Key: ${LOCAL_KEY}' -H 'Content-Type: application/json' -d '{"query":"purchases of property, plant and equipment"}'\n`,
  );
  const wrangler = spawn(
    join('node_modules', '.bin', 'wrangler'),
    [
      'dev',
      '--local',
      '--persist-to',
      persistDir,
      '--ip',
      '127.0.0.1',
      '--port',
      port,
      '--show-interactive-dev-session=false',
    ],
    { stdio: 'inherit', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
  const stop = () => wrangler.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  wrangler.on('exit', (code) => process.exit(code ?? 0));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
