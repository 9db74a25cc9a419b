/**
 * EDGAR's public endpoints and the shapes of their JSON, as documented by the SEC ("EDGAR Application Programming
 * Interfaces"): the ticker table, the per-company submissions file with its `files` pagination, and the Archives
 * path of a filing's primary document. Parsing validates what the fetcher relies on and nothing more.
 */

/** Where requests go; tests and mirrors point these at another server. */
export interface EdgarBases {
  /** Serves `/files/company_tickers.json` and `/Archives/...`. */
  www: string;
  /** Serves `/submissions/...`. */
  data: string;
}

export const SEC_BASES: EdgarBases = { www: 'https://www.sec.gov', data: 'https://data.sec.gov' };

const trim = (base: string) => base.replace(/\/+$/, '');
/** EDGAR pads CIKs to ten digits in submissions file names and drops the padding in Archives paths. */
export const toPaddedCik = (cik: string) => cik.replace(/^0+/, '').padStart(10, '0');

export const toTickersUrl = (b: EdgarBases) => `${trim(b.www)}/files/company_tickers.json`;
export const toSubmissionsUrl = (b: EdgarBases, cik: string) =>
  `${trim(b.data)}/submissions/CIK${toPaddedCik(cik)}.json`;
export const toSubmissionsPageUrl = (b: EdgarBases, name: string) =>
  `${trim(b.data)}/submissions/${encodeURIComponent(name)}`;
export const toDocumentUrl = (b: EdgarBases, cik: string, accession: string, primaryDocument: string) => {
  const document = primaryDocument.split('/').map(encodeURIComponent).join('/');
  return `${trim(b.www)}/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${document}`;
};

/** EDGAR writes class suffixes with a dash (BRK-B); people often type a dot (BRK.B). */
export const toEdgarTicker = (ticker: string) => ticker.trim().toUpperCase().replace(/\./g, '-');

export interface TickerEntry {
  cik: string;
  ticker: string;
  title: string;
}

/** company_tickers.json: `{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, ...}`. */
export function parseCompanyTickers(json: unknown): Map<string, TickerEntry> {
  if (!json || typeof json !== 'object') throw new Error('company_tickers.json: not a JSON object');
  const out = new Map<string, TickerEntry>();
  for (const row of Object.values(json as Record<string, unknown>)) {
    const r = row as { cik_str?: unknown; ticker?: unknown; title?: unknown };
    if ((typeof r?.cik_str !== 'number' && typeof r?.cik_str !== 'string') || typeof r.ticker !== 'string') continue;
    const ticker = toEdgarTicker(r.ticker);
    // The table lists a company's main ticker first; later rows for the same symbol do not replace it.
    if (!out.has(ticker))
      out.set(ticker, {
        cik: String(r.cik_str).replace(/^0+/, ''),
        ticker,
        title: typeof r.title === 'string' ? r.title : '',
      });
  }
  if (out.size === 0) throw new Error('company_tickers.json: no {cik_str, ticker} rows');
  return out;
}

/** One filing from the parallel arrays of `filings.recent` or of a `files` page. */
export interface FilingRow {
  accessionNumber: string;
  form: string;
  filingDate: string;
  reportDate: string;
  primaryDocument: string;
}

export interface SubmissionsPage {
  name: string;
  filingFrom: string;
  filingTo: string;
}

export interface Submissions {
  cik: string;
  name: string;
  sic: string | null;
  stateOfIncorporation: string | null;
  /** MMDD, or null when EDGAR has none. */
  fiscalYearEnd: string | null;
  recent: FilingRow[];
  files: SubmissionsPage[];
}

const COLUMNS = ['accessionNumber', 'form', 'filingDate', 'reportDate', 'primaryDocument'] as const;

/** Turns EDGAR's column arrays (one array per field, same length) into rows. */
export function parseFilingColumns(columns: unknown, where: string): FilingRow[] {
  const c = columns as Record<string, unknown>;
  if (!c || typeof c !== 'object') throw new Error(`${where}: no filing arrays`);
  const arrays = COLUMNS.map((k) => {
    if (!Array.isArray(c[k])) throw new Error(`${where}: filing array "${k}" missing`);
    return c[k] as unknown[];
  });
  const n = arrays[0]!.length;
  if (arrays.some((a) => a.length !== n)) throw new Error(`${where}: filing arrays differ in length`);
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return Array.from({ length: n }, (_, i) => ({
    accessionNumber: str(arrays[0]![i]),
    form: str(arrays[1]![i]),
    filingDate: str(arrays[2]![i]),
    reportDate: str(arrays[3]![i]),
    primaryDocument: str(arrays[4]![i]),
  }));
}

export function parseSubmissions(json: unknown, where: string): Submissions {
  const s = json as Record<string, unknown> & { filings?: { recent?: unknown; files?: unknown } };
  if (!s || typeof s !== 'object' || !s.filings) throw new Error(`${where}: not an EDGAR submissions file`);
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const files = Array.isArray(s.filings.files) ? (s.filings.files as Record<string, unknown>[]) : [];
  return {
    cik: String(s.cik ?? '').replace(/^0+/, ''),
    name: text(s.name) ?? '',
    sic: text(s.sic),
    stateOfIncorporation: text(s.stateOfIncorporation),
    fiscalYearEnd: text(s.fiscalYearEnd),
    recent: parseFilingColumns(s.filings.recent, where),
    files: files
      .filter((f) => typeof f?.name === 'string')
      .map((f) => ({ name: f.name as string, filingFrom: text(f.filingFrom) ?? '', filingTo: text(f.filingTo) ?? '' })),
  };
}
