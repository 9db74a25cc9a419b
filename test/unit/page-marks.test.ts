import { describe, expect, it } from 'vitest';
import { segmentFiling } from '../../index-builder/segment/segment';
import { runningHeads, runningPageMarks } from '../../index-builder/statements/page-marks';
import { extractStatements } from '../../index-builder/statements/statements';

// Written for this test (invented company): an MD&A whose pages end with a running foot, the section's name and the
// printed page number, as some 10-Qs print them.
const HEADING = "Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations";

function statementsOf(...pages: string[][]): { kind: string; text: string }[] {
  return segmentFiling(
    '10-Q',
    pages.map((lines) => lines.join('\n')),
  )
    .flatMap((s) => extractStatements(s, '10-Q'))
    .map((s) => ({ kind: s.kind, text: s.text }));
}

/** Four pages of an MD&A whose first sentence a page break cuts, page n ending with `feet[n]`. */
function mdaWithFeet(...feet: string[]): string[] {
  return statementsOf(
    [HEADING, 'Revenue grew in every segment. Our operating expenses rose as we invested in new', feet[0]!],
    ['products and expanded our sales force.', 'Gross margin was flat against the prior year.', feet[1]!],
    ['Liquidity remained strong throughout the quarter.', feet[2]!],
    ['Capital spending was lower.', feet[3]!],
  ).map((s) => s.text);
}

const MDA_SENTENCES = [
  'Revenue grew in every segment.',
  'Our operating expenses rose as we invested in new products and expanded our sales force.',
  'Gross margin was flat against the prior year.',
  'Liquidity remained strong throughout the quarter.',
  'Capital spending was lower.',
];

describe('running heads and feet with page numbers', () => {
  it('are no statements, and a sentence they break reads whole', () => {
    expect(mdaWithFeet('   MD&A   34', '   MD&A   35', '   36   MD&A', '   MD&A   37')).toEqual(MDA_SENTENCES);
  });

  it('are found with a single space before the number, when the title holds a number too', () => {
    // "2019 FORM 10-K 27" reads as title "2019 FORM 10-K" and page 27, or as page 2019 and title "FORM 10-K 27": only
    // the first moves with the page.
    expect(mdaWithFeet('2024 FORM 10-Q 17', '18 EXAMPLE CORP.', '2024 FORM 10-Q 19', '20 EXAMPLE CORP.')).toEqual(
      MDA_SENTENCES,
    );
  });

  it('leave a table row that repeats at the foot of two pages without its number moving with the page', () => {
    const rows = statementsOf(
      [HEADING, '(In millions)   2024   2023', 'Net revenue   120   110', 'Total   35   30'],
      ['(In millions)   2024   2023', 'Cost of sales   70   66', 'Total   35   30'],
    ).filter((s) => s.kind === 'table_row');
    expect(rows.map((s) => s.text.split(':')[0])).toEqual(['Net revenue', 'Total', 'Cost of sales', 'Total']);
  });

  it('need a second page printing the same title with the number moving with it', () => {
    const line = (page: number, text: string) => ({ page, lineNo: 0, offset: 0, text });
    const alone = [line(1, 'Our revenue grew.'), line(1, '   Annual Report   7')];
    expect([...runningPageMarks(alone)]).toEqual([]);
    const moving = [...alone, line(2, 'Margins held.'), line(2, '   Annual Report   8')];
    expect([...runningPageMarks(moving)]).toEqual([1, 3]);
    const fixed = [...alone, line(2, 'Margins held.'), line(2, '   Annual Report   7')];
    expect([...runningPageMarks(fixed)]).toEqual([]);
  });
});

describe('running heads without a page number', () => {
  const report = (...pages: string[][]) =>
    statementsOf(
      ...pages.map((lines, n) =>
        n === 0 ? [HEADING, ...lines] : ['Financial Review', 'Example Corp. and Subsidiaries', ...lines],
      ),
    ).map((s) => s.text);

  it('are no statements, and a sentence a page break cuts reads whole across them', () => {
    expect(
      report(
        ['Revenue grew in every segment. In connection with the merger, the Company paid the seller'],
        ['$150 million for its expenses.', 'Gross margin was flat against the prior year.'],
        ['Liquidity remained strong through the year.'],
        ['Capital spending was lower.'],
      ),
    ).toEqual([
      'Revenue grew in every segment.',
      'In connection with the merger, the Company paid the seller $150 million for its expenses.',
      'Gross margin was flat against the prior year.',
      'Liquidity remained strong through the year.',
      'Capital spending was lower.',
    ]);
  });

  it('do not carry a paragraph past a running foot into the next page', () => {
    const foot = '© 2024 Example Corp. All Rights Reserved';
    const texts = report(
      ['Revenue grew in every segment.', foot],
      ['Gross margin was flat against the prior year.', foot],
      ['Liquidity remained strong through the year.', foot],
      ['Capital spending was lower.', foot],
    );
    expect(texts).toContain('Gross margin was flat against the prior year.');
    expect(texts).toContain('Liquidity remained strong through the year.');
  });

  it('include a title carried over to the next page, however few pages print it', () => {
    const texts = statementsOf(
      [HEADING, 'Revenue grew in every segment.', 'The purchase price was allocated to the assets acquired.'],
      [
        '1. Summary of Significant Accounting Policies (continued)',
        'At the end of the year, the Company had not completed its accounting for the acquisition of the business.',
      ],
    ).map((s) => s.text);
    expect(texts).toEqual([
      'Revenue grew in every segment.',
      'The purchase price was allocated to the assets acquired.',
      'At the end of the year, the Company had not completed its accounting for the acquisition of the business.',
    ]);
  });

  it("include a carried-over title's first line, printed above it on three pages, whatever its shape", () => {
    const first = 'Item 2—Discussion and Analysis (amounts in millions, except per share,';
    const second = 'share and store count data) (Continued)';
    const texts = statementsOf(
      [HEADING, 'Revenue grew in every segment. Our operating expenses rose as we invested in our'],
      [first, second, 'products. Gross margin was flat against the prior year.'],
      [first, second, 'Liquidity remained strong throughout the quarter.'],
      [first, second, 'Capital spending was lower.'],
    ).map((s) => s.text);
    expect(texts).toEqual([
      'Revenue grew in every segment.',
      'Our operating expenses rose as we invested in our products.',
      'Gross margin was flat against the prior year.',
      'Liquidity remained strong throughout the quarter.',
      'Capital spending was lower.',
    ]);
  });

  it('need three pages printing the line at their top, and no figure or period words in it', () => {
    const line = (page: number, text: string) => ({ page, lineNo: 0, offset: 0, text });
    const pages = (head: string, n: number) =>
      Array.from({ length: n }, (_, p) => [line(p, head), line(p, `Page ${p} says something else.`)]).flat();
    expect([...runningHeads(pages('Example Corp. and Subsidiaries', 2))]).toEqual([]);
    expect([...runningHeads(pages('Example Corp. and Subsidiaries', 3))]).toEqual([0, 2, 4]);
    expect([...runningHeads(pages('Year Ended December 31,', 3))]).toEqual([]);
    expect([...runningHeads(pages('(In millions)', 3))]).toEqual([]);
  });
});
