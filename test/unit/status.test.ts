import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateStatuses } from '../../index-builder/eval/status-precision';
import { FUTURE_PROBE_LABELS, HOLDOUT_LABELS, RANDOM_LABELS, readInventedLabels, readRealLabelSets, REAL_LABELS, TUNING2_LABELS, TUNING3_LABELS } from '../../index-builder/eval/status';
import { wilson } from '../../index-builder/eval/status-precision';
import { sharedDir } from '../../index-builder/shared-dir';
import { classifyStatus } from '../../index-builder/status';

describe('epistemic status rules', () => {
  it('reach at least 90% precision per status on the invented labelled sample', () => {
    const report = evaluateStatuses(readInventedLabels());
    for (const [status, p] of Object.entries(report.perStatus)) {
      expect(p.predicted, status).toBeGreaterThan(0);
      expect(p.precision!, status).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('orders the rules: a belief about the future is a prediction, a conditional harm is a risk', () => {
    expect(classifyStatus('We believe our cash will be sufficient for the next twelve months.', 'sentence')).toBe('PREDICTION');
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
    ['The Company will record a restructuring charge of about $20 million in the first quarter.', '10K-Item-8', 'PREDICTION'],
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

  it('computes a 95% Wilson interval', () => {
    const [lo, hi] = wilson(17, 25);
    expect(lo).toBeCloseTo(0.484, 2);
    expect(hi).toBeCloseTo(0.828, 2);
    expect(wilson(10, 10)[1]).toBe(1);
  });

  const shared = sharedDir();
  const filings = shared ? join(shared, 'corpus/filings') : null;
  // Floors a little under the measured figures (npm run eval:status), so a regression in the rules fails here. The
  // uniform random sample predicts too few of the rarer statuses for per-status floors: it keeps an accuracy floor.
  const floors = {
    'tuning 1': { path: REAL_LABELS, FACT: 0.95, PREDICTION: 0.8, ASSESSMENT: 0.85, RISK: 0.9 },
    'tuning 2': { path: TUNING2_LABELS, FACT: 0.9, PREDICTION: 0.65, ASSESSMENT: 0.7, RISK: 0.9 },
    'tuning 3': { path: TUNING3_LABELS, FACT: 0.9, PREDICTION: 0.6, ASSESSMENT: 0.8, RISK: 0.9 },
    'hold-out': { path: HOLDOUT_LABELS, FACT: 0.9, PREDICTION: 0.6, ASSESSMENT: 0.65, RISK: 0.8 },
    'uniform random': { path: RANDOM_LABELS, accuracy: 0.85 },
    'future-word probe': { path: FUTURE_PROBE_LABELS, accuracy: 0.9 },
  };
  const hasCorpus = !!filings && existsSync(join(filings, 'documents.jsonl'));
  let sets: Promise<Awaited<ReturnType<typeof readRealLabelSets>>> | null = null;
  const load = () => (sets ??= readRealLabelSets(filings!, Object.values(floors).map((f) => f.path)));
  for (const [k, [name, f]] of Object.entries(floors).entries()) {
    it.skipIf(!hasCorpus)(`keeps precision per status on the real ${name} sample (../shared)`, async () => {
      const { sample, missing } = (await load())[k]!;
      expect(missing).toEqual([]);
      const report = evaluateStatuses(sample);
      if ('accuracy' in f) expect(report.accuracy).toBeGreaterThanOrEqual(f.accuracy);
      else for (const status of ['FACT', 'PREDICTION', 'ASSESSMENT', 'RISK'] as const) expect(report.perStatus[status].precision!, status).toBeGreaterThanOrEqual(f[status]);
    }, 180_000);
  }
});
