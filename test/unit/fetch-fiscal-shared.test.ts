import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../index-builder/fetch/constituents';
import { deriveFiscalLabels } from '../../index-builder/fetch/fiscal';

/** The shared corpus's hand-checked labels, as an oracle for the fetcher's fiscal labels. Skips without ../shared. */
// SHARED_DIR: for worktrees
const SHARED = join(process.env.SHARED_DIR ?? join(process.cwd(), '..', 'shared'), 'corpus');
const present =
  existsSync(join(SHARED, 'filings', 'documents.jsonl')) &&
  existsSync(join(SHARED, 'reference', 'fiscal-year-end.csv'));

describe.skipIf(!present)('fetch fiscal labels against the shared corpus', () => {
  it(`agrees with documents.jsonl on every fiscal year and period, and on year ends wherever a 10-K precedes the \
quarter`, () => {
    interface Doc {
      doc_id: string;
      ticker: string;
      form_type: '10-K' | '10-Q';
      period_of_report: string;
      fiscal_year: number;
      fiscal_period: string;
      fiscal_year_end: string;
    }
    const docs = readFileSync(join(SHARED, 'filings', 'documents.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Doc);
    const [header, ...rows] = parseCsv(readFileSync(join(SHARED, 'reference', 'fiscal-year-end.csv'), 'utf8'));
    const col = (name: string) => header!.indexOf(name);
    const reference = new Map(
      rows.map((r) => [
        r[col('ticker')]!,
        {
          mmdd: r[col('fiscal_year_end')]!.replace('-', ''),
          tenKs: (r[col('corpus_10k_period_ends')] ?? '').split(';').filter(Boolean),
        },
      ]),
    );
    let checked = 0;
    let yearEnds = 0;
    for (const d of docs) {
      const ref = reference.get(d.ticker);
      if (!ref) continue;
      // What EDGAR's submissions would give: the company's 10-K report dates and its current fiscalYearEnd.
      const tenKs = [
        ...new Set([
          ...ref.tenKs,
          ...docs.filter((x) => x.ticker === d.ticker && x.form_type === '10-K').map((x) => x.period_of_report),
        ]),
      ];
      const got = deriveFiscalLabels(d.form_type, d.period_of_report, tenKs, ref.mmdd);
      expect([d.doc_id, got?.fiscal_year, got?.fiscal_period]).toEqual([d.doc_id, d.fiscal_year, d.fiscal_period]);
      checked++;
      const days = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
      if (d.form_type === '10-K' || tenKs.some((k) => k < d.period_of_report && days(k, d.period_of_report) <= 400)) {
        expect([d.doc_id, got?.fiscal_year_end]).toEqual([d.doc_id, d.fiscal_year_end.replace('-', '')]);
        yearEnds++;
      }
    }
    expect(checked).toBeGreaterThan(250);
    expect(yearEnds).toBeGreaterThan(250);
  });
});
