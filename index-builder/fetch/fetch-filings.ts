import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConstituents, type Classification } from './constituents';
import {
  parseCompanyTickers,
  parseFilingColumns,
  parseSubmissions,
  toDocumentUrl,
  toEdgarTicker,
  toSubmissionsPageUrl,
  toSubmissionsUrl,
  toTickersUrl,
  type EdgarBases,
  type Submissions,
} from './edgar-api';
import { EdgarForbiddenError, EdgarHttp, EdgarHttpError } from './http';
import { parseUserAgent } from './parse-fetch-args';
import { IntervalLimiter } from './rate-limiter';
import {
  selectFilings,
  selectSubmissionPages,
  type Candidate,
  type Exclusion,
  type FilingSelection,
  type SupportedForm,
} from './select-filings';
import { isDownloaded, removeStaleTemporaries, toSha256, writeFileAtomic } from './write-files';

export interface FetchRequest extends FilingSelection {
  tickers: readonly string[];
  forms: readonly SupportedForm[];
  outDir: string;
  userAgent: string;
  /** Requests per second (at most 10). */
  rate: number;
  bases: EdgarBases;
  timeoutMs?: number;
  maxRetries?: number;
  /** First retry backoff (doubles each retry); default 1 s. Tests shorten it. */
  backoffBaseMs?: number;
  constituentsPath?: string | null;
}

export interface FetchHooks {
  /** Filings handled so far (downloaded, skipped or failed) out of all selected. */
  onProgress?: (done: number, total: number) => void;
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string }) => void;
}

export interface FetchSummary {
  companies: number;
  /** Filings of the selected forms and fiscal years listed by EDGAR and not excluded. */
  found: number;
  downloaded: number;
  /** Already on disk with the recorded size and hash. */
  skipped: number;
  failed: { file: string; url: string; error: string }[];
  excluded: (Exclusion & { ticker: string })[];
  /** Primary-document bytes written. */
  bytes: number;
  requests: number;
  retries: number;
  elapsedMs: number;
  edgarDir: string;
}

/** The sidecar the builder reads (index-builder/segment/read-corpus.ts), plus the labels and the download stamp. */
export interface EdgarSidecar {
  cik: string;
  company: string;
  form: SupportedForm;
  filing_date: string | null;
  period_of_report: string;
  /** MMDD: a 10-K's own period end; a 10-Q's latest fiscal year end (DESIGN.md section 5). */
  fiscal_year_end: string;
  accession: string;
  sic: string | null;
  state_of_inc: string | null;
  ticker: string;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  display_company?: string;
  fiscal_year: number;
  fiscal_period: string;
  primary_document: string;
  source_url: string;
  bytes: number;
  sha256: string;
}

export class UnknownTickerError extends Error {
  constructor(readonly tickers: string[]) {
    super(
      `unknown ticker${tickers.length > 1 ? 's' : ''} ${tickers.join(', ')}: not in EDGAR's ` +
        `company_tickers.json (check the spelling; delisted companies leave that table)`,
    );
    this.name = 'UnknownTickerError';
  }
}

/**
 * `qsep-10k-20231231.htm`: one file per company, form and period (EDGAR's own names such as form10k.htm repeat across
 * companies).
 */
export const toFileStem = (ticker: string, c: Pick<Candidate, 'form' | 'periodOfReport'>) =>
  `${ticker.toLowerCase()}-${c.form.replace('-', '').toLowerCase()}-${c.periodOfReport.replace(/-/g, '')}`;

interface Company {
  ticker: string;
  submissions: Submissions;
  selected: Candidate[];
}

/** Lists, then downloads, the selected filings of each ticker into `<outDir>/edgar/`. */
export async function fetchFilings(request: FetchRequest, hooks: FetchHooks = {}): Promise<FetchSummary> {
  const t0 = performance.now();
  const http = new EdgarHttp({
    userAgent: parseUserAgent(request.userAgent),
    limiter: new IntervalLimiter(request.rate),
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
    ...(request.maxRetries !== undefined ? { maxRetries: request.maxRetries } : {}),
    ...(request.backoffBaseMs !== undefined ? { backoffBaseMs: request.backoffBaseMs } : {}),
    ...(hooks.onRetry ? { onRetry: hooks.onRetry } : {}),
  });
  const gics: Map<string, Classification> = request.constituentsPath
    ? readConstituents(request.constituentsPath)
    : new Map();

  // Resolve every ticker before downloading anything, so a typo fails fast instead of after an hour.
  const table = parseCompanyTickers(await http.getJson(toTickersUrl(request.bases)));
  const tickers = [...new Set(request.tickers.map(toEdgarTicker))];
  const unknown = tickers.filter((t) => !table.has(t));
  if (unknown.length) throw new UnknownTickerError(unknown);

  const companies: Company[] = [];
  const excluded: FetchSummary['excluded'] = [];
  for (const ticker of tickers) {
    const { cik } = table.get(ticker)!;
    const url = toSubmissionsUrl(request.bases, cik);
    const submissions = parseSubmissions(await http.getJson(url), url);
    submissions.cik ||= cik;
    const rows = [...submissions.recent];
    for (const page of selectSubmissionPages(submissions.files, request)) {
      const pageUrl = toSubmissionsPageUrl(request.bases, page.name);
      rows.push(...parseFilingColumns(await http.getJson(pageUrl), pageUrl));
    }
    const { selected, excluded: out } = selectFilings(rows, submissions.fiscalYearEnd, request);
    excluded.push(...out.map((e) => ({ ...e, ticker })));
    companies.push({ ticker, submissions, selected });
  }

  const edgarDir = join(request.outDir, 'edgar');
  mkdirSync(edgarDir, { recursive: true });
  removeStaleTemporaries(edgarDir);
  const total = companies.reduce((n, c) => n + c.selected.length, 0);
  const summary: FetchSummary = {
    companies: companies.length,
    found: total,
    downloaded: 0,
    skipped: 0,
    failed: [],
    excluded,
    bytes: 0,
    requests: 0,
    retries: 0,
    elapsedMs: 0,
    edgarDir,
  };
  let done = 0;
  hooks.onProgress?.(0, total);
  for (const { ticker, submissions, selected } of companies) {
    for (const c of selected) {
      const stem = toFileStem(ticker, c);
      const htmlPath = join(edgarDir, `${stem}.htm`);
      const sidecarPath = join(edgarDir, `${stem}.json`);
      const url = toDocumentUrl(request.bases, submissions.cik, c.accession, c.primaryDocument);
      if (isDownloaded(htmlPath, sidecarPath, c.accession)) summary.skipped++;
      else {
        try {
          const html = await http.get(url);
          const sidecar = toSidecar(ticker, submissions, c, url, html, gics.get(ticker));
          // Sidecar first, HTML last: the builder reads HTML files, so it never sees one without its metadata.
          writeFileAtomic(sidecarPath, `${JSON.stringify(sidecar, null, 2)}\n`);
          writeFileAtomic(htmlPath, html);
          summary.downloaded++;
          summary.bytes += html.length;
        } catch (err) {
          if (err instanceof EdgarForbiddenError || !(err instanceof EdgarHttpError)) throw err;
          summary.failed.push({ file: `${stem}.htm`, url, error: err.message });
        }
      }
      hooks.onProgress?.(++done, total);
    }
  }
  summary.requests = http.requests;
  summary.retries = http.retries;
  summary.elapsedMs = performance.now() - t0;
  return summary;
}

function toSidecar(
  ticker: string,
  s: Submissions,
  c: Candidate,
  url: string,
  html: Buffer,
  gics: Classification | undefined,
): EdgarSidecar {
  return {
    cik: s.cik,
    company: s.name,
    form: c.form,
    filing_date: c.filingDate,
    period_of_report: c.periodOfReport,
    fiscal_year_end: c.fiscal_year_end,
    accession: c.accession,
    sic: s.sic,
    state_of_inc: s.stateOfIncorporation,
    ticker,
    gics_sector: gics?.gics_sector ?? null,
    gics_sub_industry: gics?.gics_sub_industry ?? null,
    ...(gics?.security ? { display_company: gics.security } : {}),
    fiscal_year: c.fiscal_year,
    fiscal_period: c.fiscal_period,
    primary_document: c.primaryDocument,
    source_url: url,
    bytes: html.length,
    sha256: toSha256(html),
  };
}

/** The closing summary the CLI prints. */
export function formatFetchSummary(s: FetchSummary): string {
  const lines = [
    `fetched EDGAR filings of ${s.companies} compan${s.companies === 1 ? 'y' : 'ies'} in ` +
      `${(s.elapsedMs / 1000).toFixed(1)} s -> ${s.edgarDir}`,
    `  filings found ${s.found}, downloaded ${s.downloaded}, already there ${s.skipped}, failed ${s.failed.length}`,
    `  bytes ${s.bytes}, requests ${s.requests} (${s.retries} retries)`,
  ];
  if (s.excluded.length)
    lines.push(
      `  left out ${s.excluded.length}: ` +
        `${s.excluded.map((e) => `${e.ticker} ${e.form} ${e.accession} (${e.reason})`).join('; ')}`,
    );
  for (const f of s.failed) lines.push(`  FAILED ${f.file}: ${f.error}`);
  return lines.join('\n');
}
