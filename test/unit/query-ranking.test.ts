import { describe, expect, it } from 'vitest';
import { chainRelevance } from '../../src/search/ranking';

const relevanceScore = (...args: Parameters<typeof chainRelevance>) => chainRelevance(...args).score;
import type { Shard } from '../../index-format/types';
import { RANKING } from '../../src/search/ranking';
const { metricBoost: METRIC_BOOST, metricRowBoost: METRIC_ROW_BOOST } = RANKING;
import { queryTerms, withoutIssuerNames } from '../../src/question/terms';
import { rowBoost } from '../../src/search/retrieve';
import { rowLabel } from '../../index-format/row-label';
import { packedFlags, statementFeatures } from '../../index-format/shard-layout';
import { PackedLines } from '../../index-format/packed-lines';
import type { StatementKind } from '../../index-format/types';

/** A hand-made shard with the label and flag columns the builder would store for its texts. */
function withFeatures({ kind, metric, texts }: { kind: StatementKind[]; metric: Uint8Array; texts: string[] }): Shard {
  const features = texts.map((t, i) => statementFeatures(t, kind[i]!, metric[i]!));
  const labels = PackedLines.of(features.map((f) => f.label?.join(' ') ?? '').join('\n'), texts.length, 'labels');
  return {
    texts,
    metric,
    labels,
    flags: Uint8Array.from(features, (f, i) => packedFlags(f.flags, kind[i]!, 'FACT', false)),
  } as unknown as Shard;
}
import { metricCode } from '../../index-format/metrics';

describe('queryTerms', () => {
  it('drops question-phrasing words and units, keeps content words', () => {
    const t = queryTerms(
      'What is the FY2023 net sales amount (in USD millions) for Quillvale? Round to two decimal places, ' +
        'based on the income statement.',
    );
    for (const w of ['round', 'decimal', 'place', 'usd', 'million', 'amount', 'statement', 'based'])
      expect(t).not.toContain(w);
    for (const w of ['net', 'sale', 'quillvale', 'income', 'two']) expect(t).toContain(w);
  });

  it('adds both forms of a named year, however it is written', () => {
    expect(queryTerms('Zenharrow revenue in fiscal 2022')).toEqual(expect.arrayContaining(['2022', 'fy2022']));
    expect(queryTerms('Zenharrow FY2021 revenue')).toEqual(expect.arrayContaining(['2021', 'fy2021']));
  });

  it('adds the name of a metric the question names by a synonym (the builder indexes tagged rows under it)', () => {
    expect(queryTerms('purchases of property and equipment at Quillvale')).toEqual(
      expect.arrayContaining(['capital', 'expenditure']),
    );
  });

  it('falls back to every term when only phrasing words are left', () => {
    expect(queryTerms('What amount?')).toEqual(['amount']);
  });
});

describe('rowLabel', () => {
  it('is the text before the value, innermost part of a nested label', () => {
    expect(rowLabel('Total current assets: 16,525 for FY2019 | 15,134 for FY2018 (USD millions)')).toBe(
      'Total current assets',
    );
    expect(rowLabel('Purchases of property, plant and equipment (PP&E): (1,577) for FY2018')).toBe(
      'Purchases of property, plant and equipment (PP&E)',
    );
    expect(rowLabel("Shareholders' equity: Additional paid-in capital: 5,643 for FY2018")).toBe(
      'Additional paid-in capital',
    );
    expect(rowLabel('Inventories: $ 1,200 for FY2022')).toBe('Inventories');
    expect(rowLabel('Note: the amounts below are unaudited')).toBeNull();
  });
});

describe('rowBoost', () => {
  const capex = metricCode('capex');
  const shard = withFeatures({
    kind: ['table_row', 'table_row', 'sentence', 'table_row', 'sentence'],
    metric: new Uint8Array([capex, 0, capex, 0, 0]),
    texts: [
      'Purchases of property and equipment: (410) for FY2022',
      'Total current assets: 2,310 for FY2022 | 2,050 for FY2021',
      'Capital spending rose in 2022.',
      'Other current assets: 120 for FY2022',
      'Total current assets grew.',
    ],
  });
  const q = (s: string) => queryTerms(s);

  it('boosts a row of a named metric, and a sentence of it a little', () => {
    const terms = q('Quillvale capital expenditure FY2022');
    const metrics = new Set([capex]);
    expect(rowBoost(shard, 0, terms, metrics)).toBe(METRIC_ROW_BOOST);
    expect(rowBoost(shard, 2, terms, metrics)).toBe(METRIC_BOOST);
    expect(rowBoost(shard, 1, terms, metrics)).toBe(1);
  });

  it('boosts a row whose whole label the question names, not one that shares only part of it', () => {
    const terms = q('How much total current assets did Quillvale have at the end of FY2022?');
    expect(rowBoost(shard, 1, terms, new Set())).toBe(METRIC_ROW_BOOST);
    expect(rowBoost(shard, 3, terms, new Set())).toBe(1);
    expect(rowBoost(shard, 4, terms, new Set())).toBe(1); // a sentence is never label-matched
  });
});

describe('rowBoost and one-word labels', () => {
  const shard = withFeatures({
    kind: ['table_row', 'table_row', 'table_row'],
    metric: new Uint8Array([0, 0, 0]),
    texts: [
      'Vantor: 795 | 658 | 21%',
      'Total: 1,238 for three months ended December 30, 2023',
      'QuillLink: 443 | 406 | 9%',
    ],
  });
  it('boosts a product row the question names by its one-word label, never a bare "Total" row', () => {
    const terms = queryTerms('What was the total revenue from Quillvale Vantor sales in the latest quarter?');
    expect(rowBoost(shard, 0, terms, new Set())).toBe(METRIC_ROW_BOOST);
    expect(rowBoost(shard, 1, terms, new Set())).toBe(1);
    expect(rowBoost(shard, 2, terms, new Set())).toBe(1);
  });
});

describe('rowBoost and reconciling rows', () => {
  const ocf = metricCode('operating_cash_flow');
  const inventory = metricCode('inventory');
  const shard = withFeatures({
    kind: ['table_row', 'table_row', 'table_row'],
    metric: new Uint8Array([ocf, ocf, inventory]),
    texts: [
      'Adjustments to reconcile net income to net cash provided by operating activities: Stock-based ' +
        'compensation: 88 for FY2022',
      'Net cash provided by operating activities: 1,204 for FY2022',
      'Changes in operating assets and liabilities: Inventories: (31) for FY2022',
    ],
  });
  it("does not boost a row that only reconciles to the named metric, but does boost the metric's own row", () => {
    const terms = queryTerms('Zenharrow cash from operations FY2022');
    expect(rowBoost(shard, 0, terms, new Set([ocf]))).toBe(1);
    expect(rowBoost(shard, 1, terms, new Set([ocf]))).toBe(METRIC_ROW_BOOST);
    expect(rowBoost(shard, 2, queryTerms('change in inventories'), new Set([inventory]))).toBe(METRIC_ROW_BOOST);
  });
});

describe('relevanceScore', () => {
  const w = new Map([
    ['capital', 4],
    ['expenditure', 5],
    ['cash', 3],
    ['flow', 3],
  ]);
  it('weighs the best single entry over what loosely related entries cover together', () => {
    const a = new Set(['cash']);
    const b = new Set(['flow']);
    const c = new Set(['capital']);
    const loose = relevanceScore(new Set([...a, ...b, ...c]), w, 0, [a, b, c]);
    const focused = relevanceScore(new Set(['capital', 'expenditure', 'cash']), w, 0, [
      new Set(['capital', 'expenditure', 'cash']),
    ]);
    expect(focused).toBeGreaterThan(loose);
  });

  it('adds the named-row bonus, capped at 10', () => {
    const t = new Set(['capital', 'expenditure']);
    expect(relevanceScore(t, w, 0.5, [t], true) - relevanceScore(t, w, 0.5, [t], false)).toBe(2);
    const all = new Set(w.keys());
    expect(relevanceScore(all, w, 1, [all], true)).toBe(10);
  });
});

describe('withoutIssuerNames', () => {
  it("drops the filtered issuer's name words, keeps everything else", () => {
    const terms = queryTerms('What is Zenharrow Foods FY2021 inventory turnover?');
    const kept = withoutIssuerNames(terms, ['Zenharrow Foods Inc.', 'ZNHF', 'zenharrow foods']);
    expect(kept).not.toContain('zenharrow');
    expect(kept).not.toContain('food');
    expect(kept).toEqual(expect.arrayContaining(['inventory', 'turnover', 'fy2021']));
  });

  it('keeps the terms when the question is nothing but the name, and when no issuer is filtered', () => {
    const terms = queryTerms('Zenharrow Foods');
    expect(withoutIssuerNames(terms, ['Zenharrow Foods'])).toEqual(terms);
    expect(withoutIssuerNames(terms, [])).toEqual(terms);
  });
});
