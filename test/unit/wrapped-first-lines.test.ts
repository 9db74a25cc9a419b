import { describe, expect, it } from 'vitest';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements } from '../../index-builder/statements/statements';

// Written for this test (invented company): a sentence whose first line is short and starts with a capital, as a
// heading does, and a table whose header line has the same shape.
function statementsOf(lines: string[]): { kind: string; text: string }[] {
  return segmentFiling('10-K', [['Item 7. Management’s Discussion and Analysis', ...lines].join('\n')])
    .flatMap((s) => extractStatements(s, '10-K'))
    .map(({ kind, text }) => ({ kind, text }));
}

describe('a short first line of a sentence', () => {
  it('is read with the lines it goes on with, not dropped as a heading', () => {
    const sentences = statementsOf([
      'Liquidity',
      'Compensation expense increased, driven by',
      'higher revenue-related expense and the impact of investments in the',
      'businesses.',
    ]).map((s) => s.text);
    expect(sentences).toEqual([
      'Compensation expense increased, driven by higher revenue-related expense and the impact of investments in the ' +
        'businesses.',
    ]);
  });

  it('stays a table’s header when no sentence ends before the rows', () => {
    const read = statementsOf([
      'The following table shows the amounts reclassified (in millions):',
      'Gains (losses) associated with defined benefit pension and',
      'postretirement plans amortization',
      'Prior service benefit   92   79   59',
      'Net actuarial loss   (506)   (626)   (420)',
    ]);
    expect(read.filter((s) => s.kind === 'sentence').map((s) => s.text)).toEqual([
      'The following table shows the amounts reclassified (in millions):',
    ]);
    expect(read.filter((s) => s.kind === 'table_row').map((s) => s.text)).toEqual([
      expect.stringMatching(/^Prior service benefit: 92 \| 79 \| 59/),
      expect.stringMatching(/^Net actuarial loss: \(506\) \| \(626\) \| \(420\)/),
    ]);
  });
});
