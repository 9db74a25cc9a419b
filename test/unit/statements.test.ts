import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonLines } from '../../index-builder/segment/read-corpus';
import { sharedDir } from '../../index-builder/shared-dir';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements, rowMetrics, wrappingText } from '../../index-builder/statements/statements';
import {
  blockPeriod,
  cellValue,
  columnGroups,
  columnHeadings,
  factText,
  headingsGoOn,
  joinHeading,
  parseHeader,
  parseRow,
  parseScale,
  parseSpans,
  shareKind,
} from '../../index-builder/statements/table-facts';
import fc from 'fast-check';
import { METRICS, metricByCode, metricCodes, metricCodesTryingAll } from '../../index-format/metrics';

// Written for this test (invented company): a 10-Q statement of operations with a three-line header, a group
// label, a wrapped row label and a cash-flow table with a caption column and a "$ ... $" cell.
const TEN_Q = [
  'PART I — FINANCIAL INFORMATION',
  'Item 1. Financial Statements',
  '   EXAMPLE WIDGETS INC.',
  '   (In millions, except per share amounts)',
  '   Three Months Ended   Nine Months Ended',
  '   March 30,   March 25,   March 30,   March 25,',
  '   2024   2023   2024   2023',
  'Net sales:',
  ' Products   $   1,210   $   1,105   $   3,300   $   3,050',
  ' Services   200   180   590   540',
  '   Total net sales   1,410   1,285   3,890   3,590',
  'Purchases and proceeds from maturities of marketable',
  ' securities, net   (12)   4   (30)   9',
  'Diluted earnings per share   $   0.52   $   0.47   $   1.40   $   1.22',
  'Item 2. Management’s Discussion and Analysis',
  'Net sales rose 10% to $1,410 million in the quarter.',
].join('\n');

/** The statements of a filing whose pages are given as lines, as the builder extracts them. */
function statementsOf(form: '10-K' | '10-Q', ...pages: string[][]) {
  return segmentFiling(
    form,
    pages.map((lines) => lines.join('\n')),
  ).flatMap((s) => extractStatements(s, form));
}

/** The table rows of a filing whose pages are given as lines. */
function tableRowsOf(form: '10-K' | '10-Q', ...pages: string[][]) {
  return statementsOf(form, ...pages).filter((r) => r.kind === 'table_row');
}

describe('table facts', () => {
  it('reads a figure with a footnote mark printed against it as the figure', () => {
    // Written for this test: a five-year summary whose figures carry their footnotes' letters.
    expect(parseRow('Net income   39,240(b)   16,571(c)   (173)(a)(d)   0.39(e)')!.values).toEqual([
      '39,240',
      '16,571',
      '(173)',
      '0.39',
    ]);
    // A mark standing alone before the figures stays the label's, and words after the label are still prose.
    expect(parseRow('Revenue   (a)   1,234   1,100')!.label).toBe('Revenue (a)');
    expect(parseRow('Net income   rose to 39,240(b) in the year')).toBeNull();
  });

  it('reads the prose after a table whole: a colon over prose, and a paragraph through its short lines', () => {
    // Written for this test: an MD&A table, then a paragraph whose first line ends in a colon and whose bullets wrap.
    const texts = statementsOf('10-K', [
      'PART II',
      "Item 7. Management's Discussion and Analysis",
      '   For the Years Ended December 31,',
      '(Dollars in millions)   2023   2022',
      'Production costs   $   32   $   37',
      'Total   $   362   $   337',
      '',
      '   In 2023, operating expense increased $25 million, or 7.4%, primarily due to a:',
      '',
      '   •   $7 million increase in employee-related costs in our services group from the acquisition of a business,',
      '   offset by lower costs in our contract group;',
      '   and',
      '',
      '   •   $5 million decrease in production costs from lower purchased water.',
    ]).map((s) => s.text);
    // Held as the rows' group label, the first line was dropped; the "and" was held as one too.
    expect(texts.join(' ')).toContain('primarily due to a:');
    expect(texts.join(' ')).toContain('contract group; and');
    // A line ending in a colon over rows is still their group label.
    const rows = tableRowsOf('10-K', [
      'PART II',
      "Item 7. Management's Discussion and Analysis",
      '(Dollars in millions)   2023   2022',
      'Revenue   $   900   $   800',
      'Operating expenses:',
      '   Cost of sales   500   450',
    ]);
    expect(rows.map((r) => r.text)).toContain(
      'Operating expenses: Cost of sales: 500 for FY2023 | 450 for FY2022 (USD millions)',
    );
  });

  it("reads a sentence's middle line starting with a name and ending on 'and' as the sentence's", () => {
    // Written for this test: a bullet whose second line starts with a product's name.
    const texts = statementsOf('10-K', [
      'PART II',
      "Item 7. Management's Discussion and Analysis",
      '   The decrease in marketing expenses for 2023 was primarily due to:',
      '',
      '   •   a decrease of $107 million in marketing spending, primarily associated with lower costs for the',
      '   Skyline franchise, partially offset by marketing costs for Harbor Quest; and',
      '',
      '   •   a decrease of $44 million in amortization of an acquired intangible asset.',
    ]).map((s) => s.text);
    expect(texts.join(' ')).toContain(
      'costs for the Skyline franchise, partially offset by marketing costs for Harbor Quest; and',
    );
  });

  it('parses rows with $ tokens and parenthesised negatives', () => {
    expect(parseRow('Net cash used in investing activities   $   222   $   (3,086) $   (1,403)')!.values).toEqual([
      '222',
      '(3,086)',
      '(1,403)',
    ]);
    expect(parseRow('Free cash flow conversion   91 %   100 %')!.values).toEqual(['91%', '100%']);
    expect(parseRow('The Company had   three   segments')).toBeNull();
    expect(cellValue('(1,577)')).toBe(-1577);
    expect(cellValue('—')).toBe(0);
    expect(parseHeader('(Millions)   2018   2017   2016')).toEqual({
      cells: ['2018', '2017', '2016'],
      caption: '(Millions)',
    });
    // A balance sheet's month-day heads its year columns: it is not a column of its own.
    expect(parseHeader('September 30,   2024   2023')).toEqual({
      cells: ['2024', '2023'],
      caption: null,
      monthDay: 'September 30,',
    });
  });

  it('reads figures in points and negatives whose closing parenthesis the layout split off', () => {
    expect(parseRow('Net price realization and mix   15 pts')!.values).toEqual(['15 pts']);
    expect(parseRow('Contributions from volume growth (a)   (8)pts   1 pt')!.values).toEqual(['(8)pts', '1 pt']);
    expect(parseRow('Operating margin   5.4 %   6.7 %   (130 ) bp')!.values).toEqual(['5.4%', '6.7%', '(130) bp']);
    expect(parseRow('Purchases of property, plant and equipment   (2,553 )   (2,406 )')!.values).toEqual([
      '(2,553)',
      '(2,406)',
    ]);
    // A unit or a parenthesis with no figure before it is still a word of prose.
    expect(parseRow('Our targets   bps   and more')).toBeNull();
    expect(parseRow('Totals   )   12')).toBeNull();
    expect(cellValue('(8)pts')).toBe(-8);
    expect(cellValue('(130) bp')).toBe(-130);
    expect(cellValue('15 pts')).toBe(15);
  });

  it('keeps a row whose cells hold no figure (NM, N/A), and one with a dollar inside parentheses', () => {
    expect(parseRow('Health Care   5,420   17.9 %   (2.7)%   —%')!.values).toEqual(['5,420', '17.9%', '(2.7)%', '—%']);
    expect(parseRow('Share of free cash flow   NM   1%   6%')!.values).toEqual(['NM', '1%', '6%']);
    // No figure at all: not a row.
    expect(parseRow('Segment margin   NM   N/A')).toBeNull();
    // A dollar inside parentheses is a negative figure; a parenthesis opening words is no figure.
    expect(parseRow('Projected benefit obligation   ($2,128)   $2,648')!.values).toEqual(['(2,128)', '2,648']);
    expect(cellValue('(2,128)')).toBe(-2128);
    expect(parseRow('Benefit obligation   (   see note)')).toBeNull();
    // A footnote mark where a figure would stand is a cell with no value; before the first figure, the label's.
    expect(parseRow('Card Member receivables   27   900   (c)   20')!.values).toEqual(['27', '900', '(c)', '20']);
    expect(parseRow('Streaming partner   10 %   *')!.values).toEqual(['10%', '*']);
    expect(cellValue('(c)')).toBeNull();
    expect(parseRow('Net revenue   (a)   1,234   5,678')).toEqual({
      label: 'Net revenue (a)',
      values: ['1,234', '5,678'],
      indent: 0,
    });
    expect(parseRow('Segment margin   *   (b)')).toBeNull();
    expect(cellValue('NM')).toBeNull();
    expect(cellValue('—%')).toBeNull();
    expect(parseRow('Geothermal   — %')!.values).toEqual(['—%']);
  });

  it("keeps a table of points without the caption's currency, and a row whose negatives were split", () => {
    // Written for this test (invented company): an MD&A table of a change's drivers under a "(In millions)" caption.
    const page = [
      'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations',
      'Net sales were as follows:',
      '(In millions)   Fiscal 2024   Fiscal 2023',
      'Net sales   $   1,210   $   1,105',
      'Contributions from volume growth   (3)pts   2 pts',
      'Net price realization and mix   12 pts   4 pts',
      'Purchases of land and buildings   (253 )   (206 )',
    ];
    const stmts = statementsOf('10-K', page);
    const volume = stmts.find((r) => r.text.startsWith('Contributions from volume growth'))!;
    expect(volume.text).toBe('Contributions from volume growth: (3)pts for FY2024 | 2 pts for FY2023');
    expect(volume.fact!.unit).toBe('points');
    expect(volume.fact!.cells.map((c) => c.value)).toEqual([-3, 2]);
    // A row of dashes alone is no row of points.
    const none = statementsOf('10-K', [...page.slice(0, 3), 'Impairment charges   —   —']);
    expect(none.find((r) => r.text.startsWith('Impairment charges'))!.fact!.unit).toBe('%');
    expect(stmts.find((r) => r.text.startsWith('Purchases of land'))!.text).toBe(
      'Purchases of land and buildings: (253) for FY2024 | (206) for FY2023 (USD millions)',
    );
  });

  it('names the column groups a header repeats its years under, and matches a cell by its group', () => {
    // Written for this test (invented company): a segment table and a geographic table whose column groups repeat
    // their years, as a 10-K's segment note prints them.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Segment information',
      '(In millions)',
      '   Net Sales   Operating Income',
      '   2024   2023   2022   2024   2023   2022',
      'Industrial   $   4,100   $   3,900   $   3,700   $   610   $   590   $   540',
      'Geographic information',
      '(In millions)',
      '   Net Revenue   Long-Lived Assets(a)',
      '   2024   2023   2022   2024   2023',
      'Canada   1,250   1,190   1,105   880   860',
    ];
    const stmts = statementsOf('10-K', page);
    const industrial = stmts.find((r) => r.text.startsWith('Industrial'))!;
    expect(industrial.text).toBe(
      'Industrial: Net Sales: 4,100 for FY2024 | 3,900 for FY2023 | 3,700 for FY2022 | Operating Income: 610 for ' +
        'FY2024 | 590 for FY2023 | 540 for FY2022 (USD millions)',
    );
    expect(industrial.fact!.cells.map((c) => c.periodKey)).toEqual([
      'FY2024|net sales',
      'FY2023|net sales',
      'FY2022|net sales',
      'FY2024|operating income',
      'FY2023|operating income',
      'FY2022|operating income',
    ]);
    // Groups of unequal width: a new group starts where the years stop running down.
    const canada = stmts.find((r) => r.text.startsWith('Canada'))!;
    expect(canada.fact!.cells.map((c) => c.group)).toEqual([
      'Net Revenue',
      'Net Revenue',
      'Net Revenue',
      'Long-Lived Assets(a)',
      'Long-Lived Assets(a)',
    ]);
    // A caption over the whole header, or headings that do not line up with the years, name no groups.
    expect(columnGroups('Net Sales   Operating Income   Assets', ['2024', '2023', '2024', '2023'])).toBeNull();
    expect(columnGroups('Net Sales', ['2024', '2023'])).toBeNull();
    expect(columnGroups('Total   1,204   998', ['2024', '2023', '2024', '2023'])).toBeNull();
  });

  it('reads sub-columns repeated under each period, and a heading line over rows closed by their total', () => {
    // Written for this test (invented company): segment sales and profit in dollars and as a share of the total.
    const page = [
      'Item 7. Management’s Discussion and Analysis',
      'The following tables show each segment’s net sales and operating profit:',
      '   Fiscal Year',
      '   2024   2023',
      'In Millions   Dollars   Percent of Total   Dollars   Percent of Total',
      'Net Sales',
      'Retail   $   5,100.5   60 % $   4,900.0   58 %',
      'Pet   3,400.0   40   3,550.0   42',
      'Total   $   8,500.5   100 % $   8,450.0   100 %',
      '',
      'Segment Operating Profit',
      'Retail   $   1,010.2   70 % $   980.1   69 %',
      'Pet   433.0   30   440.4   31',
      'Total   $   1,443.2   100 % $   1,420.5   100 %',
    ];
    const stmts = statementsOf('10-K', page);
    const pet = stmts.filter((r) => r.text.includes('Pet: '));
    expect(pet.map((r) => r.text)).toEqual([
      'Net Sales: Pet: Dollars 3,400.0, Percent of Total 40 for FY2024 | Dollars 3,550.0, Percent of Total 42 for ' +
        'FY2023 (USD millions)',
      'Segment Operating Profit: Pet: Dollars 433.0, Percent of Total 30 for FY2024 | Dollars 440.4, Percent of ' +
        'Total 31 for FY2023 (USD millions)',
    ]);
    expect(pet[1]!.fact!.cells.map((c) => c.periodKey)).toEqual([
      'FY2024|dollars',
      'FY2024|percent of total',
      'FY2023|dollars',
      'FY2023|percent of total',
    ]);
    // Only cells of one period under sub-columns join with commas; a cell printed with a comma of its own does not.
    const cell = (raw: string) => ({ raw, value: null, period: null, periodKey: null });
    expect(factText({ label: 'March 31, 2021', cells: [cell('31,'), cell('2020')], scale: null, unit: null })).toBe(
      'March 31, 2021: 31, | 2020',
    );
    // A bare total takes its group's label.
    expect(
      stmts.some((r) => r.text.startsWith('Segment Operating Profit: Total: Dollars 1,443.2, Percent of Total 100')),
    ).toBe(true);
  });

  it('names the cells of a table whose columns are not periods by their headings, unless the headings wrap', () => {
    // Written for this test (invented company): a lease note under one date, and a statement of equity whose column
    // headings wrap over two lines.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Our lease liabilities were as follows (in millions):',
      '   December 31, 2024',
      '   Operating Leases   Finance Leases   Total',
      'Gross lease liabilities   $   4,164   $   3,437   $   7,601',
      'Less: imputed interest   (706)   (130)   (836)',
      'The liabilities are discounted at the rates implicit in the leases, or our incremental borrowing rate.',
      '   Common   Retained',
      '   Stock   Earnings   Total',
      'Balance at December 31, 2023   $   120   $   5,400   $   5,520',
    ];
    const stmts = statementsOf('10-K', page);
    // Under the one date over them all, each cell is that date's, in its heading's group, and matches the same cell of
    // another filing.
    expect(stmts.find((r) => r.text.startsWith('Gross lease liabilities'))!.text).toBe(
      'Gross lease liabilities: Operating Leases 4,164, Finance Leases 3,437, Total 7,601 for December 31, 2024 ' +
        '(USD millions)',
    );
    expect(stmts.find((r) => r.text.startsWith('Less: imputed'))!.fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-12-31|operating leases',
      '2024-12-31|finance leases',
      '2024-12-31|total',
    ]);
    expect(stmts.find((r) => r.text.startsWith('Balance at'))!.text).toBe(
      'Balance at December 31, 2023: 120 | 5,400 | 5,520',
    );
    expect(columnHeadings('(In millions)   Flexibles   Rigid Packaging   Total', 3)).toEqual([
      'Flexibles',
      'Rigid Packaging',
      'Total',
    ]);
    expect(columnHeadings('Flexibles   Rigid Packaging', 3)).toBeNull();
    expect(columnHeadings('(in millions)   (per share)', 2)).toBeNull();
  });

  it('joins column headings wrapped over lines with a cell for every column, sub-columns too', () => {
    // Written for this test (invented company): maturities of debt securities under two-line headings, and hedges
    // under sub-column headings wrapped over three lines below the years.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'The contractual maturities of our debt securities at December 31, 2024 were (in millions):',
      '   Amortized   Estimated',
      '   Cost   Fair Value',
      'Due within one year   $   3,506   $   3,507',
      'Due after one year   926   930',
      'The gains on our hedges were as follows (in millions):',
      '   2024   2023',
      '   Foreign   Foreign   Foreign   Foreign',
      '   Exchange   Exchange   Exchange   Exchange',
      '   Option   Forward   Option   Forward',
      'Gain recognized in income   $   12   $   30   $   8   $   25',
    ];
    const stmts = statementsOf('10-K', page);
    expect(stmts.find((r) => r.text.startsWith('Due within'))!.text).toBe(
      'Due within one year: 3,506 for Amortized Cost | 3,507 for Estimated Fair Value (USD millions)',
    );
    expect(stmts.find((r) => r.text.startsWith('Gain recognized'))!.text).toBe(
      'Gain recognized in income: Foreign Exchange Option 12, Foreign Exchange Forward 30 for FY2024 | Foreign ' +
        'Exchange Option 8, Foreign Exchange Forward 25 for FY2023 (USD millions)',
    );
    expect(headingsGoOn('   Stock   Earnings   Total', 2)).toBeNull();
    expect(headingsGoOn('Net income   1,204   998', 3)).toBeNull();
    expect(joinHeading('Weighted-', 'average')).toBe('Weighted-average');
  });

  it('lines up headings whose upper lines have fewer cells by the filing text, only where one placing fits', () => {
    // Written for this test (invented company): MD&A names the segments in prose; the segment note wraps three of
    // its headings ("Latin" over "America"), then a consolidating table wraps "Guarantor" over two alike headings.
    const mdna = [
      "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations",
      'Net sales in Latin America and North America rose, while Bottling Investments sales fell.',
      'The Guarantor Subsidiaries and the Non-Guarantor Subsidiaries hold the brands.',
      'Accumulated other comprehensive loss grew.',
    ];
    const note = [
      'Item 8. Financial Statements and Supplementary Data',
      'Our operating segments were as follows (in millions):',
      '   Latin   North   Bottling',
      '   Europe   America   America   Investments   Consolidated',
      'Operating income   $   3,313   $   2,116   $   2,471   $   308   $   8,208',
      'The parent guarantees the notes (in millions):',
      '   Non-',
      '   Guarantor   Guarantor',
      '   Parent   Subsidiaries   Subsidiaries   Eliminations   Consolidated',
      'Net revenues   $   40   $   900   $   350   $   (90)   $   1,200',
      'Changes in equity were as follows (in millions):',
      '   Statement of Equity',
      '   Accumulated',
      '   Retained   Other Comprehensive   Total',
      '   Earnings   Loss   Equity',
      'Balance at December 31, 2024   $   5,400   $   (120)   $   5,280',
    ];
    const pages = [mdna.join('\n'), note.join('\n')];
    const text = wrappingText(pages);
    const stmts = segmentFiling('10-K', pages).flatMap((s) => extractStatements(s, '10-K', text));
    expect(stmts.find((r) => r.text.startsWith('Operating income'))!.text).toBe(
      'Operating income: 3,313 for Europe | 2,116 for Latin America | 2,471 for North America | 308 for Bottling ' +
        'Investments | 8,208 for Consolidated (USD millions)',
    );
    // A line of one cell joins where the filing writes the name ("Accumulated"); a title line does not.
    expect(stmts.find((r) => r.text.startsWith('Balance at'))!.text).toBe(
      'Balance at December 31, 2024: 5,400 for Retained Earnings | (120) for Accumulated Other Comprehensive Loss | ' +
        '5,280 for Total Equity (USD millions)',
    );
    // "Non-" fits either "Guarantor Subsidiaries" column, and without it two columns read alike: no headings.
    expect(stmts.find((r) => r.text.startsWith('Net revenues'))!.text).toBe(
      'Net revenues: 40 | 900 | 350 | (90) | 1,200 (USD millions)',
    );
    // Without the filing's text (the section's own lines never write the joined names) the columns keep no headings.
    const alone = segmentFiling('10-K', [note.join('\n')]).flatMap((s) => extractStatements(s, '10-K'));
    expect(alone.find((r) => r.text.startsWith('Operating income'))!.text).toBe(
      'Operating income: 3,313 | 2,116 | 2,471 | 308 | 8,208 (USD millions)',
    );
  });

  it('names columns by a line of group names over a run of sub-columns repeated once per group', () => {
    // Written for this test (invented company): plants owned and leased by kind, and option grants whose "Fair Value"
    // wraps over the second column of each run.
    const page = [
      'Item 2. Properties',
      'The number of our facilities at December 31, 2024 was as follows:',
      '   Syrup Plants   Bottling Plants   Warehouses',
      '   Owned   Leased   Owned   Leased   Owned   Leased',
      'North America   5   1   20   4   60   31',
      'Item 8. Financial Statements and Supplementary Data',
      'Our option grants were as follows:',
      '   Fair Value   Fair Value',
      '   Shares   Per Share   Shares   Per Share',
      'Granted   1,200   41.50   900   38.10',
    ];
    const stmts = statementsOf('10-K', page);
    expect(stmts.find((r) => r.text.startsWith('North America'))!.text).toBe(
      'North America: 5 for Syrup Plants Owned | 1 for Syrup Plants Leased | 20 for Bottling Plants Owned | 4 for ' +
        'Bottling Plants Leased | 60 for Warehouses Owned | 31 for Warehouses Leased',
    );
    // One name over each run is a heading wrapped over one of its columns, not a group: no headings.
    expect(stmts.find((r) => r.text.startsWith('Granted'))!.text).toBe('Granted: 1,200 | 41.50 | 900 | 38.10');
  });

  it('reads a row label as long as a line of prose as its row, so the rows after it keep their periods', () => {
    // Written for this test (invented company): the equity section of a balance sheet, four labels wrapped once.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'CONSOLIDATED BALANCE SHEETS',
      '(In millions, except per share amounts)',
      'December 31,   2024   2023',
      'Shareholders’ equity:',
      '   Preferred stock, Series A – Par value $100 per share; Shares authorized 10 million; Shares issued: 0 and',
      '   2,300   2,300',
      '   Common stock – Par value $0.50 per share; Shares authorized 3.8 billion; Shares issued: 1.8 billion and',
      '   1.7 billion shares outstanding   907   863',
      '   Capital in excess of par value, 4,188 issued and outstanding (4,137 issued and outstanding as of December',
      '   31, 2023)   34,330   31,580',
      '   Treasury stock, at cost, 120 shares (118 shares as of December 31, 2023, 115 shares as of December 31,',
      '   2022)   (5,200)   (5,010)',
      '   Retained earnings   16,389   16,120',
    ];
    const texts = statementsOf('10-K', page).map((r) => r.text);
    expect(texts).toEqual([
      'Shareholders’ equity: Preferred stock, Series A – Par value $100 per share; Shares authorized 10 million; ' +
        'Shares issued: 0 and: 2,300 for FY2024 | 2,300 for FY2023 (USD millions)',
      'Shareholders’ equity: Common stock – Par value $0.50 per share; Shares authorized 3.8 billion; Shares issued: ' +
        '1.8 billion and 1.7 billion shares outstanding: 907 for FY2024 | 863 for FY2023 (USD millions)',
      // A label broken inside a date: the day and year are the label's, the figures after them its row.
      'Shareholders’ equity: Capital in excess of par value, 4,188 issued and outstanding (4,137 issued and ' +
        'outstanding as of December 31, 2023): 34,330 for FY2024 | 31,580 for FY2023 (USD millions)',
      'Shareholders’ equity: Treasury stock, at cost, 120 shares (118 shares as of December 31, 2023, 115 shares as ' +
        'of December 31, 2022): (5,200) for FY2024 | (5,010) for FY2023 (USD millions)',
      'Shareholders’ equity: Retained earnings: 16,389 for FY2024 | 16,120 for FY2023 (USD millions)',
    ]);
  });

  it('reads a balance sheet whose columns are headed "At December 31, 2024"', () => {
    // Written for this test (invented company).
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'CONSOLIDATED BALANCE SHEETS',
      '(Amounts in millions, except share data)',
      '   At December 31, 2024   At December 31, 2023',
      'Cash and cash equivalents   $   10,423   $   8,647',
      '   As of March 30, 2024   As of December 31, 2023',
      'Total assets   25,056   23,109',
    ];
    expect(statementsOf('10-K', page).map((r) => r.text)).toEqual([
      'Cash and cash equivalents: 10,423 for December 31, 2024 | 8,647 for December 31, 2023 (USD millions)',
      'Total assets: 25,056 for March 30, 2024 | 23,109 for December 31, 2023 (USD millions)',
    ]);
  });

  it('reads a period printed on a line of its own over each block of a segment table', () => {
    // Written for this test (invented company): segments across, fiscal years down; a group label may stand between a
    // block's period and its first row. A lone year over prose is not a block.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Our segment results for fiscal 2024 and 2023 were as follows (dollars in thousands):',
      '   Creative Tools   Analytics   Total',
      'Fiscal 2024',
      'Revenue   $   3,941   $   1,736   $   5,677',
      'Gross profit   3,709   1,155   4,864',
      'Fiscal 2023',
      'Segment costs:',
      'Cost of revenue   210   525   735',
      '2023',
      'Our headcount grew in every region.',
    ];
    const rows = statementsOf('10-K', page).filter((r) => r.kind === 'table_row');
    expect(rows.map((r) => r.text)).toEqual([
      'Revenue: Creative Tools 3,941, Analytics 1,736, Total 5,677 for FY2024 (USD thousands)',
      'Gross profit: Creative Tools 3,709, Analytics 1,155, Total 4,864 for FY2024 (USD thousands)',
      'Cost of revenue: Creative Tools 210, Analytics 525, Total 735 for FY2023 (USD thousands)',
    ]);
    expect(blockPeriod('December 31, 2022')).toBe('December 31, 2022');
    expect(blockPeriod('   December 31,')).toBeNull(); // a header's month-day line
    expect(blockPeriod('Fiscal 2016   2015')).toBeNull();
    // Each cell matches the same segment's cell of that year in another filing.
    expect(rows[0]!.fact!.cells.map((c) => c.periodKey)).toEqual([
      'FY2024|creative tools',
      'FY2024|analytics',
      'FY2024|total',
    ]);
  });

  it("takes a table's scale from the sentence that introduces it", () => {
    // Written for this test (invented company): one table introduced "(in millions):", one after a sentence that
    // does not introduce it.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Income before income taxes consisted of the following (in millions):',
      '   2024   2023',
      'United States   $   1,130   $   1,801',
      'International   8,023   7,804',
      'Our foreign earnings are reinvested in millions of small ways.',
      '   2024   2023',
      'Effective tax rate   21.4 %   19.8 %',
      'Employees at year end   61,200   57,500',
    ];
    // A caption of the scale alone in parentheses, as 3M prints it, and one before a line's column headings.
    expect(parseScale('(Millions)')).toBe('millions');
    expect(parseScale('(Thousands)   Employee-Related   Asset-Related   Total')).toBe('thousands');
    const rows = statementsOf('10-K', page).filter((r) => r.kind === 'table_row');
    expect(rows.map((r) => r.text)).toEqual([
      'United States: 1,130 for FY2024 | 1,801 for FY2023 (USD millions)',
      'International: 8,023 for FY2024 | 7,804 for FY2023 (USD millions)',
      'Effective tax rate: 21.4% for FY2024 | 19.8% for FY2023',
      'Employees at year end: 61,200 for FY2024 | 57,500 for FY2023',
    ]);
  });

  it('reads the levels of the fair-value hierarchy as column headings', () => {
    // Written for this test (invented company): a fair-value table under one date, its levels across.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Note 9. Fair Value Measurements',
      '   June 30, 2024',
      '($ in millions)   Level 1   Level 2   Level 3   Total',
      'Assets',
      'Commodity contracts   $   —   $   14   $   —   $   14',
      'Interest rate swaps   —   19   —   19',
    ];
    expect(
      statementsOf('10-K', page)
        .filter((r) => r.kind === 'table_row')
        .map((r) => r.text),
    ).toEqual([
      'Commodity contracts: Level 1 —, Level 2 14, Level 3 —, Total 14 for June 30, 2024 (USD millions)',
      'Interest rate swaps: Level 1 —, Level 2 19, Level 3 —, Total 19 for June 30, 2024 (USD millions)',
    ]);
  });

  it('marks the rows printed on a primary financial statement, and labels year columns under a month-day', () => {
    const page = [
      'CONSOLIDATED BALANCE SHEETS',
      'Arbelion Utilities, Inc. and Subsidiaries',
      '(In millions)',
      'September 30,   2024   2023',
      'Assets',
      'Cash and cash equivalents   $   1,204   $   998',
      'Long-term debt   8,410   7,925',
    ].join('\n');
    const note = ['Note 7. Debt', '(In millions)   2024   2023', 'Senior notes due 2031   2,500   2,500'].join('\n');
    // The page before ends in a paragraph that only the statement's title closes.
    const before =
      'Item 8. Financial Statements and Supplementary Data\nThe statements below were audited by an ' +
      'independent registered public\naccounting firm whose report follows them';
    const stmts = segmentFiling('10-K', [before, page, note]).flatMap((s) => extractStatements(s, '10-K'));
    const debt = stmts.find((r) => r.text.startsWith('Long-term debt'))!;
    expect(debt.text).toBe('Long-term debt: 8,410 for FY2024 | 7,925 for FY2023 (USD millions)');
    expect(debt.statement).toBe('balance_sheet');
    expect(stmts.find((r) => r.text.startsWith('Senior notes'))!.statement).toBeUndefined();
  });

  const sections = segmentFiling('10-Q', [TEN_Q]);
  const rows = extractStatements(sections[0]!, '10-Q');

  it('gives each column its period from a three-line 10-Q header', () => {
    const products = rows.find((r) => r.text.startsWith('Net sales: Products'))!;
    expect(products.fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-03-30/3M',
      '2023-03-25/3M',
      '2024-03-30/9M',
      '2023-03-25/9M',
    ]);
    expect(products.text).toBe(
      'Net sales: Products: 1,210 for three months ended March 30, 2024 | 1,105 for three months ended March ' +
        '25, 2023 | 3,300 for nine months ended March 30, 2024 | 3,050 for nine months ended March 25, 2023 ' +
        '(USD millions)',
    );
  });

  it('dates the columns by one month-day per span, also printed after the caption on one line', () => {
    // Written for this test: the middle header line has one month-day per span (not per column), after the caption.
    const rowsUnder = (...header: string[]) =>
      statementsOf('10-Q', [
        'PART I — FINANCIAL INFORMATION',
        'Item 1. Financial Statements',
        'INCOME STATEMENTS',
        ...header,
        '   2024   2023   2024   2023',
        'Revenue   $   5,210   $   4,870   $   15,300   $   14,020',
        'Research and development   912   844   2,700   2,510',
      ]).find((r) => r.text.startsWith('Research'))!;
    const spans = '   Three Months Ended   Nine Months Ended';
    const expected =
      'Research and development: three months ended March 31: 912 for 2024 | 844 for 2023 | nine months ended ' +
      'March 31: 2,700 for 2024 | 2,510 for 2023 (USD millions)';
    const onCaption = rowsUnder(spans, '(In millions) (Unaudited)   March 31,   March 31,');
    expect(onCaption.text).toBe(expected);
    expect(onCaption.fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-03-31/3M',
      '2023-03-31/3M',
      '2024-03-31/9M',
      '2023-03-31/9M',
    ]);
    expect(rowsUnder('(In millions)', spans, '   March 31,   March 31,').text).toBe(expected);
    // A span naming its own month-day keeps it: the line under it is not a month-day per span.
    const dated = rowsUnder(
      '(In millions)',
      '   Three Months Ended June 30,   Nine Months Ended June 30,',
      '   Sep 30,   Dec 31,',
    );
    expect(dated.fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-06-30/3M',
      '2023-06-30/3M',
      '2024-06-30/9M',
      '2023-06-30/9M',
    ]);
  });

  it("reads two month-days set closer than a column gap as two columns' month-days", () => {
    // Written for this test: the first two month-days are two spaces apart, as a page's layout may set them.
    const row = statementsOf('10-Q', [
      'PART I — FINANCIAL INFORMATION',
      'Item 2. Management’s Discussion and Analysis',
      '   Thirteen weeks ended   Thirty-nine weeks ended',
      '   October 26,  October 28,   October 26,   October 28,',
      '($ in millions)   2024   2023   2024   2023',
      'Sales   $   1,818 $   1,756   $   5,310 $   5,193',
    ]).find((r) => r.kind === 'table_row')!;
    expect(row.fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-10-26/3M',
      '2023-10-28/3M',
      '2024-10-26/9M',
      '2023-10-28/9M',
    ]);
  });

  it('reads a schedule by year: its year rows, its columns, and not the periods of the table before it', () => {
    // Written for this test: a lease note as a 10-K prints it, a table of balances, then the maturities by year.
    const rows = tableRowsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      'Note 7. Leases',
      '   Fiscal years ended January 31,',
      '(Amounts in millions)   2024   2023',
      'Operating lease cost   $   1,210   $   1,180',
      'The aggregate annual lease obligations at January 31, 2024, are as follows:',
      '(Amounts in millions)',
      'Fiscal Year   Operating Leases   Finance Leases',
      '2025   $   1,950   $   610',
      '2026   1,875   588',
      '2027-2029   4,120   1,390',
      'Thereafter   9,800   4,400',
      'Total undiscounted lease obligations   17,745   6,988',
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      'Operating lease cost: fiscal years ended January 31: 1,210 for 2024 | 1,180 for 2023 (USD millions)',
      '2025: 1,950 for Operating Leases | 610 for Finance Leases (USD millions)',
      '2026: 1,875 for Operating Leases | 588 for Finance Leases (USD millions)',
      '2027-2029: 4,120 for Operating Leases | 1,390 for Finance Leases (USD millions)',
      'Thereafter: 9,800 for Operating Leases | 4,400 for Finance Leases (USD millions)',
      'Total undiscounted lease obligations: 17,745 for Operating Leases | 6,988 for Finance Leases (USD millions)',
    ]);
    expect(rows.slice(1).every((r) => r.fact!.cells.every((c) => c.periodKey === null))).toBe(true);
  });

  it('keeps a line of years a header, and an introducing line over rows a group label of its table', () => {
    expect(parseRow('2024   2023   2022')).toBeNull();
    expect(parseRow('2024   $   1,139   $   127')!.values).toEqual(['1,139', '127']);
    // Written for this test: "... consist of the following:" over the rows it groups, inside the table.
    const rows = tableRowsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      '(Dollars in Millions)   2024   2023',
      'Amounts recognized in the balance sheet consist of the following:',
      'Non-current assets   $   1,204   $   1,013',
      'Current liabilities   (98)   (95)',
    ]);
    expect(rows.map((r) => r.fact!.cells.map((c) => c.periodKey))).toEqual([
      ['FY2024', 'FY2023'],
      ['FY2024', 'FY2023'],
    ]);
  });

  it('joins a text column of a table to its rows’ labels, where the rows beside it have the same column', () => {
    // Written for this test: a debt note's rows, each with its currency and kind, rate and maturity.
    const rows = tableRowsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      'Note 10. Long-Term Debt',
      '(Millions)',
      'Medium-term note ($600 million)   USD Floating   0.55 %   2027   597   592',
      'Medium-term note (500 million Euros)   Euro Fixed   1.90 %   2030   533   —',
      'Tax effect   176   122   197   Provision for income taxes',
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      'Medium-term note ($600 million), USD Floating: 0.55% | 2027 | 597 | 592 (USD millions)',
      'Medium-term note (500 million Euros), Euro Fixed: 1.90% | 2030 | 533 | — (USD millions)',
    ]);
    expect(parseRow('Medium-term note ($600 million)   USD Floating   0.55 %   2027   597   592')).toBeNull();
    expect(parseRow('Tax effect   176   122   197   Provision for income taxes', true)!.label).toBe(
      'Tax effect, Provision for income taxes',
    );
    // A figure before words is a value with its unit; prose beside a table opens or ends as a sentence does.
    expect(parseRow('Remaining lease term   12.0 years   12.2 years', true)).toBeNull();
    expect(parseRow('Refer to Note 9 for the credit risk   Loans   47.1   2.0', true)).toBeNull();
  });

  it('reads a header whose columns of words come before its years, and lines up the rows under it', () => {
    // Written for this test: a derivatives note's table, each row with the balance-sheet line it sits on.
    const rows = tableRowsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      'The fair values of our derivatives were as follows:',
      '(in millions)   Balance Sheet Location   2024   2023',
      'Interest rate swaps   Other current assets   12   —',
      'Foreign currency contracts   Other liabilities   (8)   (5)',
      'Total derivatives   4   (5)',
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      'Interest rate swaps, Other current assets: 12 for FY2024 | — for FY2023 (USD millions)',
      'Foreign currency contracts, Other liabilities: (8) for FY2024 | (5) for FY2023 (USD millions)',
      'Total derivatives: 4 for FY2024 | (5) for FY2023 (USD millions)',
    ]);
    // A column of figures named in words ("Interest Rate") before the years: a figure too many, no period is safe.
    const debt = statementsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      '(Millions)   Interest Rate   2024   2023',
      'Commercial paper   4.42 %   435   210',
    ]).find((r) => r.kind === 'table_row')!;
    expect(debt.fact!.cells.map((c) => c.periodKey)).toEqual([null, null, null]);
    // Years a row holds (a patent's expiry in three markets) are no header's.
    expect(parseHeader('Xeljanz   Basic Product   2025   2028   2026')).toBeNull();
  });

  it('reads a cell of years as a value with its unit, and a range of them as a useful life beside the row', () => {
    // Written for this test: a lease note's terms, then intangible assets with their useful lives.
    const rows = tableRowsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      '(In millions)   2024   2023',
      'Weighted-average remaining lease term - operating leases   11.8 years   12.0 years',
      'Intangible assets were as follows:',
      '(In millions)',
      'Developed technology   3 - 11 years   $   1,154   $   (1,105)   $   49',
      'Customer base   2 - 4 years   617   (266)   351',
    ]);
    expect(rows.map((r) => r.text)).toEqual([
      'Weighted-average remaining lease term - operating leases: 11.8 years for FY2024 | 12.0 years for FY2023',
      'Developed technology, 3 - 11 years: 1,154 | (1,105) | 49 (USD millions)',
      'Customer base, 2 - 4 years: 617 | (266) | 351 (USD millions)',
    ]);
    expect(rows[0]!.fact!.cells.map((c) => c.value)).toEqual([11.8, 12]);
    // "Year Ending June 30," heads the label column of a schedule by year, as "Fiscal Year" does.
    expect(columnHeadings('Year Ending June 30,   Operating Leases   Finance Leases', 2)).toEqual([
      'Operating Leases',
      'Finance Leases',
    ]);
  });

  it('reads the heading of the label column before one heading per value, unless a row has a value under it', () => {
    // Written for this test: store counts by country, the label column headed as the filing heads it.
    const rows = (header: string, ...lines: string[]) =>
      tableRowsOf('10-K', ['Item 2. Properties', 'Unit counts were as follows:', header, ...lines]).map((r) => r.text);
    expect(
      rows('Country   Retail   Wholesale   Total', 'Chile   352   6   358', 'Mexico   2,189   161   2,350'),
    ).toEqual([
      'Chile: 352 for Retail | 6 for Wholesale | 358 for Total',
      'Mexico: 2,189 for Retail | 161 for Wholesale | 2,350 for Total',
    ]);
    // A row with a value under every heading: the first heading is a column's, and a row of two cannot be placed.
    expect(
      rows('Units   Fair Value   Remaining Term', 'Granted   1,585   12.03', 'Vested   (954)   13.01   2.1'),
    ).toEqual(['Granted: 1,585 | 12.03', 'Vested: (954) | 13.01 | 2.1']);
  });

  it("reads a year after the filing's fiscal year as a schedule's future year, keyed by no period", () => {
    // Written for this test: a 2024 annual report's expected amortization, and its assumptions beside next year's.
    const rows = (...lines: string[]) =>
      segmentFiling('10-K', [['Item 8. Financial Statements and Supplementary Data', ...lines].join('\n')])
        .flatMap((s) => extractStatements(s, '10-K', undefined, 2024))
        .filter((r) => r.kind === 'table_row');
    const [amortization] = rows(
      'Expected amortization expense follows:',
      '   After',
      '(Millions)   2025   2026   2027   2027',
      'Amortization expense   $   252   $   226   $   205   $   908',
    );
    expect(amortization!.text).toBe('Amortization expense: 252 for 2025 | 226 for 2026 | 205 | 908 (USD millions)');
    expect(amortization!.fact!.cells.map((c) => c.periodKey)).toEqual([null, null, null, null]);
    const [rate] = rows('Assumptions:', '   2025   2024   2023', 'Discount rate   5.1 %   5.3 %   4.9 %');
    expect(rate!.fact!.cells.map((c) => c.periodKey)).toEqual([null, 'FY2024', 'FY2023']);
    // Without the filing's fiscal year, every year column is a period, as before.
    const [bare] = segmentFiling('10-K', [
      ['Item 8. Financial Statements', '(Millions)   2025   2026', 'Rent   5   6'].join('\n'),
    ])
      .flatMap((s) => extractStatements(s, '10-K'))
      .filter((r) => r.kind === 'table_row');
    expect(bare!.fact!.cells.map((c) => c.periodKey)).toEqual(['FY2025', 'FY2026']);
  });

  it('reads columns headed by a fiscal quarter or its year to date, keyed by the quarter', () => {
    // Written for this test: an MD&A table headed as Intel's are.
    const rowOf = (header: string, row: string) =>
      statementsOf('10-Q', [
        'PART I — FINANCIAL INFORMATION',
        'Item 2. Management’s Discussion and Analysis',
        'Provision for Taxes',
        header,
        row,
      ]).find((r) => r.kind === 'table_row')!;
    const row = rowOf(
      '(In Millions)   Q2 2024   Q2 2023   YTD 2024   YTD 2023',
      'Effective tax rate   21.5 %   14.0 %   18.2 %   12.5 %',
    );
    expect(row.text).toBe(
      'Effective tax rate: 21.5% for Q2 2024 | 14.0% for Q2 2023 | 18.2% for YTD 2024 | 12.5% for YTD 2023',
    );
    expect(row.fact!.cells.map((c) => c.periodKey)).toEqual(['2024Q2', '2023Q2', '2024Q2/YTD', '2023Q2/YTD']);
    // A year to date without its quarter named beside it would match every other quarter's year to date: no period.
    const ytd = rowOf('(In Millions)   YTD 2024   YTD 2023', 'Effective tax rate   18.2 %   12.5 %');
    expect(ytd.fact!.cells.map((c) => c.periodKey)).toEqual([null, null]);
  });

  it("reads a span and month-day printed before the years on one header line as the columns' period", () => {
    // Written for this test: one header line carries the span, the month-day and the years.
    const table = (form: '10-K' | '10-Q', header: string) =>
      segmentFiling(form, [
        [
          'PART I — FINANCIAL INFORMATION',
          'Item 1. Financial Statements',
          'INCOME STATEMENTS',
          '(In millions)',
          header,
          'Revenue   $   5,210   $   4,870',
        ].join('\n'),
      ])
        .flatMap((s) => extractStatements(s, form))
        .find((r) => r.text.startsWith('Revenue'))!;
    const quarter = table('10-Q', 'Three Months Ended September 30,   2024   2023');
    expect(quarter.text).toBe(
      'Revenue: three months ended September 30: 5,210 for 2024 | 4,870 for 2023 (USD millions)',
    );
    expect(quarter.fact!.cells.map((c) => c.periodKey)).toEqual(['2024-09-30/3M', '2023-09-30/3M']);
    // A 10-K's quarterly table is not its fiscal years.
    expect(table('10-K', 'Three Months Ended September 30,   2024   2023').fact!.cells[0]!.periodKey).toBe(
      '2024-09-30/3M',
    );
    // A year's span keeps a 10-K's fiscal-year labels.
    expect(table('10-K', 'Year Ended June 30,   2024   2023').text).toBe(
      'Revenue: 5,210 for FY2024 | 4,870 for FY2023 (USD millions)',
    );
  });

  it('names a span printed with the years it covers once, and a date printed in capitals as a date', () => {
    // Written for this test: a span line listing its years over date columns printed in capitals.
    const rows = statementsOf('10-K', [
      'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations',
      '(in millions)',
      'YEAR ENDED DECEMBER 31, 2015 , 2014 , AND 2013',
      'DECEMBER 31, 2015   DECEMBER 31, 2014   DECEMBER 31, 2013',
      'Operating margin   2,866   3,088   2,941',
    ]);
    const row = rows.find((r) => r.text.startsWith('Operating margin'))!;
    expect(row.text).toBe(
      'Operating margin: year ended December 31: 2,866 for 2015 | 3,088 for 2014 | 2,941 for 2013 (USD millions)',
    );
    expect(row.fact!.cells.map((c) => c.periodKey)).toEqual(['FY2015', 'FY2014', 'FY2013']);
    // So does a month-day printed in capitals on the span line above year columns.
    const annual = statementsOf('10-K', [
      'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations',
      '(In millions)',
      '   YEAR ENDED MAY 31,',
      '   2023   2022',
      'Net income   $   5,070   $   6,046',
    ]);
    expect(annual[0]!.text).toBe('Net income: year ended May 31: 5,070 for 2023 | 6,046 for 2022 (USD millions)');
    // A span's "(unaudited)" or footnote letter is no part of the period.
    const quarter = statementsOf('10-Q', [
      'PART I — FINANCIAL INFORMATION',
      'Item 2. Management’s Discussion and Analysis',
      '(in millions)',
      '   Three Months Ended (unaudited)',
      '   Sep 30, 2024   Sep 30, 2023',
      'Net revenue   1,210   1,105',
    ]);
    expect(quarter.find((r) => r.text.startsWith('Net revenue'))!.text).toBe(
      'Net revenue: three months ended Sep 30: 1,210 for 2024 | 1,105 for 2023 (USD millions)',
    );
  });

  it("does not carry one statement's column spans to the next statement's header", () => {
    // Written for this test: comprehensive income with spans over its dates, then on the next page a balance sheet
    // whose header has dates only (points in time), then that balance sheet continued without a header.
    const pages = [
      [
        'PART I — FINANCIAL INFORMATION',
        'Item 1. Financial Statements',
        'Consolidated Condensed Statements of Comprehensive Income',
        '   Three Months Ended   Six Months Ended',
        '(In Millions; Unaudited)   Jun 29, 2024   Jul 1, 2023   Jun 29, 2024   Jul 1, 2023',
        'Net income   $   410   $   380   $   790   $   700',
      ].join('\n'),
      [
        'Consolidated Condensed Balance Sheets',
        '(In Millions; Unaudited)   Jun 29, 2024   Dec 30, 2023',
        'Inventories   1,210   1,150',
      ].join('\n'),
      ['Consolidated Condensed Balance Sheets (continued)', 'Goodwill   2,500   2,500'].join('\n'),
    ];
    const rows = segmentFiling('10-Q', pages).flatMap((s) => extractStatements(s, '10-Q'));
    const row = (label: string) => rows.find((r) => r.text.startsWith(label))!;
    expect(row('Net income').fact!.cells.map((c) => c.periodKey)).toEqual([
      '2024-06-29/3M',
      '2023-07-01/3M',
      '2024-06-29/6M',
      '2023-07-01/6M',
    ]);
    expect(row('Inventories').text).toBe('Inventories: 1,210 for Jun 29, 2024 | 1,150 for Dec 30, 2023 (USD millions)');
    expect(row('Inventories').fact!.cells.map((c) => c.periodKey)).toEqual(['2024-06-29', '2023-12-30']);
    expect(row('Goodwill').fact!.cells.map((c) => c.periodKey)).toEqual(['2024-06-29', '2023-12-30']);
    // A footnote or page number set beside the spans is not a column of them.
    expect(parseSpans('3   Three Months Ended June 30,   Six Months Ended June 30,')).toEqual([
      'Three Months Ended June 30,',
      'Six Months Ended June 30,',
    ]);
    expect(parseSpans('Revenue grew   Three Months Ended')).toBeNull();
  });

  it('keeps a line of column headings comparing periods out of the sentences, and its rows as they were', () => {
    // Written for this test: an MD&A table whose header names a change column, which the table reader does not take
    // for a header (its rows keep no periods), and which states nothing as a sentence either.
    const out = statementsOf('10-K', [
      'PART II',
      'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations',
      'Net sales rose in 2024 on higher volumes in every region we serve.',
      '(Millions)   2024   2023   Change',
      'Net sales   1,210   1,105   10%',
      'Operating Expenses: (Percent of net sales)   2024   2023   Change',
      'Selling and administrative   21.0%   22.1%   (1.1)%',
      'Results improved in 2024 compared with 2023, and the change was broad-based.',
      '   2024   2023   2022   2024 vs. 2023   2023 vs. 2022',
      'Streaming revenues   1,500   1,400   1,300   7%   8%',
      'Future minimum payments are as follows.',
      '   2025   2026   2027   Thereafter   Total',
      'Operating leases   410   380   350   1,200   2,340',
    ]);
    expect(out.map((s) => s.text)).toEqual([
      'Net sales rose in 2024 on higher volumes in every region we serve.',
      'Net sales: 1,210 | 1,105 | 10% (USD millions)',
      'Selling and administrative: 21.0% | 22.1% | (1.1)%',
      'Results improved in 2024 compared with 2023, and the change was broad-based.',
      'Streaming revenues: 1,500 | 1,400 | 1,300 | 7% | 8%',
      'Future minimum payments are as follows.',
      'Operating leases: 410 | 380 | 350 | 1,200 | 2,340',
    ]);
  });

  it('labels a row group by its label line and its unlabeled total by that label, only when a total closes it', () => {
    // Invented figures in the layout of a segment note: a group label line, its rows, the group's unlabeled total.
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      'Years Ended (In Millions)   Dec 28, 2024   Dec 30, 2023',
      'Net revenue:',
      '   Cloud Group',
      '   Platform   $   2,300   $   2,100',
      '   Adjacent   300   200',
      '   2,600   2,300',
      '   Devices Group   900   800',
      '   Software',
      '   Licenses   400   350',
      'Total net revenue   $   3,900   $   3,450',
    ].join('\n');
    const texts = segmentFiling('10-K', [page])
      .flatMap((s) => extractStatements(s, '10-K'))
      .map((r) => `${r.fact!.label}: ${r.fact!.cells.map((c) => c.raw).join(' | ')}`);
    expect(texts).toEqual([
      'Net revenue: Cloud Group: Platform: 2,300 | 2,100',
      'Net revenue: Cloud Group: Adjacent: 300 | 200',
      'Net revenue: Cloud Group: 2,600 | 2,300',
      'Net revenue: Devices Group: 900 | 800',
      // No total closes "Software": its row keeps its own label.
      'Net revenue: Licenses: 400 | 350',
      'Total net revenue: 3,900 | 3,450',
    ]);
  });

  it('joins a wrapped row label and keeps the scale off per-share rows', () => {
    const wrapped = rows.find((r) => r.text.startsWith('Purchases and proceeds'))!;
    expect(wrapped.fact!.label).toBe('Purchases and proceeds from maturities of marketable securities, net');
    expect(wrapped.fact!.cells[0]!.value).toBe(-12);
    const eps = rows.find((r) => r.text.startsWith('Diluted earnings per share'))!;
    expect(eps.fact!.unit).toBe('USD per share');
    expect(eps.text.endsWith('(USD per share)')).toBe(true);
  });

  it(`joins a label wrapped over several lines, also in a table whose header names no periods, and keeps prose \
whole`, () => {
    const page = [
      'Item 8. Financial Statements and Supplementary Data',
      '   (In millions)   2024   2023   2022',
      'Net cash used in financing activities   (2,603)   (2,586)   (2,063)',
      'Cash and cash',
      '  equivalents at',
      '  end of year   4,500   5,309   4,704',
      // A statement of equity: its columns are components, not periods.
      'Consolidated Statements of Shareholders’ Equity',
      '   Common Stock   Retained Earnings   Total',
      'Balance at May 31, 2023   356   5,620   11,081',
      'Forfeiture of shares from',
      'employees   (1)   (8)   (12)',
      'Tax benefits from stock options, restricted stock vesting and',
      '  employee stock purchase plan   —   (22)   (22)',
      'We repurchased shares under the program approved',
      'by the Board of Directors in 2022 and retired them.',
    ].join('\n');
    const rows = segmentFiling('10-K', [page]).flatMap((s) => extractStatements(s, '10-K'));
    const labels = rows.filter((r) => r.kind === 'table_row').map((r) => r.fact!.label);
    expect(labels).toContain('Cash and cash equivalents at end of year');
    expect(labels).toContain('Forfeiture of shares from employees');
    expect(labels).toContain(
      'Tax benefits from stock options, restricted stock vesting and employee stock purchase plan',
    );
    const cash = rows.find((r) => r.fact?.label === 'Cash and cash equivalents at end of year')!;
    expect(page.slice(cash.offset, cash.endOffset)).toMatch(/^Cash and cash[\s\S]*4,704$/);
    // Two lines of prose after the last row are a sentence, not a label: no row follows them.
    expect(rows.filter((r) => r.kind === 'sentence').map((r) => r.text)).toContain(
      'We repurchased shares under the program approved by the Board of Directors in 2022 and retired them.',
    );
  });

  it('gives share counts their own unit and per-share amounts theirs, whatever the caption scale', () => {
    // Written for this test: an income statement's share and per-share rows under a "(In millions)" caption.
    const rows = statementsOf('10-K', [
      'Item 8. Financial Statements and Supplementary Data',
      'CONSOLIDATED STATEMENTS OF INCOME',
      '(In millions, except per share amounts)   2024   2023',
      'Net income   $   940   $   880',
      'Basic earnings per ordinary share   $   0.62   $   0.58',
      'Weighted-average shares outstanding: Diluted   1,520   1,515',
      'Common stock, $0.01 par value; 1,520 shares issued   15   15',
      'Dividends declared ($0.62 per share)   (940)   (880)',
      'Net income per share:',
      '   Working capital   3,028   2,608',
    ]);
    const text = (label: string) => rows.find((r) => r.text.startsWith(label))!.text;
    expect(text('Net income')).toMatch(/\(USD millions\)$/);
    expect(text('Basic earnings per ordinary share')).toMatch(/\(USD per share\)$/);
    expect(text('Weighted-average shares outstanding')).toMatch(
      /: 1,520 for FY2024 \| 1,515 for FY2023 \(millions of shares\)$/,
    );
    expect(text('Common stock')).toMatch(/\(USD millions\)$/);
    expect(text('Dividends declared')).toMatch(/\(USD millions\)$/);
    expect(text('Net income per share: Working capital')).toMatch(/\(USD millions\)$/); // a group label's leak
    // The row's own label decides before its group's, then the whole label.
    expect(shareKind('Diluted earnings per share: Weighted average shares outstanding')).toBe('count');
    expect(shareKind('Shares used in computation: Diluted earnings per share')).toBe('per share');
    expect(shareKind('Shares used in computing earnings per share: Basic')).toBe('count');
    expect(shareKind('Shares used in computing per share amounts')).toBe('count');
    expect(shareKind('Average price paid per share')).toBe('per share');
    expect(shareKind('Weighted-average fair value (per share)')).toBe('per share');
    expect(shareKind('Treasury shares, at cost')).toBeNull();
    expect(shareKind('Dividends declared ($4.44 per share, Note 7)')).toBeNull(); // totals dollars
    expect(shareKind('Denominator for diluted earnings (loss) per share')).toBe('count');
    expect(shareKind('Numerator: Numerator for basic earnings per share—net income')).toBeNull();
    expect(shareKind('Net income')).toBeNull();
  });

  it("reads a share's price as an amount per share, not a price table's neighbours", () => {
    expect(shareKind('Year-end stock price')).toBe('per share');
    expect(shareKind('Share data: Low stock price')).toBe('per share');
    expect(shareKind('Price range of common stock: High')).toBe('per share');
    expect(shareKind('Market price of our common stock: Fourth quarter')).toBe('per share');
    // A price table's group label does not make another row a price.
    expect(shareKind('Common stock price: Current ratio')).toBeNull();
    // Prices that are not a share's, awards named after it, and a count of options named after the share price.
    expect(shareKind('Lower market prices of electricity')).toBeNull();
    expect(shareKind('Share price-based awards')).toBeNull();
    expect(
      shareKind('Stock options with exercise prices above the average market price of our common stock'),
    ).toBeNull();
  });

  it('prints ratios under a dollar caption without its unit, and an amount named after a ratio with it', () => {
    // Written for this test: a bank's capital table under "(In millions, except ratios)".
    const rows = statementsOf('10-K', [
      'Item 7. Management’s Discussion and Analysis of Financial Condition and Results of Operations',
      '(In millions, except ratios)   2024   2023',
      'Tier 1 capital   $   41,200   $   39,800',
      'Tier 1 capital ratio   15.0   14.1',
      'Nonaccrual loans to total retained loans   0.62   0.71',
      'Transfers to loans held-for-sale   12   9',
      'Average total assets for the leverage ratio   218.6   207.3',
    ]);
    const text = (label: string) => rows.find((r) => r.text.startsWith(label))!.text;
    expect(text('Tier 1 capital:')).toBe('Tier 1 capital: 41,200 for FY2024 | 39,800 for FY2023 (USD millions)');
    expect(text('Tier 1 capital ratio')).toBe('Tier 1 capital ratio: 15.0 for FY2024 | 14.1 for FY2023');
    expect(text('Nonaccrual loans')).toBe(
      'Nonaccrual loans to total retained loans: 0.62 for FY2024 | 0.71 for FY2023',
    );
    expect(text('Transfers to loans')).toMatch(/\(USD millions\)$/);
    expect(text('Average total assets')).toMatch(/\(USD millions\)$/);
  });

  it('keeps provenance: page and character offsets point at the row in the page text', () => {
    const total = rows.find((r) => r.text.startsWith('Total net sales'))!;
    expect(TEN_Q.slice(total.offset, total.endOffset)).toBe('Total net sales   1,410   1,285   3,890   3,590');
    const wrapped = rows.find((r) => r.text.startsWith('Purchases and proceeds'))!;
    expect(TEN_Q.slice(wrapped.offset, wrapped.endOffset)).toMatch(/^Purchases and proceeds[\s\S]*\(30\) {3}9$/);
    const mdna = extractStatements(sections[1]!, '10-Q')[0]!;
    expect(TEN_Q.slice(mdna.offset, mdna.endOffset)).toBe('Net sales rose 10% to $1,410 million in the quarter.');
  });
});

describe('metric vocabulary', () => {
  const ids = (text: string) => metricCodes(text).map((c) => metricByCode(c)!.id);
  it('tags the most specific metric first and not a shorter one inside it', () => {
    // Primary tag capex; the parenthetical also names PP&E, a secondary tag only (the shard stores the primary).
    expect(ids('Purchases of property, plant and equipment (PP&E)')).toEqual(['capex', 'ppe']);
    expect(ids('Cost of sales')).toEqual(['cost_of_sales']);
    expect(ids('Net cash provided by operating activities')).toEqual(['operating_cash_flow']);
    expect(ids('Gross margin as a percentage of net sales was 55.6%')).toEqual(['gross_margin_pct', 'revenue']);
  });
  it(`finds what trying every pattern finds (the first-word filter), whatever the case, spacing and characters \
around`, () => {
    const synonyms = METRICS.flatMap((m) => m.synonyms);
    // Pieces of synonyms and of the text around them: word boundaries that are and are not ASCII ("_", "é", the
    // Kelvin sign and dotted capital I, which lower-case to ASCII letters), both apostrophes, "&", digits.
    const piece = fc.oneof(
      fc.constantFrom(...synonyms),
      fc.constantFrom(...synonyms).map((x) => x.toUpperCase()),
      fc.constantFrom(...synonyms).map((x) => x.slice(0, Math.ceil(x.length / 2))),
      fc.constantFrom(
        ' ',
        '  ',
        ', ',
        '(',
        ')',
        '&',
        '_',
        'é',
        '\u212a',
        '\u0130',
        "'",
        '\u2019',
        '%',
        '2023',
        'total ',
        'Net ',
        'x',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (parts, max) => {
        const text = parts.join('');
        expect(metricCodes(text, max)).toEqual(metricCodesTryingAll(text, max));
      }),
      { numRuns: 3000 },
    );
    for (const synonym of synonyms)
      for (const text of [synonym, `Total ${synonym}:`, `_${synonym}`, `${synonym}s`, synonym.toUpperCase()])
        expect(metricCodes(text)).toEqual(metricCodesTryingAll(text));
    // The question reading has its own first words (questionSynonyms): the same twin.
    for (const phrase of [...synonyms, ...METRICS.flatMap((m) => m.questionSynonyms ?? [])]) {
      for (const text of [phrase, `How did ${phrase} move?`, phrase.toUpperCase()])
        expect(metricCodes(text, 3, 'question')).toEqual(metricCodesTryingAll(text, 3, 'question'));
    }
  });
  it('reads "gross margin" as the amount in a filing and as the percentage in a question', () => {
    const id = (codes: number[]) => codes.map((c) => metricByCode(c)!.id);
    expect(id(metricCodes('Gross margin: 36,413 for three months ended July 1, 2023'))).toEqual(['gross_profit']);
    expect(id(metricCodes('How has Acme gross margin moved since 2021?', 3, 'question'))).toEqual(['gross_margin_pct']);
    expect(id(metricCodes('Are Acme gross margins steady?', 3, 'question'))).toEqual(['gross_margin_pct']);
    expect(id(metricCodes('What was Acme gross profit?', 3, 'question'))).toEqual(['gross_profit']);
  });
  it('describes ratios by their inputs', () => {
    const gm = metricByCode(metricCodes('gross margin percentage')[0]!)!;
    expect(gm.inputs).toEqual(['gross_profit', 'revenue']);
    expect(gm.description).toContain('gross profit / revenue');
  });
});

describe('table facts on real pages (../shared)', () => {
  const shared = sharedDir();
  const pagesPath = shared ? join(shared, 'corpus/filings/pages.jsonl.gz') : null;
  it.skipIf(!pagesPath || !existsSync(pagesPath))(
    'reads 3M FY2018 purchases of PP&E as (1,577) million for 2018, with item, page and offsets',
    async () => {
      const pages: string[] = [];
      for await (const row of readJsonLines(pagesPath!)) {
        const p = row as { doc_id: string; page: number; text: string };
        if (p.doc_id === '3M_2018_10K') pages[p.page] = p.text;
      }
      const rows = segmentFiling(
        '10-K',
        pages.map((p) => p ?? ''),
      ).flatMap((s) => extractStatements(s, '10-K').map((st) => ({ ...st, item: s.itemTag })));
      const capex = rows.filter((r) => r.fact?.label === 'Purchases of property, plant and equipment (PP&E)');
      const inStatement = capex.find((r) => r.item === '10K-Item-8')!;
      expect(inStatement.fact!.cells[0]).toMatchObject({ raw: '(1,577)', value: -1577, periodKey: 'FY2018' });
      expect(inStatement.fact!.scale).toBe('millions');
      expect(
        inStatement.text.startsWith(
          'Purchases of property, plant and equipment (PP&E): year ended December 31: (1,577) for 2018',
        ),
      ).toBe(true);
      expect(
        pages[inStatement.page]!.slice(inStatement.offset).startsWith(
          'Purchases of property, plant and equipment (PP&E)',
        ),
      ).toBe(true);
    },
    120_000,
  );
});

describe('rowMetrics', () => {
  const ids = (label: string) => rowMetrics(label).map((c) => metricByCode(c)!.id);
  it('tags a row by its own label first, else by its group', () => {
    expect(ids('Changes in operating assets and liabilities: Inventories')).toEqual(['inventory']);
    expect(ids('Net sales: Industrial products')).toEqual(['revenue']);
    expect(ids('Total current liabilities')).toEqual(['current_liabilities']);
  });
  it("puts the own label's metric first, the group's after it", () => {
    expect(ids('Cash flows from operating activities: Net income')).toEqual(['net_income', 'operating_cash_flow']);
    expect(
      ids('Adjustments to reconcile net income to net cash provided by operating activities: Stock-based compensation'),
    ).toEqual(['operating_cash_flow', 'net_income']);
  });
});
