import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateStatuses } from '../../index-builder/eval/status-precision';
import {
  FUTURE_PROBE_LABELS,
  RANDOM_LABELS,
  readInventedLabels,
  readRealLabelSets,
  REAL_LABELS,
  TUNING2_LABELS,
  TUNING3_LABELS,
  TUNING4_LABELS,
  TUNING5_LABELS,
  HOLDOUT_LABELS,
  RANDOM2_LABELS,
  FUTURE_PROBE2_LABELS,
} from '../../index-builder/eval/status';
import { wilson } from '../../index-builder/eval/status-precision';
import { sharedDir } from '../../index-builder/shared-dir';
import { classifyStatus } from '../../index-builder/statements/status';

describe('epistemic status rules', () => {
  it('reach at least 90% precision per status on the invented labelled sample', () => {
    const report = evaluateStatuses(readInventedLabels());
    for (const [status, p] of Object.entries(report.perStatus)) {
      expect(p.predicted, status).toBeGreaterThan(0);
      expect(p.precision!, status).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('orders the rules: a belief about the future is a prediction, a conditional harm is a risk', () => {
    expect(classifyStatus('We believe our cash will be sufficient for the next twelve months.', 'sentence')).toBe(
      'PREDICTION',
    );
    expect(classifyStatus('We believe the loss of a key supplier could harm our results.', 'sentence')).toBe('RISK');
    expect(classifyStatus('Costs were higher than expected in the quarter.', 'sentence')).toBe('FACT');
    expect(classifyStatus('Revenue   $   10   $   9', 'table_row')).toBe('FACT');
  });

  // Each PREDICTION rule of the third revision: the trap (same words, no forecast) and the true case.
  const cases: [string, string | null, 'FACT' | 'PREDICTION' | 'RISK'][] = [
    // contract and plan language
    ['The Participant shall receive the shares on the date they are scheduled to vest.', '10K-Item-8', 'FACT'],
    ['Your award is scheduled to vest in three equal installments.', '10K-Item-8', 'FACT'],
    ['We expect to grant additional awards to participants in 2026.', '10K-Item-8', 'PREDICTION'],
    // conditional "will" states a policy
    ['If the carrying amount exceeds fair value, the Company will record an impairment charge.', '10K-Item-8', 'FACT'],
    [
      'The Company will record a restructuring charge of about $20 million in the first quarter.',
      '10K-Item-8',
      'PREDICTION',
    ],
    ['Costs are deferred when it is probable that they will be recovered through rates.', '10K-Item-8', 'FACT'],
    ['We will recover these costs through rates in 2026.', '10K-Item-8', 'PREDICTION'],
    ['Revenue will be recognized when control of the goods passes to the customer.', '10K-Item-8', 'FACT'],
    ['The remaining cost will be recognized over a weighted-average period of two years.', '10K-Item-8', 'PREDICTION'],
    // contract terms
    ['The notes will mature on March 1, 2031.', '10K-Item-8', 'FACT'],
    ['We expect to repay the notes from operating cash flow when they mature in 2031.', '10K-Item-8', 'PREDICTION'],
    ['Copies of the code will be made available upon written request.', '10K-Item-10', 'FACT'],
    // "plans" the noun, "seeks" a standing aim
    ['Management plans and benefit plans are reviewed by the board each year.', '10K-Item-8', 'FACT'],
    ['Management plans to close two plants next year.', '10K-Item-7', 'PREDICTION'],
    ['We seek to attract and retain talented engineers.', '10K-Item-1', 'FACT'],
    // "outlook" as a section title, "estimates that" of the past
    ['See the Strategy and Outlook section of the MD&A for more detail.', '10K-Item-1', 'FACT'],
    ['Our outlook for 2026 assumes low single-digit sales growth.', '10K-Item-7', 'PREDICTION'],
    ['We estimate that currency effects reduced sales by $40 million in 2025.', '10K-Item-7', 'FACT'],
    ['We estimate that contributions will total $50 million in 2026.', '10K-Item-7', 'PREDICTION'],
    // forward-looking-statement boilerplate, litigation posture
    ['Words such as expects, believes and intends identify forward-looking statements.', '10K-Item-7', 'FACT'],
    ['The Company intends to defend itself vigorously against these claims.', '10K-Item-3', 'FACT'],
    ['The Company intends to file its appeal in the second quarter.', '10K-Item-3', 'PREDICTION'],
    // accounting definitions and sorting by an expectation
    ['The expected term is the period the options are expected to be outstanding.', '10K-Item-8', 'FACT'],
    ['Liabilities expected to be paid within twelve months are classified as current.', '10K-Item-8', 'FACT'],
    ['These liabilities are expected to be paid in 2026.', '10K-Item-8', 'PREDICTION'],
    ['We capitalize the costs if we expect to recover them within a year.', '10K-Item-8', 'FACT'],
    ['We expect to recover these costs within a year.', '10K-Item-8', 'PREDICTION'],
    ['It is difficult to predict when the review will conclude.', '10K-Item-7', 'FACT'],
    // exhibits of a 10-Q (Part II Item 6) are contracts like those of a 10-K
    ['The Borrower will deliver the compliance certificate within 30 days.', '10Q-PartII-Item-6', 'FACT'],
    ['We will deliver about 30 aircraft in the quarter.', '10Q-PartI-Item-2', 'PREDICTION'],
    // a conditional "will" with an adverse word is a risk in risk factors, a policy elsewhere
    ['If we fail to retain key engineers, our results will suffer.', '10K-Item-1A', 'RISK'],
    ['If holders convert their notes, we will deliver shares.', '10K-Item-1A', 'FACT'],
  ];
  it.each(cases)('%s (%s) is %s', (text, item, status) => {
    expect(classifyStatus(text, 'sentence', item)).toBe(status);
  });

  // A loss contingency's likelihood as the company judges it (ASC 450), against a policy conditioned on that judgement.
  it.each([
    [
      'The Company believes that it is probable that it will incur a loss from these matters, though it ' +
        'cannot estimate the loss that may arise.',
      '10K-Item-8',
      'ASSESSMENT',
    ],
    [
      'While we may be exposed to credit losses from counterparties, we consider the risk remote.',
      '10K-Item-8',
      'ASSESSMENT',
    ],
    [
      'We record accruals for these matters to the extent that we conclude that a loss is probable and ' +
        'reasonably estimable.',
      '10K-Item-8',
      'FACT',
    ],
    ['The loss of a key customer could adversely affect our results.', '10K-Item-8', 'RISK'],
  ] as const)('%s (%s) is %s', (text, item, status) => {
    expect(classifyStatus(text, 'sentence', item)).toBe(status);
  });

  // Each rule of the fourth revision: the trap and the true case.
  const fourth: [string, string | null, 'FACT' | 'PREDICTION' | 'ASSESSMENT' | 'RISK'][] = [
    // an expectation in a restrictive relative clause defines a noun
    ['Revenue is recognized over the period the services are expected to be provided.', '10K-Item-8', 'FACT'],
    [
      'Goodwill was attributed to synergies that are expected to be achieved from the merger.',
      '10Q-PartI-Item-1',
      'FACT',
    ],
    ['The remaining cost is expected to be recognized over two years.', '10K-Item-8', 'PREDICTION'],
    ['We recorded a charge for severance, which is expected to be paid in 2026.', '10K-Item-8', 'PREDICTION'],
    // a standing commitment
    ['We will post any amendments to the code on our website.', '10K-Item-10', 'FACT'],
    ['We will open 20 new stores in 2026.', '10K-Item-7', 'PREDICTION'],
    // a negated expectation with an object
    ['We do not expect the goodwill to be deductible for tax purposes.', '10K-Item-8', 'PREDICTION'],
    ['Costs are expensed if we do not expect to recover them.', '10K-Item-8', 'FACT'],
    // "going forward" opens a forecast, not a contract description
    ['The agreements govern the relationship of the two companies going forward.', '10K-Item-15', 'FACT'],
    ['Going forward, margins should improve as volumes grow.', '10K-Item-7', 'PREDICTION'],
    // "estimate ... to commence"
    ['We estimate the lease to commence in August 2026.', '10K-Item-2', 'PREDICTION'],
    ['We estimate the fair value to be $10 million.', '10K-Item-8', 'FACT'],
    // a long belief about the future is a forecast; someone else's belief is not the company's
    [
      'We believe that our cash flow, together with our credit facilities, commercial paper programs, ' +
        'working capital lines and other sources of financing such as long-term debt, will be adequate to meet ' +
        'our operating, investing and financing needs.',
      '10K-Item-7',
      'PREDICTION',
    ],
    ['Employees who reasonably believe the law will be violated must report it.', '10K-Item-10', 'FACT'],
    // a condition clause before "the Company will" states a policy
    [
      'For all awards, in the event the results equal the target, the Company will grant the target number of shares.',
      '10K-Item-8',
      'FACT',
    ],
    ['The Company will grant about 2 million shares in 2026.', '10K-Item-8', 'PREDICTION'],
    // litigation posture anywhere in the sentence; the premises of an investment strategy
    ['The Company intends to assert its claims on appeal and vigorously defend its position.', '10K-Item-3', 'FACT'],
    ['The investment strategy expects equity investments to yield higher returns than bonds.', '10K-Item-8', 'FACT'],
    ['We expect to contribute $40 million to the pension plans in 2026.', '10K-Item-8', 'PREDICTION'],
    // a forecast joined to a classification
    ['The notes are classified as current, and we expect to repay them from cash on hand.', '10K-Item-8', 'PREDICTION'],
    // the effective date of a rule, an investment where a return is expected
    [
      'The update will be effective for the Company for periods beginning after December 15, 2026.',
      '10K-Item-8',
      'FACT',
    ],
    ['We will adopt the update in the first quarter of 2026.', '10K-Item-8', 'PREDICTION'],
    ['We invest in regulated projects where we expect to earn a long-term return.', '10K-Item-7', 'FACT'],
    ['We expect to earn a return on these projects in 2027.', '10K-Item-7', 'PREDICTION'],
    // beliefs that are not a present judgement: a policy, the reason for a recorded figure, a restrictive clause
    ['If and when we believe capitalized costs are not recoverable, we expense them.', '10K-Item-8', 'FACT'],
    ['We believe these capitalized costs are recoverable.', '10K-Item-8', 'ASSESSMENT'],
    [
      'We recorded a $5 million valuation allowance because the Company believes the assets do not meet the criteria.',
      '10K-Item-8',
      'FACT',
    ],
    ['The Company believes the assets meet the recognition criteria.', '10K-Item-8', 'ASSESSMENT'],
    ['See Note 14 for the amounts that we believe are required for cleanup.', '10K-Item-1', 'FACT'],
    ['Our approach gives customers choice, which we believe is a priority for them.', '10K-Item-7', 'ASSESSMENT'],
    ['The agent may rely on any notice believed by it to be genuine.', '10K-Item-8', 'FACT'],
    ['Management believes the claims are without merit.', '10K-Item-8', 'ASSESSMENT'],
    ['The auditor designs procedures that are appropriate in the circumstances.', '10K-Item-9A', 'FACT'],
    ['Stock options are important tools in retaining employees.', '10K-Item-11', 'FACT'],
    ['Our brand is important to our success.', '10K-Item-1', 'ASSESSMENT'],
    // exhibits that hold the annual report body: a modal with a strong adverse word, outside contract language
    ['A change in the vaccine recommendation could negatively impact future revenues.', '10K-Item-16', 'RISK'],
    [
      'Any amendment that would adversely affect the rights of the Participant requires consent.',
      '10K-Item-16',
      'FACT',
    ],
    ['The Borrower may be liable for damages if it breaches this Agreement.', '10K-Item-16', 'FACT'],
    // modal words that are not a hypothetical harm
    ['Any resulting gain or loss would be recognized in earnings.', '10K-Item-7', 'FACT'],
    ['A decline in prices could result in a loss on these contracts.', '10K-Item-7', 'RISK'],
    ['See the risk factors in Item 1A, which could affect our future results.', '10K-Item-7', 'FACT'],
    [
      'Options were excluded from diluted loss per share because their effect would be anti-dilutive.',
      '10K-Item-8',
      'FACT',
    ],
    ['Higher interest rates could reduce our margins.', '10K-Item-7', 'RISK'],
  ];
  it.each(fourth)('%s (%s) is %s', (text, item, status) => {
    expect(classifyStatus(text, 'sentence', item)).toBe(status);
  });

  it('computes a 95% Wilson interval', () => {
    const [lo, hi] = wilson(17, 25);
    expect(lo).toBeCloseTo(0.484, 2);
    expect(hi).toBeCloseTo(0.828, 2);
    expect(wilson(10, 10)[1]).toBe(1);
  });

  const shared = sharedDir();
  const filings = shared ? join(shared, 'corpus/filings') : null;
  // Floors a little under the measured figures (npm run eval:status), so a regression in the rules fails here. The
  // uniform random samples predict too few of the rarer statuses for per-status floors: it keeps an accuracy floor.
  const floors = {
    'tuning 1': { path: REAL_LABELS, FACT: 0.95, PREDICTION: 0.8, ASSESSMENT: 0.9, RISK: 0.9 },
    'tuning 2': { path: TUNING2_LABELS, FACT: 0.9, PREDICTION: 0.7, ASSESSMENT: 0.9, RISK: 0.9 },
    'tuning 3': { path: TUNING3_LABELS, FACT: 0.9, PREDICTION: 0.65, ASSESSMENT: 0.85, RISK: 0.9 },
    'tuning 4': { path: TUNING4_LABELS, FACT: 0.95, PREDICTION: 0.9, ASSESSMENT: 0.85, RISK: 0.85 },
    'tuning 5': { path: TUNING5_LABELS, FACT: 0.95, PREDICTION: 0.7, ASSESSMENT: 0.9, RISK: 0.9 },
    'uniform random 1': { path: RANDOM_LABELS, accuracy: 0.93 },
    'future-word probe 1': { path: FUTURE_PROBE_LABELS, accuracy: 0.95 },
    // blind after the fourth revision (measured 96.7/76.7/66.7/90.0%, accuracy 94.5% and 85.0%)
    'hold-out 3': { path: HOLDOUT_LABELS, FACT: 0.9, PREDICTION: 0.7, ASSESSMENT: 0.6, RISK: 0.85 },
    'uniform random 2': { path: RANDOM2_LABELS, accuracy: 0.9 },
    'future-word probe 2': { path: FUTURE_PROBE2_LABELS, accuracy: 0.8 },
  };
  const hasCorpus = !!filings && existsSync(join(filings, 'documents.jsonl'));
  let sets: Promise<Awaited<ReturnType<typeof readRealLabelSets>>> | null = null;
  const load = () =>
    (sets ??= readRealLabelSets(
      filings!,
      Object.values(floors).map((f) => f.path),
    ));
  for (const [k, [name, f]] of Object.entries(floors).entries()) {
    it.skipIf(!hasCorpus)(
      `keeps precision per status on the real ${name} sample (../shared)`,
      async () => {
        const { sample, missing } = (await load())[k]!;
        expect(missing).toEqual([]);
        const report = evaluateStatuses(sample);
        if ('accuracy' in f) expect(report.accuracy).toBeGreaterThanOrEqual(f.accuracy);
        else
          for (const status of ['FACT', 'PREDICTION', 'ASSESSMENT', 'RISK'] as const)
            expect(report.perStatus[status].precision!, status).toBeGreaterThanOrEqual(f[status]);
      },
      180_000,
    );
  }
});
