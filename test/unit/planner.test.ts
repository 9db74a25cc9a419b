import { describe, expect, it } from 'vitest';
import type { Condition } from '../../src/filters/parse';
import type { Chain } from '../../src/evidence/model';
import { facetsOfChain } from '../../src/core/coverage';
import { lineItemFacets, periodFacets } from '../../src/plan/facets';
import type { CatalogSource } from '../../index-format/types';
import { mergeBranches } from '../../src/core/merge';
import { claimKey } from '../../index-format/claims';
import { MAX_REQUIREMENTS, planRequirements, plannedMetrics } from '../../src/plan/requirements';
import { analyzeQuestion } from '../../src/question/analyze';
import type { Directory } from '../../index-format/types';

/** The analysis of a question with no company directory (these plans take issuers from their conditions). */
const analyze = (q: string) => analyzeQuestion(q, { companies: [], field_values: {} as Directory['field_values'] });

// An invented catalog: the sample corpus issuers.
const catalog = {
  companies: [
    { ticker: 'QSEP', company: 'Quarrystone Energy' },
    { ticker: 'QVLT', company: 'Quillvale Microdevices' },
    { ticker: 'ZNHF', company: 'Zenharrow Foods' },
  ],
};
const tickers = (...v: string[]): Condition => ({ field: 'sec_ticker', op: 'in', values: v });
const years = (...v: string[]): Condition => ({ field: 'sec_fiscal_year', op: 'in', values: v });
const form10K: Condition = { field: 'sec_form_type', op: 'eq', values: ['10-K'] };

describe('planRequirements: question shapes', () => {
  const table: { shape: string; query: string; conditions: Condition[]; labels: string[]; omitted: string[] }[] = [
    {
      shape: 'two issuers',
      query: 'Compare Quillvale and Zenharrow net income in fiscal 2023',
      conditions: [tickers('QVLT', 'ZNHF'), years('FY-2023')],
      labels: ['QVLT net income FY2023', 'ZNHF net income FY2023'],
      omitted: [],
    },
    {
      shape: 'two periods, current first',
      query: 'How did Quillvale revenue change from fiscal 2022 to fiscal 2023?',
      conditions: [tickers('QVLT'), years('FY-2022', 'FY-2023')],
      labels: ['QVLT revenue FY2023', 'QVLT revenue FY2022'],
      omitted: [],
    },
    {
      shape: 'a ratio: numerator before denominator',
      query: 'What was the Zenharrow gross margin percentage in 2023?',
      conditions: [tickers('ZNHF'), years('FY-2023')],
      labels: ['ZNHF gross profit FY2023', 'ZNHF revenue FY2023'],
      omitted: [],
    },
    {
      shape: 'more than four inputs: every issuer first, the comparison period is cut',
      query: 'Compare the operating margin of Quillvale and Zenharrow in 2023 versus 2022',
      conditions: [tickers('QVLT', 'ZNHF'), years('FY-2022', 'FY-2023')],
      labels: [
        'QVLT operating income FY2023',
        'ZNHF operating income FY2023',
        'QVLT revenue FY2023',
        'ZNHF revenue FY2023',
      ],
      omitted: [
        'QVLT operating income FY2022',
        'ZNHF operating income FY2022',
        'QVLT revenue FY2022',
        'ZNHF revenue FY2022',
      ],
    },
    {
      shape: 'three issuers and a ratio: each issuer before the second input',
      query: 'free cash flow of Quarrystone, Quillvale and Zenharrow in 2023',
      conditions: [tickers('QSEP', 'QVLT', 'ZNHF'), years('FY-2023')],
      labels: [
        'QSEP cash from operations FY2023',
        'QVLT cash from operations FY2023',
        'ZNHF cash from operations FY2023',
        'QSEP capital expenditure FY2023',
      ],
      omitted: ['QVLT capital expenditure FY2023', 'ZNHF capital expenditure FY2023'],
    },
    {
      shape: 'two issuers, no metric',
      query: 'What risks do Quillvale and Zenharrow describe?',
      conditions: [tickers('QVLT', 'ZNHF')],
      labels: ['QVLT', 'ZNHF'],
      omitted: [],
    },
  ];
  for (const t of table) {
    it(t.shape, () => {
      const plan = planRequirements(analyze(t.query), catalog, t.conditions);
      expect(plan.decomposed).toBe(true);
      expect(plan.requirements.map((r) => r.label)).toEqual(t.labels);
      expect(plan.requirements.map((r) => r.id)).toEqual(t.labels.map((_, i) => `R${i + 1}`));
      expect(plan.omitted).toEqual(t.omitted);
      expect(plan.requirements.length).toBeLessThanOrEqual(MAX_REQUIREMENTS);
    });
  }

  it('nothing to decompose: one issuer, one period, one or no metric fall back to the original question', () => {
    for (const [query, conditions] of [
      ['Quillvale revenue in fiscal 2023', [tickers('QVLT'), years('FY-2023')]],
      ['What does Quillvale say about competition?', [tickers('QVLT')]],
      ['supply chain risks', []],
    ] as [string, Condition[]][]) {
      expect(planRequirements(analyze(query), catalog, conditions)).toEqual({
        decomposed: false,
        requirements: [],
        omitted: [],
      });
    }
  });

  it('each branch narrows ticker and year, keeps the other filters, and focuses its text', () => {
    const plan = planRequirements(analyze('Quillvale vs Zenharrow capex in the 2023 annual report'), catalog, [
      tickers('QVLT', 'ZNHF'),
      years('FY-2023'),
      form10K,
    ]);
    const r = plan.requirements[1]!;
    expect(r.conditions).toEqual([
      form10K,
      { field: 'sec_ticker', op: 'eq', values: ['ZNHF'] },
      { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2023'] },
    ]);
    expect(r.query).toMatch(/^Zenharrow Foods Capital expenditure, purchases of property, plant and equipment/);
    expect(r.query).toMatch(/fiscal 2023$/);
    expect(r.metric).toBe('capex');
  });

  it('a comparison period is also searched in the current period filings, which restate it', () => {
    const plan = planRequirements(
      analyze('How did Quillvale revenue change from fiscal 2022 to fiscal 2023?'),
      catalog,
      [tickers('QVLT'), years('FY-2022', 'FY-2023')],
    );
    expect(plan.requirements.map((r) => r.conditions.find((c) => c.field === 'sec_fiscal_year'))).toEqual([
      { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2023'] },
      { field: 'sec_fiscal_year', op: 'in', values: ['FY-2022', 'FY-2023'] },
    ]);
  });

  it('plans only the years the question names when inference widened them (forward-looking: the year before)', () => {
    const plan = planRequirements(analyze('What revenue does Quillvale expect for fiscal 2023?'), catalog, [
      tickers('QVLT', 'ZNHF'),
      years('FY-2022', 'FY-2023'),
    ]);
    expect(plan.requirements.map((r) => r.fiscalYear)).toEqual(['FY-2023', 'FY-2023']);
  });

  it('ratios expand into their inputs, an input named twice is planned once', () => {
    expect(plannedMetrics(analyze('gross margin percentage and revenue')).map((m) => m.id)).toEqual([
      'gross_profit',
      'revenue',
    ]);
  });
});

describe('mergeBranches', () => {
  // Chains as a round-robin merge reads them: claim keys (the heads' claim hashes; any key works).
  const chain = (...texts: string[]) => ({ claims: texts.map(claimKey) });

  it('interleaves branches round-robin, credits a duplicate to the kept chain, and caps the count', () => {
    const a1 = chain('Net sales were 4,837.');
    const a2 = chain('Gross profit was 2,687.');
    const b1 = chain('net sales were 4,837');
    const b2 = chain('Capex was 450.');
    const b3 = chain('Other.');
    const { chains, retrievedBy } = mergeBranches(
      [
        [a1, a2],
        [b1, b2, b3],
      ],
      ['R1', 'R2'],
      3,
    );
    expect(chains).toEqual([a1, a2, b2]);
    expect([...retrievedBy.get(a1)!]).toEqual(['R1', 'R2']);
    expect(retrievedBy.has(b3)).toBe(false);
  });
});

describe('lineItemFacets (research mode)', () => {
  it('splits a ratio defined in the question into its line items, with the named years', () => {
    const f = lineItemFacets(
      analyze(
        'What is the FY2021 operating cash flow ratio for Zenharrow? Operating cash flow ratio is defined ' +
          'as: cash from operations / total current liabilities.',
      ),
    );
    expect(f.map((x) => x.id)).toEqual(['operating_cash_flow', 'current_liabilities']);
    for (const x of f) expect(x.query).toMatch(/FY2021$/);
    expect(f[1]!.query).toContain('Current liabilities');
  });

  it('expands a named ratio with no definition, and COGS by its abbreviation', () => {
    expect(
      lineItemFacets(analyze('Quillvale inventory turnover in FY2023?'))
        .map((x) => x.id)
        .sort(),
    ).toEqual(['cost_of_sales', 'inventory']);
    expect(lineItemFacets(analyze('Zenharrow FY2022 COGS and inventories')).map((x) => x.id)).toEqual([
      'cost_of_sales',
      'inventory',
    ]);
  });

  it('has no facets for a question about one line item or none', () => {
    expect(lineItemFacets(analyze('What was Quillvale capital expenditure in FY2023?'))).toEqual([]);
    expect(lineItemFacets(analyze('What risks does Quarrystone describe about wildfires?'))).toEqual([]);
  });

  it('credits a chain with the facets its entries state', () => {
    const f = lineItemFacets(analyze('working capital of Quillvale in FY2023'));
    const chain = {
      relevance: 7,
      entries: [{ consensus: 'Total current liabilities: 1,204 for FY2023', metric: 0, sources: [] }],
    } as unknown as Chain;
    expect(facetsOfChain(chain, f)).toEqual(['current_liabilities']);
  });
});

describe('periodFacets (research mode)', () => {
  // Invented sources: Zenharrow's FY2023 10-K and three 10-Qs (two items each), and one Quillvale 10-Q.
  const src = (doc: string, ticker: string, form: string, period: string, item: string): CatalogSource =>
    ({
      id: `${doc}-${item}`,
      doc_id: doc,
      period_of_report: period,
      fiscal_period: form === '10-K' ? 'FY' : doc.slice(-2),
      meta: { sec_ticker: ticker, sec_form_type: form, sec_fiscal_year: 'FY-2023', sec_item_tag: item },
    }) as unknown as CatalogSource;
  const sources = [
    src('ZNHF-K23', 'ZNHF', '10-K', '2023-12-31', '10K-Item-7'),
    src('ZNHF-Q1', 'ZNHF', '10-Q', '2023-04-01', '10Q-PartI-Item-1'),
    src('ZNHF-Q1', 'ZNHF', '10-Q', '2023-04-01', '10Q-PartI-Item-2'),
    src('ZNHF-Q2', 'ZNHF', '10-Q', '2023-07-01', '10Q-PartI-Item-2'),
    src('ZNHF-Q3', 'ZNHF', '10-Q', '2023-09-30', '10Q-PartI-Item-2'),
    src('QVLT-Q1', 'QVLT', '10-Q', '2023-03-31', '10Q-PartI-Item-2'),
  ];
  const znhf: Condition = { field: 'sec_ticker', op: 'eq', values: ['ZNHF'] };

  it("spreads a question about change across quarters over the issuer's 10-Qs, latest first", () => {
    const f = periodFacets(analyze('How has Zenharrow revenue trended over the reported quarters?'), sources, [znhf]);
    expect(f.map((x) => x.id)).toEqual(['ZNHF-Q3', 'ZNHF-Q2', 'ZNHF-Q1']);
    expect([...f[2]!.sources!]).toEqual([1, 2]);
    const chain = {
      relevance: 5,
      entries: [{ consensus: 'x', metric: 0, sources: [{ source: 3 }] }],
    } as unknown as Chain;
    expect(facetsOfChain(chain, f)).toEqual(['ZNHF-Q2']);
  });

  it('counts the 10-K too when the question is not about quarters', () => {
    expect(
      periodFacets(analyze('How has Zenharrow revenue evolved over time?'), sources, [znhf]).map((x) => x.id),
    ).toEqual(['ZNHF-K23', 'ZNHF-Q3', 'ZNHF-Q2', 'ZNHF-Q1']);
  });

  it("plans agentic requirements per filing for the same question, with the filing's filters and scope", () => {
    const plan = planRequirements(
      analyze('How has Zenharrow revenue trended over the reported quarters?'),
      { ...catalog, sources },
      [znhf],
    );
    expect(plan.decomposed).toBe(true);
    expect(plan.requirements.map((r) => r.label)).toEqual([
      'ZNHF revenue 10-Q FY2023Q3',
      'ZNHF revenue 10-Q FY2023Q2',
      'ZNHF revenue 10-Q FY2023Q1',
    ]);
    expect(plan.requirements[0]!.conditions).toEqual(
      expect.arrayContaining([
        { field: 'sec_ticker', op: 'eq', values: ['ZNHF'] },
        { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2023'] },
        { field: 'sec_form_type', op: 'eq', values: ['10-Q'] },
      ]),
    );
    expect([...plan.requirements[0]!.sources!]).toEqual([4]);
    // Without the catalog's sources (or without a cue) the plan falls back as before.
    expect(
      planRequirements(analyze('How has Zenharrow revenue trended over the reported quarters?'), catalog, [znhf])
        .decomposed,
    ).toBe(false);
    expect(planRequirements(analyze('What was Zenharrow revenue?'), { ...catalog, sources }, [znhf]).decomposed).toBe(
      false,
    );
  });

  it("plans the requirements of a question that names no period on each issuer's latest annual report", () => {
    const latestSources = [...sources, src('ZNHF-K22', 'ZNHF', '10-K', '2022-12-31', '10K-Item-8')];
    const plan = planRequirements(
      analyze('What is the current ratio of Zenharrow?'),
      { ...catalog, sources: latestSources },
      [znhf],
    );
    expect(plan.requirements.map((r) => r.label)).toEqual([
      'ZNHF current assets, latest annual report',
      'ZNHF current liabilities, latest annual report',
    ]);
    for (const r of plan.requirements) {
      expect([...r.sources!]).toEqual([0]); // the FY2023 10-K, not the FY2022 one nor the later 10-Qs' filings
      expect(r.fiscalYear).toBe('FY-2023');
      expect(r.query).toMatch(/fiscal 2023$/);
    }
    // A named year is planned as before.
    const named = planRequirements(
      analyze('What was the current ratio of Zenharrow in fiscal 2023?'),
      { ...catalog, sources: latestSources },
      [znhf, years('FY-2023')],
    );
    expect(named.requirements.map((r) => r.label)).toEqual([
      'ZNHF current assets FY2023',
      'ZNHF current liabilities FY2023',
    ]);
    expect(named.requirements[0]!.sources).toBeUndefined();
  });

  it('has no facets for a point-in-time question, several issuers, or a single filing', () => {
    expect(periodFacets(analyze('What was Zenharrow revenue in the third quarter?'), sources, [znhf])).toEqual([]);
    expect(periodFacets(analyze('Did Zenharrow deliver its plant upgrades in time?'), sources, [znhf])).toEqual([]);
    expect(
      periodFacets(analyze('How has revenue trended across quarters?'), sources, [tickers('ZNHF', 'QVLT')]),
    ).toEqual([]);
    expect(
      periodFacets(analyze('How has Quillvale revenue trended across quarters?'), sources, [
        { field: 'sec_ticker', op: 'eq', values: ['QVLT'] },
      ]),
    ).toEqual([]);
  });
});
