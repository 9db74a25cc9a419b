import { describe, expect, it } from 'vitest';
import { answerSupport, extractNumbers, mappedPassages, namedLineItems, toPassage } from '../../bench/lib/score';

// Invented justifications in FinanceBench's shape; the scorer is the bench's, shared by our responses and the baseline.
const J = [
  'The metric in question was calculated using other simpler metrics. The various simpler metrics used were:',
  '',
  'Metric 1: Cost of goods sold. This metric was located in the 10K as a single line item named: Cost of ' +
    'products sold.',
  '',
  'Metric 2: Inventories. This metric was located in the 10K as a single line item named: ' +
    'Inventories\u00c2\u00a0, net (Note 6).',
].join('\n');

describe('bench answer support', () => {
  it('reads no figure in a form name: the "10" of "10-Q" names a filing', () => {
    expect(extractNumbers('Zenharrow disclosed no acquisitions in its Q2 2023 10-Q or its 10-Ks.')).toEqual([]);
    expect(
      extractNumbers('As reported in Form 10-K and on Form 8-K, sales were $10 million.').map((n) => n.value),
    ).toEqual([10]);
    // Nor in the day of a date: it names the period end.
    expect(
      extractNumbers(
        'For the quarter ended September 30, 2023 (Oct. 29 last year), sales were 1,577 on 30 stores.',
      ).map((n) => n.value),
    ).toEqual([1577, 30]);
    // An answer that names only its filing asks the evidence for no figure: boilerplate saying "Form 10-Q" is no
    // support.
    const q = {
      answer: 'Zenharrow did not disclose any acquisitions in the Q2 2023 10-Q.',
      justification: null,
      question: 'Did Zenharrow disclose any acquisitions in the Q2 2023 10-Q?',
    };
    expect(answerSupport(q, 'This certification accompanies the Form 10-Q to which it relates.').supported).toBe(false);
  });

  it('reads the named input rows of a computed answer, without note references or broken spaces', () => {
    expect(namedLineItems(J)).toEqual(['cost of products sold', 'inventories , net']);
  });

  it('supports a computed answer only when every named row is in the evidence', () => {
    const q = { answer: '6.25', justification: J, question: 'What is Zenharrow FY2023 inventory turnover?' };
    expect(answerSupport(q, 'Cost of products sold: 16,830 for FY2023\nInventories , net: 2,721 for FY2023').by).toBe(
      'line_items',
    );
    expect(
      answerSupport(q, 'Cost of products sold: 16,830 for FY2023\nInventories , net: 2,721 for FY2023').supported,
    ).toBe(true);
    expect(answerSupport(q, 'Cost of products sold: 16,830 for FY2023').supported).toBe(false);
  });

  it('does not read "Metric 2" and "10K" as formula inputs', () => {
    const q = { answer: '0.83', justification: 'Metric 1: a. Metric 2: b. Both from the 10K.', question: 'ratio?' };
    // Any page has a 2 and a 10 in it; neither is an input.
    expect(answerSupport(q, 'Total: 2 and 10 and 10,000').supported).toBe(false);
    expect(answerSupport(q, 'Total: 2 and 10 and 10,000').by).toBe('answer_numbers');
  });
});

describe('mappedPassages (FinQABench: which judged passage a returned statement comes from)', () => {
  // Invented passages in the task's shape: long excerpts a statement is a part of.
  const corpus = [
    toPassage(
      'notes',
      'The Company issued 0.875% notes due 2025 and 1.375% notes due 2029. Interest is payable annually in arrears.',
    ),
    toPassage(
      'leases',
      'Total lease liabilities were $12.3 billion. Lease payments are due over the next twelve years.',
    ),
    toPassage('leases-again', 'Total lease liabilities were $12.3 billion at year end, as stated in the lease note.'),
  ];

  it('maps a statement to the passage holding most of its tokens, every tied passage included', () => {
    expect(mappedPassages('Interest is payable annually in arrears.', corpus)).toEqual(['notes']);
    expect(mappedPassages('Total lease liabilities were $12.3 billion.', corpus)).toEqual(['leases', 'leases-again']);
  });

  it('maps nothing below 80% of the tokens, or for a statement of fewer than four tokens', () => {
    expect(mappedPassages('Interest on the term loan is payable monthly in arrears.', corpus)).toEqual([]);
    expect(mappedPassages('Total lease liabilities', corpus)).toEqual([]);
  });
});
