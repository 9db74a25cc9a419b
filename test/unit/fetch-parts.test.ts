import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConstituents } from '../../index-builder/fetch/constituents';
import {
  parseCompanyTickers,
  parseSubmissions,
  toDocumentUrl,
  toSubmissionsUrl,
} from '../../index-builder/fetch/edgar-api';
import { deriveFiscalLabels, toFiscalYearLabel } from '../../index-builder/fetch/fiscal';
import { parseRetryAfter } from '../../index-builder/publish/retry';
import { parseFetchArgs, parseUserAgent, parseYears } from '../../index-builder/fetch/parse-fetch-args';
import { IntervalLimiter } from '../../index-builder/fetch/rate-limiter';
import { selectFilings, selectSubmissionPages } from '../../index-builder/fetch/select-filings';
import { writeFileAtomic } from '../../index-builder/fetch/write-files';

const dirs: string[] = [];
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

describe('fiscal labels (DESIGN.md section 5)', () => {
  it('labels a year ending January 1-7 with the previous year', () => {
    expect(toFiscalYearLabel('2022-01-01')).toBe(2021);
    expect(toFiscalYearLabel('2023-01-07')).toBe(2022);
    expect(toFiscalYearLabel('2023-01-08')).toBe(2023);
    expect(deriveFiscalLabels('10-K', '2022-01-02', [], '1231')).toEqual({
      fiscal_year: 2021,
      fiscal_period: 'FY',
      fiscal_year_end: '0102',
    });
  });

  it('puts a 10-Q in the fiscal year that contains it, with the latest 10-K year end', () => {
    const tenKs = ['2022-09-24', '2023-09-30'];
    expect(deriveFiscalLabels('10-Q', '2023-12-30', tenKs, '0930')).toEqual({
      fiscal_year: 2024,
      fiscal_period: 'Q1',
      fiscal_year_end: '0930',
    });
    expect(deriveFiscalLabels('10-Q', '2023-04-01', tenKs, '0930')).toEqual({
      fiscal_year: 2023,
      fiscal_period: 'Q2',
      fiscal_year_end: '0924',
    });
    // A retailer whose years end near February 1: the quarter to 2023-04-29 is in the year ending 2024-02-03.
    expect(deriveFiscalLabels('10-Q', '2023-04-29', ['2023-01-28', '2024-02-03'], '0203')).toEqual({
      fiscal_year: 2024,
      fiscal_period: 'Q1',
      fiscal_year_end: '0128',
    });
    // A year ending 2022-01-01 labels 2021; the next one (ending 2022-12-31) labels 2022.
    expect(deriveFiscalLabels('10-Q', '2022-10-01', ['2022-01-01'], '1231')).toEqual({
      fiscal_year: 2022,
      fiscal_period: 'Q3',
      fiscal_year_end: '0101',
    });
  });

  it('falls back to EDGAR fiscalYearEnd without a neighbouring 10-K, and gives up without either', () => {
    expect(deriveFiscalLabels('10-Q', '2023-06-30', [], '1231')).toEqual({
      fiscal_year: 2023,
      fiscal_period: 'Q2',
      fiscal_year_end: '1231',
    });
    expect(deriveFiscalLabels('10-Q', '2023-06-30', ['2019-12-31'], null)).toBeNull();
  });
});

describe('command-line options', () => {
  const base = ['--tickers', 'mmm,AAPL', '--years', '2021-2023', '--out', 'x'];

  it('requires a User-Agent with a contact email, from the flag or EDGAR_USER_AGENT', () => {
    expect(() => parseFetchArgs(base, {})).toThrow(/User-Agent is required.*EDGAR_USER_AGENT/);
    expect(() => parseFetchArgs([...base, '--user-agent', 'My Research Bot'], {})).toThrow(
      /must contain a contact email/,
    );
    expect(() => parseUserAgent('Bot a@b.com\r\nX-Evil: 1')).toThrow(/one line/);
    const o = parseFetchArgs(base, { EDGAR_USER_AGENT: 'Jane Doe jane@example.org' });
    expect(o).toMatchObject({
      tickers: ['MMM', 'AAPL'],
      fromYear: 2021,
      toYear: 2023,
      forms: ['10-K', '10-Q'],
      userAgent: 'Jane Doe jane@example.org',
      rate: 5,
    });
    expect(o.bases).toEqual({ www: 'https://www.sec.gov', data: 'https://data.sec.gov' });
  });

  it('caps the rate at 10 requests per second', () => {
    const ua = ['--user-agent', 'J j@example.org'];
    expect(parseFetchArgs([...base, ...ua, '--rate', '10']).rate).toBe(10);
    expect(() => parseFetchArgs([...base, ...ua, '--rate', '12'])).toThrow(/above SEC's limit of 10/);
    expect(() => new IntervalLimiter(11)).toThrow(/at most 10/);
    expect(new IntervalLimiter(4).intervalMs).toBe(250);
  });

  it('parses years and forms, and rejects what the builder cannot read', () => {
    expect(parseYears('2019,2021-2022')).toEqual({ fromYear: 2019, toYear: 2022 });
    expect(() => parseYears('2023-2021')).toThrow(/backwards/);
    expect(() => parseYears('FY23')).toThrow(/not a year/);
    const ua = ['--user-agent', 'J j@example.org'];
    expect(parseFetchArgs([...base, ...ua, '--forms', '10k']).forms).toEqual(['10-K']);
    expect(() => parseFetchArgs([...base, ...ua, '--forms', '8-K'])).toThrow(/unsupported 8-K/);
    expect(() => parseFetchArgs([...base, ...ua, '--bogus'])).toThrow(/bogus/);
  });
});

describe('EDGAR shapes', () => {
  it('builds the documented URLs', () => {
    const b = { www: 'https://www.sec.gov', data: 'https://data.sec.gov/' };
    expect(toSubmissionsUrl(b, '320193')).toBe('https://data.sec.gov/submissions/CIK0000320193.json');
    expect(toDocumentUrl(b, '0000066740', '0000066740-24-000016', 'mmm-20231231.htm')).toBe(
      'https://www.sec.gov/Archives/edgar/data/66740/000006674024000016/mmm-20231231.htm',
    );
  });

  it('reads the ticker table with EDGAR class-share spelling', () => {
    const table = parseCompanyTickers({
      '0': { cik_str: 9990303, ticker: 'QSEP', title: 'Q' },
      '1': { cik_str: 9990404, ticker: 'QRX-B', title: 'R' },
    });
    expect(table.get('QRX-B')?.cik).toBe('9990404');
    expect(() => parseCompanyTickers({})).toThrow(/no \{cik_str, ticker\} rows/);
  });

  it('rejects submissions whose filing arrays disagree in length', () => {
    const recent = { accessionNumber: ['a', 'b'], form: ['10-K'], filingDate: [], reportDate: [], primaryDocument: [] };
    expect(() => parseSubmissions({ cik: '1', filings: { recent } }, 'x.json')).toThrow(/differ in length/);
  });

  it('picks the original filings of the selected years and only the submission pages that can hold them', () => {
    const row = (
      form: string,
      accessionNumber: string,
      filingDate: string,
      reportDate: string,
      primaryDocument = 'd.htm',
    ) => ({ form, accessionNumber, filingDate, reportDate, primaryDocument });
    const rows = [
      row('10-K', '0000000001-24-000001', '2024-02-20', '2023-12-31'),
      row('10-K', '0000000001-24-000009', '2024-03-30', '2023-12-31', 'refiled.htm'),
      row('10-K/A', '0000000001-24-000010', '2024-04-30', '2023-12-31'),
      row('10-Q', '0000000001-23-000005', '2023-08-01', '2023-06-30'),
      row('10-Q', '0000000001-23-000002', '2023-05-01', ''),
    ];
    const { selected, excluded } = selectFilings(rows, '1231', {
      fromYear: 2023,
      toYear: 2023,
      forms: ['10-K', '10-Q'],
    });
    expect(selected.map((c) => [c.form, c.accession, c.fiscal_period])).toEqual([
      ['10-Q', '0000000001-23-000005', 'Q2'],
      ['10-K', '0000000001-24-000009', 'FY'],
    ]);
    expect(excluded.map((e) => e.reason)).toEqual([
      expect.stringMatching(/replaced by the later filing/),
      'no reportDate in EDGAR',
    ]);
    const pages = [
      { name: 'p1', filingFrom: '2015-01-01', filingTo: '2021-12-31' },
      { name: 'p2', filingFrom: '2009-01-01', filingTo: '2014-12-31' },
    ];
    expect(selectSubmissionPages(pages, { fromYear: 2022, toYear: 2023, forms: ['10-K'] }).map((p) => p.name)).toEqual([
      'p1',
    ]);
    expect(selectSubmissionPages(pages, { fromYear: 2023, toYear: 2023, forms: ['10-K'] })).toEqual([]);
  });
});

describe('IntervalLimiter', () => {
  it('spaces starts by 1/rate and starts the 11th a second after the 1st was answered', async () => {
    const limiter = new IntervalLimiter(10);
    const starts: number[] = [];
    let firstEnd = 0;
    const releaseFirst = await limiter.take();
    starts.push(performance.now());
    // The first answer takes 300 ms: spacing alone would start the 11th 1000 ms after the 1st *started*.
    const held = new Promise<void>((resolve) =>
      setTimeout(() => {
        firstEnd = performance.now();
        releaseFirst();
        resolve();
      }, 300),
    );
    for (let i = 1; i <= 10; i++) {
      const release = await limiter.take();
      starts.push(performance.now());
      release();
    }
    await held;
    // A start is observed when the awaiting code resumes, a few ms after the limiter let it go on a busy machine, so
    // one step may look shorter by that delay; the delays do not add up over the run. A burst would be 0 ms apart.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(90);
    expect(starts[9]! - starts[0]!).toBeGreaterThanOrEqual(890);
    expect(starts[10]! - firstEnd).toBeGreaterThanOrEqual(1000);
  });
});

describe('small parts', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('reads GICS from a constituents CSV in either header spelling', () => {
    const a = parseConstituents(
      'Symbol,Security,GICS Sector,GICS Sub-Industry\r\nQSEP,Quarrystone Energy,Utilities,"Electric, Gas ' +
        '""Utilities"""\r\n',
    );
    expect(a.get('QSEP')).toEqual({
      security: 'Quarrystone Energy',
      gics_sector: 'Utilities',
      gics_sub_industry: 'Electric, Gas "Utilities"',
    });
    const b = parseConstituents('symbol,security,gics_sector,gics_sub_industry\nQRX.B,Q,Health Care,\n');
    expect(b.get('QRX-B')).toEqual({ security: 'Q', gics_sector: 'Health Care', gics_sub_industry: null });
    expect(() => parseConstituents('Symbol,Name\nA,B\n')).toThrow(/needs Symbol, GICS Sector and GICS Sub-Industry/);
  });

  it('writes atomically and leaves no temporary file behind, also when the write fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fers-atomic-'));
    dirs.push(dir);
    writeFileAtomic(join(dir, 'a.htm'), '<p>one</p>');
    writeFileAtomic(join(dir, 'a.htm'), '<p>two</p>');
    expect(readdirSync(dir)).toEqual(['a.htm']);
    expect(() => writeFileAtomic(join(dir, 'a.htm', 'impossible'), 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['a.htm']);
  });
});
