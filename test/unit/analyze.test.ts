// The query analysis (src/question/analyze.ts) pinned on a table of question shapes written for the project: what
// every later step (scope, inference, facets, requirements, passes) reads instead of the question's text.
import { describe, expect, it } from 'vitest';
import { companyAliases } from '../../index-builder/entities/aliases';
import type { Directory } from '../../index-format/types';
import { analyzeQuestion, type QuestionAnalysis } from '../../src/question/analyze';

/** An invented directory: a utility, a chip maker and a food company, with their GICS values. */
const COMPANIES = [
  { ticker: 'ARBL', company: 'Arbelion Power' },
  { ticker: 'CHPX', company: 'Chipperfield Semiconductor' },
  { ticker: 'FDGR', company: 'Foodgrove Brands' },
];
const DIRECTORY = {
  companies: COMPANIES.map((c) => ({ ticker: c.ticker, aliases: companyAliases(c.company, c.ticker) })),
  field_values: {
    sec_gics_sector: { Utilities: 1, 'Information Technology': 1, 'Consumer Staples': 1 },
    sec_gics_sub_industry: { 'Electric Utilities': 1, Semiconductors: 1, 'Packaged Foods & Meats': 1 },
  } as unknown as Directory['field_values'],
};

const analyze = (q: string) => analyzeQuestion(q, DIRECTORY);
const NO_PERIODS = { years: [], quarters: [], dates: [] };
const BUSINESS = { label: 'business description', tags: ['10K-Item-1'] };

describe('analyzeQuestion: question shapes', () => {
  const table: { question: string; expected: Partial<QuestionAnalysis> }[] = [
    {
      question: 'What was Arbelion Power capital expenditure in FY2022?',
      expected: {
        companies: { tickers: ['ARBL'], unknown: [] },
        periods: { years: ['FY-2022'], quarters: [], dates: [] },
        lineItems: ['capex'],
        shape: 'lookup',
        latest: null,
        forwardLooking: false,
        current: false,
      },
    },
    {
      question: 'Compare Arbelion and Chipperfield net income in fiscal 2023.',
      expected: {
        companies: { tickers: ['ARBL', 'CHPX'], unknown: [] },
        lineItems: ['net_income'],
        shape: 'comparison',
      },
    },
    {
      question: 'How have Foodgrove sales trended over the reported quarters?',
      expected: {
        acrossPeriods: { quarterly: true },
        forms: { annual: false, quarterly: true },
        lineItems: ['revenue'],
        shape: 'trend',
        current: false,
      },
    },
    {
      question: 'How did CHPX operating income change from fiscal 2022 to fiscal 2023?',
      expected: {
        companies: { tickers: ['CHPX'], unknown: [] },
        periods: { years: ['FY-2022', 'FY-2023'], quarters: [], dates: [] },
        acrossPeriods: null,
        shape: 'trend',
      },
    },
    {
      question: 'What was the gross margin percentage of Chipperfield in 2023?',
      // A ratio is computed from the company's totals: the statement that prints its inputs is preferred.
      expected: {
        lineItems: ['gross_profit', 'revenue'],
        shape: 'ratio',
        statements: { list: ['income_statement'], named: false },
      },
    },
    {
      question: "What was Arbelion's current ratio at the end of fiscal 2023?",
      expected: {
        lineItems: ['current_assets', 'current_liabilities'],
        shape: 'ratio',
        statements: { list: ['balance_sheet'], named: false },
      },
    },
    {
      question: 'Did long-term debt on the Foodgrove balance sheet grow in fiscal 2023?',
      expected: { lineItems: ['debt'], statements: { list: ['balance_sheet'], named: true } },
    },
    {
      question: 'How many employees did Foodgrove have at the end of Q3 2023?',
      expected: {
        companies: { tickers: ['FDGR'], unknown: [] },
        periods: { years: [], quarters: [{ quarter: 3, year: 'FY-2023' }], dates: [] },
        lineItems: [],
        shape: 'lookup',
      },
    },
    {
      question: 'In which geographies does Foodgrove Brands sell its products?',
      // A descriptive question that names no section is about the business description (Item 1).
      // It names no period: it is about the company now (its latest annual report is preferred).
      expected: {
        companies: { tickers: ['FDGR'], unknown: [] },
        periods: NO_PERIODS,
        lineItems: [],
        sectionIntents: [BUSINESS],
        shape: 'descriptive',
        current: true,
      },
    },
    {
      question: 'What legal proceedings does Arbelion describe in its latest 10-K?',
      expected: {
        latest: '10-K',
        current: false, // the latest 10-K is named: inference picks that filing's year
        forms: { annual: true, quarterly: false },
        sectionIntents: [{ label: 'legal proceedings', tags: ['10K-Item-3', '10Q-PartII-Item-1'] }],
        shape: 'descriptive',
      },
    },
    {
      question: 'Which new markets does Foodgrove plan to enter?',
      // an outlook, not the business description
      expected: { forwardLooking: true, sectionIntents: [], shape: 'descriptive', current: true },
    },
    {
      question: 'Why did Chipperfield close its wafer plant?',
      expected: { shape: 'descriptive', sectionIntents: [] }, // an explanation: MD&A, not the business description
    },
    {
      question: 'What did Arbelion spend on transmission lines in 2023?',
      expected: { lineItems: [], sectionIntents: [], shape: 'lookup' }, // an amount, though no metric of the vocabulary
    },
    {
      question: 'What capital spending does Chipperfield expect for fiscal 2024?',
      expected: { forwardLooking: true, lineItems: ['capex'], shape: 'lookup' },
    },
    {
      question: 'Has Foodgrove cut its dividend in recent quarters?',
      // Quarters, even without a year, are a span of filings, not the company now.
      expected: { periods: NO_PERIODS, current: false },
    },
    {
      question: 'How has Chipperfield gross margin evolved?',
      expected: { acrossPeriods: { quarterly: false }, current: false },
    },
    {
      // A question's "gross margin" is the percentage (gross profit over revenue), as its "operating margin" is; a
      // filing's "Gross margin" row is the amount (index-format/metrics.ts questionSynonyms).
      question: "What drove Chipperfield's gross margins in fiscal 2023?",
      expected: {
        lineItems: ['gross_profit', 'revenue'],
        shape: 'ratio',
        statements: { list: ['income_statement'], named: false },
      },
    },
    {
      question: 'What was Chipperfield gross profit in fiscal 2023?',
      expected: { lineItems: ['gross_profit'], shape: 'lookup' },
    },
    {
      question: 'Which electric utilities raised dividends in 2022?',
      expected: {
        companies: { tickers: [], unknown: [] },
        classification: { sectors: [], subIndustries: ['Electric Utilities'] },
        lineItems: ['dividends'],
      },
    },
    {
      question: 'What supply risk factors does ZQXW name?',
      expected: {
        companies: { tickers: [], unknown: ['ZQXW'] },
        sectionIntents: [{ label: 'risk factors', tags: ['10K-Item-1A', '10Q-PartII-Item-1A'] }],
        shape: 'descriptive',
      },
    },
  ];

  it.each(table)('$question', ({ question, expected }) => {
    expect(analyze(question)).toMatchObject(expected);
  });

  it('is a plain value: the same question gives an equal analysis, and it survives a JSON round trip', () => {
    const a = analyze('What was Arbelion Power capital expenditure in FY2022?');
    expect(analyze('What was Arbelion Power capital expenditure in FY2022?')).toEqual(a);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it(`carries the lexical query retrieval searches with: terms without phrasing words, named years, metric \
names`, () => {
    const { lexical } = analyze(
      'Using the cash flow statement, what were Arbelion purchases of property and equipment in 2021?',
    );
    expect(lexical.terms).toEqual(expect.arrayContaining(['2021', 'fy2021', 'capital', 'expenditure']));
    expect(lexical.terms).not.toContain('using');
    expect(lexical.metrics.length).toBeGreaterThan(0);
  });
});
