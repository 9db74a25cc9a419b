import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { htmlToPages } from './edgar-html';
import { fiscalYearLabel } from './fiscal-year';

/** One row of documents.jsonl (the page-text corpus format of ../shared/corpus/filings). */
export interface FilingDocument {
  doc_id: string;
  collection: string;
  ticker: string;
  cik: string | null;
  company: string;
  form_type: string;
  fiscal_year: number;
  fiscal_period: string;
  period_of_report: string;
  fiscal_year_end: string;
  filing_date: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  num_pages: number;
}

export interface Filing {
  doc: FilingDocument;
  pages: string[];
}

export async function* readJsonLines(path: string): AsyncGenerator<unknown> {
  const input = path.endsWith('.gz') ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    try {
      yield JSON.parse(line);
    } catch {
      throw new Error(`${path}:${n}: not valid JSON`);
    }
  }
}

function requireDocument(row: unknown, where: string): FilingDocument {
  const d = row as FilingDocument;
  for (const key of ['doc_id', 'ticker', 'company', 'form_type', 'period_of_report', 'fiscal_year_end'] as const) {
    if (typeof d?.[key] !== 'string' || !d[key]) throw new Error(`${where}: document without ${key}`);
  }
  if (!Number.isInteger(d.fiscal_year))
    throw new Error(`${where}: document ${d.doc_id} without an integer fiscal_year`);
  if (d.form_type !== '10-K' && d.form_type !== '10-Q')
    throw new Error(`${where}: ${d.doc_id} has unsupported form ${d.form_type}`);
  return d;
}

/**
 * The EDGAR folders of a filings directory that exist: inside it (where `fetch --out` writes) or beside it
 * (fixtures/sample-corpus/edgar).
 */
const edgarFolders = (dir: string) => [join(dir, 'edgar'), join(dir, '..', 'edgar')].filter((d) => existsSync(d));

/**
 * How many filings a filings directory holds, counted without reading them: the rows of documents.jsonl plus the
 * HTML documents of its EDGAR folders. An upper bound (a row without pages, or an EDGAR form the builder does not
 * read, is skipped by the build), good enough for a progress total.
 */
export function countCorpusFilings(dir: string): number {
  const docsPath = join(dir, 'documents.jsonl');
  let n = 0;
  if (existsSync(docsPath)) for (const line of readFileSync(docsPath, 'utf8').split('\n')) if (line.trim()) n++;
  for (const d of edgarFolders(dir)) n += readdirSync(d).filter((f) => /\.html?$/i.test(f)).length;
  return n;
}

/**
 * How many filings each issuer has in a filings directory, read from metadata only (documents.jsonl rows and the
 * EDGAR folders' sidecars, no page text): what a partition map packs (index-builder/partition-map.ts).
 */
export function issuerFilingCounts(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (ticker: string) => counts.set(ticker, (counts.get(ticker) ?? 0) + 1);
  const docsPath = join(dir, 'documents.jsonl');
  if (existsSync(docsPath)) {
    const lines = readFileSync(docsPath, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim()) add(requireDocument(JSON.parse(line), `${docsPath}:${i + 1}`).ticker);
    });
  }
  for (const d of edgarFolders(dir)) {
    for (const name of readdirSync(d).filter((n) => /\.html?$/i.test(n))) {
      const sidecar = join(d, name.replace(/\.html?$/i, '.json'));
      if (!existsSync(sidecar)) throw new Error(`${name}: EDGAR document without metadata sidecar ${sidecar}`);
      const meta = JSON.parse(readFileSync(sidecar, 'utf8')) as Pick<EdgarSidecar, 'ticker' | 'form'>;
      if (/^10-?[KQ]$/i.test(meta.form)) add(meta.ticker);
    }
  }
  return counts;
}

/**
 * Reads a filings directory: documents.jsonl plus pages.jsonl.gz (or plain pages.jsonl), and optionally an
 * `edgar/` folder of EDGAR primary-document HTML files with JSON metadata sidecars.
 */
export async function readCorpus(dir: string, onPage?: () => void): Promise<Filing[]> {
  const docsPath = join(dir, 'documents.jsonl');
  const edgarDirs = edgarFolders(dir);
  const hasPageText = existsSync(docsPath);
  if (!hasPageText && !edgarDirs.length)
    throw new Error(`${docsPath} not found: FILINGS_DIR must hold documents.jsonl or an edgar/ folder`);
  const byId = new Map<string, Filing>();
  if (hasPageText)
    for await (const row of readJsonLines(docsPath)) {
      const doc = requireDocument(row, docsPath);
      byId.set(doc.doc_id, { doc, pages: [] });
    }
  const pagesPath = [join(dir, 'pages.jsonl.gz'), join(dir, 'pages.jsonl')].find(existsSync);
  if (hasPageText && !pagesPath) throw new Error(`no pages.jsonl(.gz) in ${dir}`);
  if (pagesPath && hasPageText)
    for await (const row of readJsonLines(pagesPath)) {
      const p = row as { doc_id: string; page: number; text: string };
      const filing = byId.get(p.doc_id);
      if (!filing) continue; // pages of documents without metadata are skipped, not guessed
      filing.pages[p.page] = typeof p.text === 'string' ? p.text : '';
      onPage?.();
    }
  const filings = [...byId.values()].filter((f) => f.pages.length > 0);
  for (const f of filings) for (let i = 0; i < f.pages.length; i++) f.pages[i] ??= '';
  // EDGAR HTML primary documents live beside the filings folder (e.g. fixtures/sample-corpus/edgar). EDGAR's
  // conformed name ("QUARRYSTONE ENERGY CORP") and missing GICS give way to the page-text corpus's row for the ticker.
  const byTicker = new Map(filings.map((f) => [f.doc.ticker, f.doc]));
  for (const edgar of edgarDirs.flatMap(readEdgarFolder)) {
    const known = byTicker.get(edgar.doc.ticker);
    if (known) {
      edgar.doc.company = known.company;
      edgar.doc.gics_sector ??= known.gics_sector;
      edgar.doc.gics_sub_industry ??= known.gics_sub_industry;
    }
    filings.push(edgar);
  }
  return filings.sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : a.doc.doc_id > b.doc.doc_id ? 1 : 0));
}

/**
 * The corpus one filing at a time, in the order the files hold them: page-text filings as their pages complete
 * (pages.jsonl(.gz) is in document order: all pages of a document are contiguous), then EDGAR documents. Memory
 * holds one filing's pages plus the document metadata. The caller orders filings itself (a build sorts by doc_id,
 * as readCorpus does). A document whose pages are not contiguous is an error, not a silent split.
 */
export async function* streamCorpus(dir: string, onPage?: () => void): AsyncGenerator<Filing> {
  const docsPath = join(dir, 'documents.jsonl');
  const edgarDirs = edgarFolders(dir);
  const hasPageText = existsSync(docsPath);
  if (!hasPageText && !edgarDirs.length)
    throw new Error(`${docsPath} not found: FILINGS_DIR must hold documents.jsonl or an edgar/ folder`);
  const docs = new Map<string, FilingDocument>();
  if (hasPageText)
    for await (const row of readJsonLines(docsPath)) {
      const doc = requireDocument(row, docsPath);
      docs.set(doc.doc_id, doc);
    }
  const pagesPath = [join(dir, 'pages.jsonl.gz'), join(dir, 'pages.jsonl')].find(existsSync);
  if (hasPageText && !pagesPath) throw new Error(`no pages.jsonl(.gz) in ${dir}`);
  const finished = new Set<string>();
  const withPages = new Set<string>();
  let current: Filing | null = null;
  const complete = (f: Filing): Filing | null => {
    finished.add(f.doc.doc_id);
    for (let i = 0; i < f.pages.length; i++) f.pages[i] ??= '';
    if (!f.pages.length) return null;
    withPages.add(f.doc.doc_id);
    return f;
  };
  if (pagesPath && hasPageText)
    for await (const row of readJsonLines(pagesPath)) {
      const p = row as { doc_id: string; page: number; text: string };
      if (current?.doc.doc_id !== p.doc_id) {
        const doc = docs.get(p.doc_id);
        if (!doc) continue; // pages of documents without metadata are skipped, not guessed
        if (finished.has(p.doc_id))
          throw new Error(
            `${pagesPath}: the pages of ${p.doc_id} are not contiguous; the file must be in document order`,
          );
        const done = current && complete(current);
        if (done) yield done;
        current = { doc, pages: [] };
      }
      current.pages[p.page] = typeof p.text === 'string' ? p.text : '';
      onPage?.();
    }
  const last = current && complete(current);
  if (last) yield last;
  // As readCorpus: EDGAR's conformed name and missing GICS give way to the page-text corpus's row for the ticker.
  const byTicker = new Map([...docs.values()].filter((d) => withPages.has(d.doc_id)).map((d) => [d.ticker, d]));
  for (const dirPath of edgarDirs) {
    for (const edgar of edgarFilings(dirPath)) {
      const known = byTicker.get(edgar.doc.ticker);
      if (known) {
        edgar.doc.company = known.company;
        edgar.doc.gics_sector ??= known.gics_sector;
        edgar.doc.gics_sub_industry ??= known.gics_sub_industry;
      }
      yield edgar;
    }
  }
}

interface EdgarSidecar {
  cik: string;
  company: string;
  form: string;
  filing_date: string | null;
  period_of_report: string;
  fiscal_year_end: string;
  ticker: string;
  gics_sector?: string | null;
  gics_sub_industry?: string | null;
  display_company?: string;
  /** Written by `fetch` (index-builder/fetch/fiscal.ts), which sees the company's other 10-Ks; used for 10-Qs. */
  fiscal_year?: number;
  fiscal_period?: string;
}

/** EDGAR primary documents (HTML) with their metadata: converted to page text and labelled by our conventions. */
export function readEdgarFolder(dir: string): Filing[] {
  return [...edgarFilings(dir)];
}

/** The same, one filing at a time (a streaming build never holds every document). */
export function* edgarFilings(dir: string): Generator<Filing> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)
    .filter((n) => /\.html?$/i.test(n))
    .sort()) {
    const sidecarPath = join(dir, name.replace(/\.html?$/i, '.json'));
    if (!existsSync(sidecarPath)) throw new Error(`${name}: EDGAR document without metadata sidecar ${sidecarPath}`);
    const meta = JSON.parse(readFileSync(sidecarPath, 'utf8')) as EdgarSidecar;
    const pages = htmlToPages(readFileSync(join(dir, name), 'utf8'));
    const form = meta.form.toUpperCase().replace(/^10K$/, '10-K').replace(/^10Q$/, '10-Q');
    if (form !== '10-K' && form !== '10-Q') continue;
    yield {
      doc: {
        doc_id: `EDGAR_${meta.cik}_${form.replace('-', '')}_${meta.period_of_report}`,
        collection: 'edgar',
        ticker: meta.ticker,
        cik: meta.cik,
        company: meta.display_company ?? meta.company,
        form_type: form,
        fiscal_year:
          form === '10-Q' && Number.isInteger(meta.fiscal_year)
            ? meta.fiscal_year!
            : fiscalYearLabel(meta.period_of_report),
        fiscal_period: form === '10-K' ? 'FY' : /^Q[1-4]$/.test(meta.fiscal_period ?? '') ? meta.fiscal_period! : 'Q?',
        period_of_report: meta.period_of_report,
        fiscal_year_end:
          form === '10-Q' && /^\d{4}$/.test(meta.fiscal_year_end)
            ? `${meta.fiscal_year_end.slice(0, 2)}-${meta.fiscal_year_end.slice(2)}`
            : meta.period_of_report.slice(5),
        filing_date: meta.filing_date,
        gics_sector: meta.gics_sector ?? null,
        gics_sub_industry: meta.gics_sub_industry ?? null,
        num_pages: pages.length,
      },
      pages,
    };
  }
}

export { fiscalYearLabel } from './fiscal-year';
