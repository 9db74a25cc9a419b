/**
 * `npm start` as a newcomer runs it (scripts/start.ts: the sample index built and published to local R2/KV, then
 * `wrangler dev`), in temporary folders and on free ports. Its output has no `Error:` line and no stack trace, and
 * ends with the block that names the URL, the key, the reference page and the index. The same Worker then serves
 * the API reference page to Debian's Chromium (driven by playwright-core): every operation of the OpenAPI document is
 * on the page, and a query sent with "Try it out" and the local key answers 200. Without /usr/bin/chromium (Debian
 * packages chromium and chromium-driver; .ci/run installs them) the browser test skips and says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyAddress, readyBlock, wranglerEnv } from '../../scripts/start-output';
import { tempDirs } from '../support/temp-dirs';
import { copyWranglerConfig, freePort, spawnGroup, type ProcessGroup } from '../support/wrangler-dev';

const LOCAL_KEY = 'local-dev-key';
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SKIP_NOTE = `SKIPPED: no ${CHROMIUM} (apt-get install chromium chromium-driver)`;
if (!HAVE_CHROMIUM) console.warn(`API reference browser test ${SKIP_NOTE}.`);

describe('the ready block (scripts/start-output.ts)', () => {
  const index = { domain: 'sp500', version: 'abc123', statements: 1529, source: 'fixtures/sample-corpus/filings' };

  it('names the API, the key, the reference page and the index, one per line', () => {
    const block = readyBlock({ origin: 'http://127.0.0.1:8787', key: LOCAL_KEY, index }, false);
    const lines = block.split('\n');
    expect(lines).toContain('  API        http://127.0.0.1:8787/v2/sp500');
    expect(lines.some((l) => l.startsWith('  API key    local-dev-key'))).toBe(true);
    expect(lines.some((l) => l.startsWith('  reference  http://127.0.0.1:8787/v2/sp500/docs'))).toBe(true);
    expect(lines).toContain('  index      sp500 abc123, 1,529 statements from fixtures/sample-corpus/filings');
    expect(block).not.toContain('\u001b[');
    expect(readyBlock({ origin: 'http://127.0.0.1:8787', key: LOCAL_KEY, index }, true)).toContain('\u001b[1m');
  });

  it("finds the address in wrangler's ready line, coloured or not, and in no other line", () => {
    expect(readyAddress('[wrangler:info] Ready on http://127.0.0.1:8814')).toBe('http://127.0.0.1:8814');
    expect(readyAddress('\u001b[32m[wrangler:info]\u001b[39m Ready on \u001b[1mhttp://127.0.0.1:8814\u001b[22m')).toBe(
      'http://127.0.0.1:8814',
    );
    expect(readyAddress('⎔ Starting local server...')).toBeNull();
    expect(readyAddress('{"path":"/v2/sp500/query","status":200}')).toBeNull();
  });

  it('runs wrangler with the Request.cf download off and no metrics', () => {
    const env = wranglerEnv({ PATH: '/bin' }, false);
    expect(env).toMatchObject({ PATH: '/bin', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' });
  });
});

interface Started {
  group: ProcessGroup;
  /** http://127.0.0.1:<port> */
  origin: string;
  dir: string;
  /** The output up to and including the ready block. */
  startup: string;
}

const newDir = tempDirs('fers-start-');

/** Runs the start script once for the file, as `npm start` does, in a temporary folder and on free ports. */
async function startOnce(): Promise<Started> {
  const dir = newDir();
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // As `npm start` runs it: the project's own Node and tools first on PATH.
    PATH: [resolve('node_modules/.bin'), process.env.PATH].join(delimiter),
    PORT: String(port),
    ARTIFACTS_DIR: join(dir, 'artifacts'),
    PERSIST_DIR: join(dir, 'state'),
    WRANGLER_CONFIG: copyWranglerConfig(dir),
    NO_COLOR: '1',
    CLOUDFLARE_ENV: '',
  };
  // The script must switch the Request.cf download off itself (Miniflare never downloads it under NODE_ENV=test,
  // which vitest sets, so that goes too), and build the sample corpus.
  delete env.CLOUDFLARE_CF_FETCH_ENABLED;
  delete env.NODE_ENV;
  delete env.FILINGS_DIR;
  delete env.REBUILD;
  const tsx = resolve('node_modules/tsx/dist/cli.mjs');
  const group = spawnGroup(process.execPath, [tsx, 'scripts/start.ts', '--inspector-port', String(inspectorPort)], env);
  const deadline = Date.now() + 240_000;
  while (!group.output().includes('Ctrl-C stops it')) {
    if (group.exited()) throw new Error(`npm start exited during startup:\n${group.output()}`);
    if (Date.now() > deadline) {
      await group.stop();
      throw new Error(`npm start not ready after 240 s:\n${group.output()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { group, origin: `http://127.0.0.1:${port}`, dir, startup: group.output() };
}

let started: Promise<Started> | undefined;
const serve = () => (started ??= startOnce());

afterAll(async () => {
  await (await started)?.group.stop();
});

describe('npm start (the sample index, served by wrangler dev)', () => {
  let startup: string;
  let origin: string;
  let dir: string;

  beforeAll(async () => {
    ({ startup, origin, dir } = await serve());
  }, 300_000);

  it('prints no Error: line and no stack trace', () => {
    const bad = startup.split('\n').filter((line) => /\bError:/.test(line) || /^\s+at \S.*:\d+:\d+\)?$/.test(line));
    expect(bad, startup).toEqual([]);
  });

  it('ends its start-up output with the ready block: URL, key, reference page and the index it published', () => {
    const version = readFileSync(join(dir, 'artifacts/sp500/LATEST'), 'utf8').trim();
    const block = startup.slice(startup.lastIndexOf('Filing Evidence Retrieval Service is running'));
    expect(block).toContain(`API        ${origin}/v2/sp500\n`);
    expect(block).toContain(`API key    ${LOCAL_KEY}`);
    expect(block).toContain(`reference  ${origin}/v2/sp500/docs`);
    expect(block).toContain(`index      sp500 ${version}, `);
    expect(startup.indexOf('Ready on')).toBeLessThan(startup.indexOf('Filing Evidence Retrieval Service is running'));
  });
});

describe.skipIf(!HAVE_CHROMIUM)(`the API reference page in Chromium${HAVE_CHROMIUM ? '' : ` (${SKIP_NOTE})`}`, () => {
  let browser: BrowserContext;
  let page: Page;
  let origin: string;
  /** Console errors, uncaught exceptions and failed loads: a CSP violation is reported as a console error. */
  const problems: string[] = [];

  beforeAll(async () => {
    ({ origin } = await serve());
    browser = await chromium.launchPersistentContext(newDir(), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('request', (r) => !r.url().startsWith(origin) && problems.push(`another origin: ${r.url()}`));
    await page.goto(`${origin}/v2/sp500/docs`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every operation of the served OpenAPI document', async () => {
    const doc = (await (await fetch(`${origin}/v2/sp500/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
    };
    const expected = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        path,
        method,
        id: `operations-${op.tags[0]}-${op.operationId}`,
      })),
    );
    expect(expected.length).toBeGreaterThanOrEqual(5);
    const shown = await page.$$eval('.opblock', (blocks) => blocks.map((b) => b.id));
    expect(shown.sort()).toEqual(expected.map((e) => e.id).sort());
    // Swagger UI puts zero-width spaces into long paths so they can wrap.
    const text = async (selector: string) =>
      ((await page.locator(selector).textContent()) ?? '').replace(/\u200b/g, '');
    for (const { path, method, id } of expected) {
      expect((await text(`#${id} .opblock-summary-method`)).toLowerCase(), id).toBe(method);
      expect(await text(`#${id} .opblock-summary-path`), id).toBe(path);
    }
  });

  it('runs a query through "Try it out" with the key entered under Authorize: 200', async () => {
    await page.click('.auth-wrapper .authorize');
    const scheme = page.locator('.auth-container', { hasText: 'ApiKeyAuth' });
    await scheme.locator('input').fill(LOCAL_KEY);
    await scheme.locator('button.authorize').click();
    await page.click('.btn-done');

    const operation = page.locator('#operations-evidence-runResearchQuery');
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    const sent = page.waitForRequest((r) => r.url() === `${origin}/v2/sp500/query` && r.method() === 'POST');
    const answered = page.waitForResponse((r) => r.url() === `${origin}/v2/sp500/query`);
    await operation.locator('.execute').click();
    expect((await sent).headers()['x-api-key']).toBe(LOCAL_KEY);
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { summary: { domain: string } }).summary.domain).toBe('sp500');
    const status = operation.locator('.live-responses-table .response .response-col_status');
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).toBe('200');
  });

  it('loads nothing from another origin and logs no error (CSP violations included)', () => {
    expect(problems).toEqual([]);
  });
});
