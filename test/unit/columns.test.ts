import { describe, expect, it } from 'vitest';
import { segmentFiling } from '../../index-builder/segment/segment';
import { readingOrder } from '../../index-builder/statements/columns';
import { extractStatements, isTableRow } from '../../index-builder/statements/statements';

// Written for this test (invented bank): a 10-Q page whose results discussion is set in two columns, as its text was
// extracted (each line the left column's line, a gap, the right column's), above a full-width table.
const TWO_COLUMNS = [
  'Item 2. Management’s Discussion and Analysis',
  'Quarterly results',
  'Advisory fees increased across products in the bank,   Deposit-related fees increased largely as a',
  'primarily reflecting higher merger advisory fees driven   result of higher cash management fees in the',
  'by increased activity and wallet share gains, and higher   commercial bank and the treasury unit.',
  'equity underwriting fees due to wallet share gains in the   Refer to the segment results on pages 20-24',
  'listing market. Refer to the segment results on pages   and Note 5 for additional information.',
  '18-22 for additional information.   Card income decreased driven by lower',
  'Fees of the Example Widgets Trust and   merchant volumes in the consumer unit',
  'Example Widgets Europe rose 4% in the quarter.   and higher rewards costs.',
  'The table below summarizes the fees of each business for the three months ended March 31, 2024 and 2023:',
  '(in millions)   2024   2023',
  'Advisory fees   $   1,210   $   1,105',
  'Deposit-related fees   640   602',
];

// A list of subsidiaries in two columns of names: no prose, so read as it stands.
const SUBSIDIARIES = [
  'Item 15. Exhibits',
  'Example Widgets Holdings (Netherlands) B.V.   Netherlands',
  'Example Widgets Distribution of Michigan, Inc.   United States, Michigan',
  'Example Widgets Distribution of Minnesota, Inc.   United States, Minnesota',
  'Example Widgets Finance Americas Company   United States, Delaware',
  'Example Widgets Food & Beverage Holdings Limited   Hong Kong',
];

function sentencesOf(form: '10-K' | '10-Q', lines: string[]): string[] {
  return segmentFiling(form, [lines.join('\n')])
    .flatMap((s) => extractStatements(s, form))
    .filter((s) => s.kind === 'sentence')
    .map((s) => s.text);
}

describe('two columns of prose', () => {
  it('reads the left column, then the right', () => {
    expect(sentencesOf('10-K', TWO_COLUMNS)).toEqual([
      'Advisory fees increased across products in the bank, primarily reflecting higher merger advisory fees driven ' +
        'by increased activity and wallet share gains, and higher equity underwriting fees due to wallet share ' +
        'gains in the listing market.',
      'Refer to the segment results on pages 18-22 for additional information.',
      'Fees of the Example Widgets Trust and Example Widgets Europe rose 4% in the quarter.',
      'Deposit-related fees increased largely as a result of higher cash management fees in the commercial bank ' +
        'and the treasury unit.',
      'Refer to the segment results on pages 20-24 and Note 5 for additional information.',
      'Card income decreased driven by lower merchant volumes in the consumer unit and higher rewards costs.',
      'The table below summarizes the fees of each business for the three months ended March 31, 2024 and 2023:',
    ]);
  });

  it('keeps each part at its place in the page', () => {
    const page = TWO_COLUMNS.join('\n');
    const [section] = segmentFiling('10-K', [page]);
    const ordered = readingOrder(section!.lines, isTableRow);
    for (const line of ordered) expect(page.slice(line.offset, line.offset + line.text.length)).toBe(line.text);
    // The table under the columns is read as before: its rows keep their label and periods.
    const rows = extractStatements(section!, '10-K').filter((s) => s.kind === 'table_row');
    expect(rows.map((r) => r.text)).toEqual([
      'Advisory fees: 1,210 for FY2024 | 1,105 for FY2023 (USD millions)',
      'Deposit-related fees: 640 for FY2024 | 602 for FY2023 (USD millions)',
    ]);
  });

  it('leaves a list of names in two columns as it stands', () => {
    const [section] = segmentFiling('10-K', [SUBSIDIARIES.join('\n')]);
    expect(readingOrder(section!.lines, isTableRow)).toBe(section!.lines);
  });
});
