/**
 * FinQA's records carry their own page (pre_text, table, post_text) from annual reports that are mostly not in
 * the filings corpus (4 of 100 are). So the bench indexes them as a second, small corpus with the same builder and
 * serves it from a second local R2/KV state: one filing per ticker + FinQA year, one page per distinct FinQA page.
 * The text is the record's own: pre_text sentences, the original table one row per line (cells separated by
 * three spaces, like layout text), post_text. Metadata the records do not carry (period end, fiscal year end) is a
 * placeholder (YYYY-12-31); FinQA questions never name it, so it cannot help or hurt retrieval. The records do not
 * say which 10-K item a page belongs to either, and the builder keeps only text under an item heading, so each
 * filing's first page starts with a placeholder "Item 8" heading (its pages are mostly statements and notes).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FinqaRecord {
  id: string;
  filename: string;
  ticker: string;
  finqa_year: string;
  page: string;
  gics_sector_by_ticker: string | null;
  gics_sub_industry_by_ticker: string | null;
  cik_by_ticker: string | null;
  pre_text: string[];
  post_text: string[];
  table_ori: string[][];
  qa: {
    question: string;
    answer: string;
    program: string;
    gold_inds: Record<string, string>;
    exe_ans: number | string;
  };
}

export function readFinqa(path: string): FinqaRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FinqaRecord);
}

function companyNames(constituentsCsv: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of readFileSync(constituentsCsv, 'utf8').split('\n').slice(1)) {
    const m = /^([^,]+),("[^"]*"|[^,]*)/.exec(line);
    if (m) names.set(m[1]!, m[2]!.replace(/^"|"$/g, ''));
  }
  return names;
}

function pageText(r: FinqaRecord): string {
  const prose = (xs: string[]) => xs.filter((s) => s.trim() && s.trim() !== '.').join(' ');
  const table = r.table_ori.map((row) => row.join('   ')).join('\n');
  return [prose(r.pre_text), table, prose(r.post_text)].filter(Boolean).join('\n\n');
}

export const finqaDocId = (r: Pick<FinqaRecord, 'ticker' | 'finqa_year'>) => `FINQA_${r.ticker}_${r.finqa_year}`;

/**
 * Writes documents.jsonl and pages.jsonl into `dir`; returns each record's (doc_id, 0-based page).
 */
export function writeFinqaCorpus(
  records: readonly FinqaRecord[],
  constituentsCsv: string,
  dir: string,
): Map<string, { docId: string; page: number }> {
  const names = companyNames(constituentsCsv);
  const byDoc = new Map<string, Map<string, FinqaRecord>>();
  for (const r of records) {
    const pages = byDoc.get(finqaDocId(r)) ?? new Map<string, FinqaRecord>();
    if (!pages.has(r.page)) pages.set(r.page, r);
    byDoc.set(finqaDocId(r), pages);
  }
  const docs: string[] = [];
  const pageLines: string[] = [];
  const where = new Map<string, { docId: string; page: number }>();
  for (const docId of [...byDoc.keys()].sort()) {
    const pages = [...byDoc.get(docId)!.values()].sort((a, b) => Number(a.page) - Number(b.page));
    const first = pages[0]!;
    docs.push(
      JSON.stringify({
        doc_id: docId,
        collection: 'finqa',
        ticker: first.ticker,
        cik: first.cik_by_ticker,
        company: names.get(first.ticker) ?? first.ticker,
        form_type: '10-K',
        fiscal_year: Number(first.finqa_year),
        fiscal_period: 'FY',
        period_of_report: `${first.finqa_year}-12-31`,
        fiscal_year_end: '12-31',
        filing_date: null,
        gics_sector: first.gics_sector_by_ticker,
        gics_sub_industry: first.gics_sub_industry_by_ticker,
        num_pages: pages.length,
      }),
    );
    const heading = 'Item 8. Financial Statements and Supplementary Data\n';
    pages.forEach((p, i) => {
      pageLines.push(JSON.stringify({ doc_id: docId, page: i, text: (i === 0 ? heading : '') + pageText(p) }));
    });
    for (const r of records) {
      if (finqaDocId(r) !== docId) continue;
      where.set(r.id, { docId, page: pages.findIndex((p) => p.page === r.page) });
    }
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'documents.jsonl'), `${docs.join('\n')}\n`);
  writeFileSync(join(dir, 'pages.jsonl'), `${pageLines.join('\n')}\n`);
  return where;
}
