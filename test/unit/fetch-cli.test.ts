import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordedEdgar, type RecordedEdgar } from '../support/edgar-server';

/**
 * Runs `tsx index-builder/cli/cli.ts fetch ...` as `npm run fetch:edgar -- ...` would, without blocking this process's
 * server.
 */
function runCli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const { EDGAR_USER_AGENT: _drop, ...inherited } = process.env;
    execFile(
      'node_modules/.bin/tsx',
      ['index-builder/cli/cli.ts', 'fetch', ...args],
      { env: { ...inherited, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let edgar: RecordedEdgar;
let out: string;
beforeAll(async () => {
  edgar = await startRecordedEdgar();
  out = mkdtempSync(join(tmpdir(), 'fers-fetch-cli-'));
});
afterAll(async () => {
  await edgar.close();
  rmSync(out, { recursive: true, force: true });
});

describe('cli.ts fetch', () => {
  // Refusals (no User-Agent, rate above 10) are checked in-process in fetch-parts.test.ts; one spawn covers the wiring.
  it('fetches with the User-Agent from EDGAR_USER_AGENT and prints the summary', async () => {
    const r = await runCli(
      [
        '--tickers',
        'znhf',
        '--years',
        '2023',
        '--rate',
        '10',
        '--out',
        out,
        '--www-base',
        edgar.bases.www,
        '--data-base',
        edgar.bases.data,
      ],
      { EDGAR_USER_AGENT: 'CLI Test cli@example.com' },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/fetched EDGAR filings of 1 company in \d+\.\d s/);
    expect(r.stdout).toMatch(/filings found 2, downloaded 2, already there 0, failed 0/);
    expect(r.stdout).toMatch(/requests 4 \(0 retries\)/);
    expect(edgar.requests.every((q) => q.userAgent === 'CLI Test cli@example.com')).toBe(true);
    expect(readdirSync(join(out, 'edgar')).sort()).toEqual([
      'znhf-10k-20231231.htm',
      'znhf-10k-20231231.json',
      'znhf-10q-20230930.htm',
      'znhf-10q-20230930.json',
    ]);
  });
});
