import { describe, expect, it } from 'vitest';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements } from '../../index-builder/statements/statements';

// Written for this test (invented company): a note whose sentence runs from one page onto the next, the next page
// opening with the filing's running header.
const PAGE_ONE = [
  'Item 8. Financial Statements and Supplementary Data',
  'Goodwill',
  'We test goodwill for impairment annually. In performing the test, we first perform a qualitative assessment, which',
  'requires that we consider events or',
  '   61',
];
const HEADER = ['   EXAMPLE WIDGETS INC.', '   NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Continued)'];

function sentencesOf(...pages: string[][]): string[] {
  return segmentFiling(
    '10-K',
    pages.map((lines) => lines.join('\n')),
  )
    .flatMap((s) => extractStatements(s, '10-K'))
    .filter((s) => s.kind === 'sentence')
    .map((s) => s.text);
}

describe('a sentence across a page break', () => {
  it('reads on past the next page’s running header', () => {
    const next = [
      ...HEADER,
      'circumstances including market conditions and cost factors.',
      'We found no impairment of goodwill in 2024.',
    ];
    expect(sentencesOf(PAGE_ONE, next)).toEqual([
      'We test goodwill for impairment annually.',
      'In performing the test, we first perform a qualitative assessment, which requires that we consider events or ' +
        'circumstances including market conditions and cost factors.',
      'We found no impairment of goodwill in 2024.',
    ]);
  });

  it('stops at a heading the next page opens with', () => {
    const next = [...HEADER, 'Intangible Assets', 'Intangible assets are amortized over their useful lives.'];
    expect(sentencesOf(PAGE_ONE, next)).toEqual([
      'We test goodwill for impairment annually.',
      'In performing the test, we first perform a qualitative assessment, which requires that we consider events or',
      'Intangible assets are amortized over their useful lives.',
    ]);
  });
});
