import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../index-builder/pipeline';
import {
  fetchFilings,
  UnknownTickerError,
  type EdgarSidecar,
  type FetchRequest,
  type FetchSummary,
} from '../../index-builder/fetch/fetch-filings';
import { EdgarForbiddenError } from '../../index-builder/fetch/http';
import { parseFetchArgs, readFetchState, writeFetchState } from '../../index-builder/fetch/parse-fetch-args';
import { readCorpus } from '../../index-builder/segment/read-corpus';
import { readFullCatalog } from '../support/file-index';
import { startRecordedEdgar, type Received, type RecordedEdgar } from '../support/edgar-server';

const UA = 'Filing Evidence Tests tests@example.com';
const dirs: string[] = [];
let edgar: RecordedEdgar;

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'fers-fetch-'));
  dirs.push(d);
  return d;
};
const request = (outDir: string, over: Partial<FetchRequest> = {}): FetchRequest => ({
  tickers: ['QSEP', 'QVLT', 'ZNHF'],
  fromYear: 2022,
  toYear: 2024,
  forms: ['10-K', '10-Q'],
  outDir,
  userAgent: UA,
  rate: 10,
  bases: edgar?.bases ?? { www: 'http://unset', data: 'http://unset' },
  backoffBaseMs: 20,
  ...over,
});
const sidecar = (out: string, stem: string) =>
  JSON.parse(readFileSync(join(out, 'edgar', `${stem}.json`), 'utf8')) as EdgarSidecar;
const archive = (cik: string, acc: string, doc: string) =>
  `www:/Archives/edgar/data/${cik}/${acc.replace(/-/g, '')}/${doc}`;

afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

describe('one fetch of three companies, fiscal 2022-2024, at --rate 10', () => {
  // One run serves several checks: each run of 15 requests takes 1.5 s at the rate limit.
  let out: string;
  let summary: FetchSummary;
  let received: Received[];
  beforeAll(async () => {
    const server = await startRecordedEdgar();
    try {
      out = tempDir();
      summary = await fetchFilings({ ...request(out), bases: server.bases });
      received = [...server.requests];
    } finally {
      await server.close();
    }
  });

  it(`requests exactly the ticker table, the submissions (with the needed older page) and the selected \
documents`, () => {
    expect(received.map((r) => `${r.host}:${r.path}`)).toEqual([
      'www:/files/company_tickers.json',
      'data:/submissions/CIK0009990303.json',
      'data:/submissions/CIK0009990101.json',
      'data:/submissions/CIK0009990101-submissions-001.json',
      'data:/submissions/CIK0009990202.json',
      archive('9990303', '0009990303-23-000006', 'qsep-20221231.htm'),
      archive('9990303', '0009990303-23-000031', 'qsep-20230930.htm'),
      archive('9990303', '0009990303-24-000008', 'qsep-20231231.htm'),
      archive('9990101', '0009990101-22-000022', 'qvlt-20220625.htm'),
      archive('9990101', '0009990101-22-000031', 'qvlt-20220924.htm'),
      archive('9990101', '0009990101-23-000019', 'qvlt-20230701.htm'),
      archive('9990101', '0009990101-23-000027', 'qvlt-20230930.htm'),
      archive('9990101', '0009990101-24-000004', 'qvlt-20231230.htm'),
      archive('9990202', '0009990202-23-000040', 'znhf10q-q3.htm'),
      archive('9990202', '0009990202-24-000011', 'znhf10k2023.htm'),
    ]);
    expect(summary).toMatchObject({
      companies: 3,
      found: 10,
      downloaded: 10,
      skipped: 0,
      failed: [],
      requests: 15,
      retries: 0,
    });
    expect(summary.bytes).toBe(
      readdirSync(join(out, 'edgar'))
        .filter((n) => n.endsWith('.htm'))
        .reduce((n, f) => n + readFileSync(join(out, 'edgar', f)).length, 0),
    );
    // The 8-K, the 10-K/A and the Form 4 are listed by EDGAR but never requested.
    expect(received.some((r) => /20240116|20221231a|form4/.test(r.path))).toBe(false);
  });

  it('declares the User-Agent and accepts gzip on every request', () => {
    for (const r of received) {
      expect(r.userAgent).toBe(UA);
      expect(r.acceptEncoding).toMatch(/\bgzip\b/);
    }
  });

  it('never lets the server receive more than 10 requests in any one-second window', () => {
    const at = received.map((r) => r.at).sort((a, b) => a - b);
    expect(at.length).toBe(15);
    // By construction (see IntervalLimiter), not by timing luck: the 11th request starts a second after the 1st
    // was answered, which is after the server received it. Without the limiter all 15 arrive within a few ms.
    const spans = at.slice(10).map((t, i) => t - at[i]!);
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(1000);
  });

  it('writes sidecars with EDGAR metadata and DESIGN.md fiscal labels', async () => {
    expect(sidecar(out, 'qsep-10k-20231231')).toMatchObject({
      cik: '9990303',
      company: 'QUARRYSTONE ENERGY CORP',
      form: '10-K',
      filing_date: '2024-02-21',
      period_of_report: '2023-12-31',
      fiscal_year_end: '1231',
      accession: '0009990303-24-000008',
      sic: '4911',
      state_of_inc: 'OH',
      ticker: 'QSEP',
      gics_sector: null,
      fiscal_year: 2023,
      fiscal_period: 'FY',
      primary_document: 'qsep-20231231.htm',
    });
    // QVLT's 52/53-week year: the quarter ended 2023-12-30 is Q1 of the year ending September 2024.
    expect(sidecar(out, 'qvlt-10q-20231230')).toMatchObject({
      fiscal_year: 2024,
      fiscal_period: 'Q1',
      fiscal_year_end: '0930',
    });
    // The 10-K of 2022-09-24 is on the older submissions page; the quarter before it is Q3 of fiscal 2022.
    expect(sidecar(out, 'qvlt-10q-20220625')).toMatchObject({ fiscal_year: 2022, fiscal_period: 'Q3' });
    expect(sidecar(out, 'qvlt-10q-20230701')).toMatchObject({
      fiscal_year: 2023,
      fiscal_period: 'Q3',
      fiscal_year_end: '0924',
    });
    expect(sidecar(out, 'qvlt-10k-20220924')).toMatchObject({
      fiscal_year: 2022,
      fiscal_period: 'FY',
      fiscal_year_end: '0924',
    });
    const html = readFileSync(join(out, 'edgar', 'znhf-10q-20230930.htm'));
    expect(html.toString()).toContain('This is a fictional filing written for software testing.');
    expect(sidecar(out, 'znhf-10q-20230930')).toMatchObject({
      bytes: html.length,
      sha256: (await import('node:crypto')).createHash('sha256').update(html).digest('hex'),
      source_url: expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/Archives\/edgar\/data\/9990202\/000999020223000040\/znhf10q-q3\.htm$/,
      ),
    });
  });

  it('produces a folder the builder reads and indexes', async () => {
    const filings = await readCorpus(out);
    expect(filings.map((f) => f.doc.doc_id)).toHaveLength(10);
    const q1 = filings.find((f) => f.doc.doc_id === 'EDGAR_9990101_10Q_2023-12-30')!.doc;
    expect(q1).toMatchObject({
      ticker: 'QVLT',
      fiscal_year: 2024,
      fiscal_period: 'Q1',
      fiscal_year_end: '09-30',
      filing_date: '2024-02-06',
    });
    const k = filings.find((f) => f.doc.doc_id === 'EDGAR_9990303_10K_2023-12-31')!;
    expect(k.doc).toMatchObject({
      form_type: '10-K',
      fiscal_year: 2023,
      fiscal_period: 'FY',
      fiscal_year_end: '12-31',
      company: 'QUARRYSTONE ENERGY CORP',
    });
    expect(k.pages.length).toBe(5);

    const built = await buildIndex(filings, { outDir: tempDir() });
    expect(built.summary.filings).toBe(10);
    const catalog = readFullCatalog(built.dir);
    const tagsOf = (docId: string) => catalog.sources.filter((s) => s.doc_id === docId).map((s) => s.meta.sec_item_tag);
    expect(tagsOf('EDGAR_9990303_10K_2023-12-31')).toEqual(
      expect.arrayContaining(['10K-Item-1', '10K-Item-1A', '10K-Item-7', '10K-Item-8']),
    );
    expect(tagsOf('EDGAR_9990101_10Q_2023-12-30')).toEqual(
      expect.arrayContaining(['10Q-PartI-Item-1', '10Q-PartI-Item-2', '10Q-PartII-Item-2']),
    );
    expect(catalog.sources.map((s) => s.id)).toEqual(
      expect.arrayContaining(['QVLT-10Q-FY2024Q1-P1I2', 'QSEP-10K-FY2023-I7']),
    );
  });
});

describe('fetch against recorded EDGAR responses', () => {
  beforeEach(async () => {
    edgar = await startRecordedEdgar();
  });
  afterEach(async () => {
    await edgar.close();
  });

  it('selects by fiscal year and form, and skips submissions pages older than the years asked for', async () => {
    const out = tempDir();
    const summary = await fetchFilings(request(out, { fromYear: 2024, toYear: 2024, forms: ['10-Q'] }));
    expect(summary.found).toBe(1);
    expect(readdirSync(join(out, 'edgar')).sort()).toEqual(['qvlt-10q-20231230.htm', 'qvlt-10q-20231230.json']);
    expect(edgar.paths()).not.toContain('data:/submissions/CIK0009990101-submissions-001.json');

    const out2023 = tempDir();
    await fetchFilings(request(out2023, { fromYear: 2023, toYear: 2023 }));
    const names = readdirSync(join(out2023, 'edgar'))
      .filter((n) => n.endsWith('.htm'))
      .sort();
    // Calendar 2023 but fiscal 2024 (qvlt-10q-20231230) stays out; fiscal 2023 of every company comes in.
    expect(names).toEqual([
      'qsep-10k-20231231.htm',
      'qsep-10q-20230930.htm',
      'qvlt-10k-20230930.htm',
      'qvlt-10q-20230701.htm',
      'znhf-10k-20231231.htm',
      'znhf-10q-20230930.htm',
    ]);
  });

  it(`fetches only what was filed since a date (--since), every fiscal year, skipping older submissions \
pages`, async () => {
    const out = tempDir();
    const summary = await fetchFilings(request(out, { fromYear: 1993, toYear: 2100, filedSince: '2024-01-01' }));
    const names = readdirSync(join(out, 'edgar'))
      .filter((n) => n.endsWith('.htm'))
      .sort();
    // Filed 2024-02-21, 2024-02-06 and 2024-02-23; QSEP's 8-K of 2024-01-18 is not a 10-K or 10-Q.
    expect(names).toEqual(['qsep-10k-20231231.htm', 'qvlt-10q-20231230.htm', 'znhf-10k-20231231.htm']);
    expect(summary.found).toBe(3);
    expect(edgar.paths()).not.toContain('data:/submissions/CIK0009990101-submissions-001.json');
  });

  it('reads --since from a state file and refuses a malformed one', () => {
    const dir = tempDir();
    const state = join(dir, 'state.json');
    writeFetchState(state, '2024-02-01', { downloaded: 2, skipped: 1 });
    expect(readFetchState(state)).toEqual({ since: '2024-02-01' });
    const opts = parseFetchArgs(['--tickers', 'QSEP', '--out', dir, '--state', state], { EDGAR_USER_AGENT: UA });
    expect(opts).toMatchObject({ filedSince: '2024-02-01', statePath: state, fromYear: 1993, toYear: 2100 });
    // No state file yet (the first run): every filing of the years asked for.
    const first = parseFetchArgs(
      ['--tickers', 'QSEP', '--out', dir, '--state', join(dir, 'none.json'), '--years', '2023'],
      { EDGAR_USER_AGENT: UA },
    );
    expect(first).toMatchObject({ filedSince: null, fromYear: 2023, toYear: 2023 });
    writeFileSync(state, '{"since": "last tuesday"}');
    expect(() =>
      parseFetchArgs(['--tickers', 'QSEP', '--out', dir, '--state', state], { EDGAR_USER_AGENT: UA }),
    ).toThrow(/"since" must be a date/);
    expect(() =>
      parseFetchArgs(['--tickers', 'QSEP', '--out', dir, '--since', '2024-13-01'], { EDGAR_USER_AGENT: UA }),
    ).toThrow(/--since must be a date/);
  });

  it('reports a primary document that is not HTML instead of downloading it', async () => {
    const summary = await fetchFilings(request(tempDir(), { tickers: ['ZNHF'], fromYear: 2001, toYear: 2001 }));
    expect(summary.found).toBe(0);
    expect(summary.excluded).toEqual([
      {
        ticker: 'ZNHF',
        form: '10-K',
        accession: '0009990202-02-000003',
        reason: 'primary document "0009990202-02-000003.txt" is not HTML',
      },
    ]);
    expect(edgar.paths().some((p) => p.startsWith('www:/Archives'))).toBe(false);
  });

  it('rejects an unknown ticker before fetching anything else', async () => {
    const err = await fetchFilings(request(tempDir(), { tickers: ['QSEP', 'nope', 'QVLT'] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownTickerError);
    expect((err as Error).message).toMatch(/unknown ticker NOPE: not in EDGAR's company_tickers\.json/);
    expect(edgar.paths()).toEqual(['www:/files/company_tickers.json']);
  });

  it('retries a 429 after its Retry-After and a 503 after backoff', async () => {
    edgar.faults.set('data:/submissions/CIK0009990202.json', [{ status: 429, headers: { 'retry-after': '1' } }]);
    edgar.faults.set('www:/Archives/edgar/data/9990202/000999020224000011/znhf10k2023.htm', [
      { status: 503 },
      { status: 503 },
    ]);
    const retries: string[] = [];
    const summary = await fetchFilings(request(tempDir(), { tickers: ['ZNHF'] }), {
      onRetry: (r) => retries.push(r.reason),
    });
    expect(summary).toMatchObject({ downloaded: 2, failed: [], retries: 3, requests: 7 });
    expect(retries).toEqual(['HTTP 429', 'HTTP 503', 'HTTP 503']);
    const sub = edgar.requests.filter((r) => r.path === '/submissions/CIK0009990202.json').map((r) => r.at);
    expect(sub.length).toBe(2);
    expect(sub[1]! - sub[0]!).toBeGreaterThanOrEqual(950); // Retry-After: 1 (second), with timer tolerance
  });

  it('stops with a clear error on 403, without retrying', async () => {
    edgar.faults.set('data:/submissions/CIK0009990303.json', [{ status: 403 }]);
    const err = await fetchFilings(request(tempDir())).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EdgarForbiddenError);
    expect((err as Error).message).toMatch(
      /403 Forbidden.*\n.*declared User-Agent.*Filing Evidence Tests tests@example\.com/,
    );
    expect(edgar.paths()).toEqual(['www:/files/company_tickers.json', 'data:/submissions/CIK0009990303.json']);
  });

  it('counts a missing document as failed and goes on with the others', async () => {
    const out = tempDir();
    edgar.faults.set('www:/Archives/edgar/data/9990202/000999020223000040/znhf10q-q3.htm', [{ status: 404 }]);
    const summary = await fetchFilings(request(out, { tickers: ['ZNHF'] }));
    expect(summary.downloaded).toBe(1);
    expect(summary.failed).toEqual([
      expect.objectContaining({ file: 'znhf-10q-20230930.htm', error: expect.stringMatching(/404/) }),
    ]);
    expect(readdirSync(join(out, 'edgar')).sort()).toEqual(['znhf-10k-20231231.htm', 'znhf-10k-20231231.json']);
  });

  it('gives up on a silent server after the per-request timeout', async () => {
    edgar.faults.set('www:/Archives/edgar/data/9990202/000999020223000040/znhf10q-q3.htm', [
      { hang: true },
      { hang: true },
    ]);
    const summary = await fetchFilings(request(tempDir(), { tickers: ['ZNHF'], timeoutMs: 300, maxRetries: 1 }));
    expect(summary.failed).toEqual([
      expect.objectContaining({ error: expect.stringMatching(/no answer within 300 ms, giving up after 2 attempts/) }),
    ]);
  });

  it('never leaves a half-written file when a download is cut off', async () => {
    const out = tempDir();
    edgar.faults.set('www:/Archives/edgar/data/9990202/000999020224000011/znhf10k2023.htm', [{ truncate: true }]);
    // What a run killed between write and rename would leave: removed by the next run.
    mkdirSync(join(out, 'edgar'), { recursive: true });
    writeFileSync(join(out, 'edgar', '.znhf-10k-20231231.htm.4242.0badcafe.part'), '<html><body>half');
    const summary = await fetchFilings(request(out, { tickers: ['ZNHF'], maxRetries: 0 }));
    expect(summary.failed.map((f) => f.file)).toEqual(['znhf-10k-20231231.htm']);
    expect(readdirSync(join(out, 'edgar')).sort()).toEqual(['znhf-10q-20230930.htm', 'znhf-10q-20230930.json']);
  });

  it('resumes: a second run downloads nothing, and a damaged file is fetched again', async () => {
    const out = tempDir();
    const only = { tickers: ['QSEP'] };
    await fetchFilings(request(out, only));
    const before = edgar.requests.length;
    const again = await fetchFilings(request(out, only));
    expect(again).toMatchObject({ found: 3, downloaded: 0, skipped: 3, bytes: 0 });
    expect(edgar.paths().slice(before)).toEqual([
      'www:/files/company_tickers.json',
      'data:/submissions/CIK0009990303.json',
    ]);

    const damaged = join(out, 'edgar', 'qsep-10q-20230930.htm');
    writeFileSync(damaged, readFileSync(damaged, 'utf8').replace('604', '605'));
    const third = await fetchFilings(request(out, only));
    expect(third).toMatchObject({ downloaded: 1, skipped: 2 });
    expect(readFileSync(damaged, 'utf8')).toContain('$604 million');
  });

  it('takes GICS and the display name from a constituents CSV', async () => {
    const out = tempDir();
    const csv = join(out, 'constituents.csv');
    writeFileSync(
      csv,
      'Symbol,Security,GICS Sector,GICS Sub-Industry,CIK\nZNHF,Zenharrow Foods,Consumer Staples,"Packaged ' +
        'Foods & Meats",9990202\n',
    );
    await fetchFilings(request(out, { tickers: ['ZNHF'], constituentsPath: csv }));
    expect(sidecar(out, 'znhf-10k-20231231')).toMatchObject({
      company: 'ZENHARROW FOODS CO',
      display_company: 'Zenharrow Foods',
      gics_sector: 'Consumer Staples',
      gics_sub_industry: 'Packaged Foods & Meats',
    });
  });
});
