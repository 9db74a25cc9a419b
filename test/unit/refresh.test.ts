// The refresh workflow's chain (.github/workflows/refresh-index.yml), run locally: fetch what EDGAR received since the
// last run (recorded responses on loopback, a state file), build, publish (real local R2/KV), then a second run that
// finds nothing new. The remote publish differs only in its bindings (index-builder/storage.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../index-builder/cli';
import { runFetchCommand } from '../../index-builder/fetch/run-fetch-command';
import { publishVersion } from '../../index-builder/publish';
import { readFullCatalog } from '../support/file-index';
import { pointerKey } from '../../src/format/keys';
import { startRecordedEdgar, type RecordedEdgar } from '../support/edgar-server';
import { openLocalBindings } from '../support/local-bindings';

const UA = 'Refresh Test refresh@example.com';
const quiet = { update() {}, stop() {} };
let edgar: RecordedEdgar;
let work: string;
beforeAll(async () => {
  edgar = await startRecordedEdgar();
  work = mkdtempSync(join(tmpdir(), 'fers-refresh-'));
});
afterAll(async () => {
  await edgar.close();
  rmSync(work, { recursive: true, force: true });
});

describe('refresh: fetch since the last run -> build -> publish -> incremental build', () => {
  it('makes the newly filed reports searchable, and a second run finds nothing new', async () => {
    const filings = join(work, 'filings');
    const state = join(work, 'fetch-state.json');
    const fetchArgs = ['--tickers', 'QSEP,QVLT,ZNHF', '--since', '2024-01-01', '--state', state, '--rate', '10', '--out', filings, '--www-base', edgar.bases.www, '--data-base', edgar.bases.data];
    const first = await runFetchCommand(fetchArgs, quiet, { EDGAR_USER_AGENT: UA });
    expect(first).toMatchObject({ found: 3, downloaded: 3, failed: [] });
    expect(JSON.parse(readFileSync(state, 'utf8')).since).toBe(new Date().toISOString().slice(0, 10));

    const built = await runBuild(filings, join(work, 'artifacts'), { quiet: true, graphMinStatements: Infinity });
    const catalog = readFullCatalog(built.dir);
    expect(new Set(catalog.sources.map((s) => s.doc_id)).size).toBe(3);
    expect(catalog.sources.some((s) => s.id.startsWith('QVLT-10Q-FY2024Q1'))).toBe(true);

    const storage = await openLocalBindings(join(work, 'state'));
    try {
      const report = await publishVersion(built.dir, storage.target);
      expect(await storage.target.getPointer(pointerKey('sp500'))).toBe(report.version);
    } finally {
      await storage.dispose();
    }

    // The next run reads --since from the state file (today): nothing on the recorded server is that recent.
    const second = await runFetchCommand(fetchArgs.filter((a, i) => a !== '--since' && fetchArgs[i - 1] !== '--since'), quiet, { EDGAR_USER_AGENT: UA });
    expect(second).toMatchObject({ found: 0, downloaded: 0 });
    expect(existsSync(state)).toBe(true);

    // The incremental build the workflow runs next: nothing changed, so nothing is rebuilt and the version is the same.
    const again = await runBuild(filings, join(work, 'artifacts'), { quiet: true, graphMinStatements: Infinity, incremental: true });
    expect(again.version).toBe(built.version);
    expect('rebuiltIssuers' in again && again.rebuiltIssuers).toEqual([]);
  });
});
