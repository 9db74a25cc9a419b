import { describe, expect, it } from 'vitest';
import { companyAliases, withoutSharedAliases } from '../../index-builder/entities/aliases';
import { inferFilters } from '../../src/filters/infer';
import { findItemHints } from '../../src/question/items';
import { conditionsToObject, type Condition } from '../../src/filters/parse';
import { findPeriods, QUARTER_WORDS } from '../../src/question/periods';
import { tokenize } from '../../index-format/tokenize';
import { analyzeQuestion } from '../../src/question/analyze';
import { latestAnnualSources } from '../../src/plan/periods';
import type { CatalogHeader, CatalogSource } from '../../index-format/types';

/**
 * A small invented catalog: a December-year utility with 10-Ks FY2021-FY2023, a September-year chip maker with
 * 10-Ks FY2022-FY2023 and a FY2024 Q1 10-Q, and a December-year food company with a FY2023 Q3 10-Q.
 */
const COMPANIES = [
  { ticker: 'ARBL', company: 'Arbelion Power', sector: 'Utilities', sub: 'Electric Utilities', fye: '12-31' },
  {
    ticker: 'CHPX',
    company: 'Chipperfield Semiconductor',
    sector: 'Information Technology',
    sub: 'Semiconductors',
    fye: '09-30',
  },
  {
    ticker: 'FDGR',
    company: 'Foodgrove Brands',
    sector: 'Consumer Staples',
    sub: 'Packaged Foods & Meats',
    fye: '12-31',
  },
];
const FILINGS: { ticker: string; form: '10-K' | '10-Q'; fy: number; period: string; end: string; items: string[] }[] = [
  ...[2021, 2022, 2023].map((fy) => ({
    ticker: 'ARBL',
    form: '10-K' as const,
    fy,
    period: 'FY',
    end: `${fy}-12-31`,
    items: ['1', '1A', '3', '7', '8'],
  })),
  ...[2022, 2023].map((fy) => ({
    ticker: 'CHPX',
    form: '10-K' as const,
    fy,
    period: 'FY',
    end: `${fy}-09-30`,
    items: ['1', '1A', '3', '7', '7A', '8', '11'],
  })),
  {
    ticker: 'CHPX',
    form: '10-Q',
    fy: 2024,
    period: 'Q1',
    end: '2023-12-30',
    items: ['PartI-Item-1', 'PartI-Item-2', 'PartII-Item-1A'],
  },
  { ticker: 'FDGR', form: '10-K', fy: 2023, period: 'FY', end: '2023-12-31', items: ['1A', '7', '8'] },
  { ticker: 'FDGR', form: '10-Q', fy: 2023, period: 'Q3', end: '2023-09-30', items: ['PartI-Item-1', 'PartI-Item-2'] },
];

function catalog(): CatalogHeader {
  const sources: CatalogSource[] = [];
  for (const f of FILINGS) {
    const c = COMPANIES.find((x) => x.ticker === f.ticker)!;
    for (const item of f.items) {
      const tag = f.form === '10-K' ? `10K-Item-${item}` : `10Q-${item}`;
      sources.push({
        id: `${f.ticker}-${f.form.replace('-', '')}-FY${f.fy}${f.period === 'FY' ? '' : f.period}-${item}`,
        type: 'sec_filing_item',
        date: null,
        doc_id: `${f.ticker}_${f.fy}_${f.period}`,
        company: c.company,
        period_of_report: f.end,
        fiscal_period: f.period,
        item_title: '',
        page_start: 0,
        page_end: 0,
        shard: 0,
        meta: {
          report_filing_date: null,
          sec_fiscal_year: `FY-${f.fy}`,
          sec_fiscal_year_end: c.fye,
          sec_form_type: f.form,
          sec_gics_sector: c.sector,
          sec_gics_sub_industry: c.sub,
          sec_item_tag: tag,
          sec_ticker: f.ticker,
        },
      });
    }
  }
  const fieldValues = {} as CatalogHeader['field_values'];
  for (const field of Object.keys(sources[0]!.meta) as (keyof CatalogSource['meta'])[]) {
    fieldValues[field] = {};
    for (const s of sources)
      if (s.meta[field]) fieldValues[field][s.meta[field]!] = (fieldValues[field][s.meta[field]!] ?? 0) + 1;
  }
  return {
    domain: 'sp500',
    schema_version: 'test',
    analyzer_version: 1,
    built_from: { filings: FILINGS.length, pages: 0 },
    stats: { statements: 0, sources: sources.length, avg_statement_terms: 0 },
    sources,
    companies: COMPANIES.map((c) => ({
      ticker: c.ticker,
      company: c.company,
      cik: null,
      sector: c.sector,
      sub_industry: c.sub,
      aliases: companyAliases(c.company, c.ticker),
    })),
    shards: [],
    field_values: fieldValues,
    numeric_bounds: {},
    embedding_dim: 0,
  };
}

const CATALOG = catalog();
const infer = (q: string, caller: Condition[] = []) => {
  const r = inferFilters(analyzeQuestion(q, CATALOG), CATALOG, caller);
  return {
    filters: conditionsToObject(r.conditions),
    preference: r.preference,
    codes: r.notices.map((n) => n.code),
    notices: r.notices,
  };
};

describe('findPeriods', () => {
  it.each([
    ['Q2 2023 revenue', [], [{ quarter: 2, year: 'FY-2023' }]],
    ['second quarter of fiscal 2023', [], [{ quarter: 2, year: 'FY-2023' }]],
    [
      "2Q23 against Q3'23",
      [],
      [
        { quarter: 2, year: 'FY-2023' },
        { quarter: 3, year: 'FY-2023' },
      ],
    ],
    ['FY2024 Q1 net sales against fiscal 2023', ['FY-2023'], [{ quarter: 1, year: 'FY-2024' }]],
    ['first fiscal quarter of 2024', [], [{ quarter: 1, year: 'FY-2024' }]],
    ['Q2 10-Q filing', [], [{ quarter: 2, year: null }]],
    // A 10-Q reports the year to date: a half is the second quarter's filing, nine months the third's.
    ['cash from operations in the first half of fiscal 2023', [], [{ quarter: 2, year: 'FY-2023' }]],
    [
      'H1 2023 against 1H22',
      [],
      [
        { quarter: 2, year: 'FY-2022' },
        { quarter: 2, year: 'FY-2023' },
      ],
    ],
    ['net sales for the first nine months of 2022', [], [{ quarter: 3, year: 'FY-2022' }]],
    ['the first six months', [], [{ quarter: 2, year: null }]],
    ['net sales in FY23 vs fiscal year 2022', ['FY-2022', 'FY-2023'], []],
    ['$2,019 million of debt in 2019', ['FY-2019'], []],
  ])('reads %s', (q, years, quarters) => {
    const p = findPeriods(q);
    expect(p.years).toEqual(years);
    expect(p.quarters).toEqual(quarters);
  });

  it('writes its quarter words as the analyzer writes query terms', () => {
    for (const w of QUARTER_WORDS) expect(tokenize(w)).toEqual([w]);
  });

  it('reads dates without taking their calendar year for a fiscal year', () => {
    for (const q of ['quarter ended December 30, 2023', 'as of 2023-12-30', 'on 12/30/2023']) {
      expect(findPeriods(q)).toEqual({ years: [], quarters: [], dates: ['2023-12-30'] });
    }
    expect(findPeriods('February 30, 2023').dates).toEqual([]);
  });
});

describe('findItemHints', () => {
  it.each([
    ['What are the main risk factors?', ['10K-Item-1A', '10Q-PartII-Item-1A']],
    ['cash flow in the MD&A', ['10K-Item-7', '10Q-PartI-Item-2']],
    ["management's discussion and analysis", ['10K-Item-7', '10Q-PartI-Item-2']],
    ['pending legal proceedings', ['10K-Item-3', '10Q-PartII-Item-1']],
    ['executive compensation of the CEO', ['10K-Item-11']],
    ['interest rate market risk', ['10K-Item-7A', '10Q-PartI-Item-3']],
    ['the cash flow statement', ['10K-Item-8', '10Q-PartI-Item-1']],
    ['see Item 7A', ['10K-Item-7A']],
    ['Part II, Item 1A of the 10-Q', ['10Q-PartII-Item-1A']],
  ])('%s -> %j', (q, tags) => {
    expect(findItemHints(q).flatMap((h) => h.tags)).toEqual(tags);
  });

  it('finds nothing in a plain figure question', () => {
    expect(findItemHints('What were purchases of property, plant and equipment in 2023?')).toEqual([]);
  });
});

describe('inferFilters', () => {
  it('infers the company by name, by ticker in capitals and by "$" ticker, never from lower-case words', () => {
    expect(infer("What is Arbelion's rate base?").filters).toEqual({ sec_ticker: ['ARBL'] });
    expect(infer('Compare CHPX and Foodgrove Brands margins').filters).toEqual({ sec_ticker: ['CHPX', 'FDGR'] });
    expect(infer('what did $chpx report').filters).toEqual({ sec_ticker: ['CHPX'] });
    expect(infer('arbl chpx in lower case').filters).toEqual({});
    // A capital inside a word marks a name: a ticker written in mixed case counts, an unknown one warns of nothing.
    expect(infer("Did ChpX raise ChpX's dividend?").filters).toEqual({ sec_ticker: ['CHPX'] });
    expect(infer('Chpx and QnTm in 2023').codes).toEqual([]);
  });

  it('warns about a ticker-like word that names no indexed company, but not about common acronyms', () => {
    const r = infer('What were QNTM purchases of PP&E under GAAP, per the MD&A, in FY2023?');
    expect(r.codes).toEqual(['COMPANY_NOT_IN_INDEX']);
    expect(r.notices[0]!.message).toContain('"QNTM"');
    expect(r.filters).toEqual({ sec_fiscal_year: ['FY-2023'] });
    expect(infer('HOW DID ARBELION DO IN 2022').codes).toEqual([]); // a question in capitals says nothing by its case
    expect(infer('Chipperfield XPU segment revenue').codes).toEqual([]); // a named company's segment, not a ticker
    expect(infer('JP Morgan LT debt').codes).toEqual([]); // two-letter abbreviations are too ambiguous to warn about
  });

  it('turns a quarter into the fiscal year and form 10-Q, and prefers the quarter without filtering on it', () => {
    const r = infer('Chipperfield net sales in Q1 2024');
    expect(r.filters).toEqual({ sec_ticker: ['CHPX'], sec_fiscal_year: ['FY-2024'], sec_form_type: '10-Q' });
    expect(r.preference).toMatchObject({ filings: ['CHPX_2024_Q1'], itemTags: null });
    expect(infer('Foodgrove results for the third quarter of fiscal 2023').filters).toEqual({
      sec_ticker: ['FDGR'],
      sec_fiscal_year: ['FY-2023'],
      sec_form_type: '10-Q',
    });
  });

  it(`reads a quarter of a non-calendar fiscal year both ways: fiscal Q1 2024 and calendar Q4 2023 are the same \
10-Q`, () => {
    const q4 = infer('Chipperfield Q4 2023 10-Q');
    expect(q4.filters).toEqual({
      sec_ticker: ['CHPX'],
      sec_fiscal_year: ['FY-2023', 'FY-2024'],
      sec_form_type: '10-Q',
    });
    expect(q4.preference?.filings).toEqual(['CHPX_2024_Q1']);
    // No reading of "Q3 2023" is a Chipperfield 10-Q: a warning, and the 10-Q form gives way.
    const calendar = infer('Chipperfield third quarter of 2023 quarterly report');
    expect(calendar.codes).toEqual(['PERIOD_NOT_IN_INDEX', 'INFERRED_FILTER_DROPPED']);
    const latest = infer("Chipperfield's latest 10-Q gross margin");
    expect(latest.filters).toEqual({ sec_ticker: ['CHPX'], sec_fiscal_year: ['FY-2024'], sec_form_type: '10-Q' });
    expect(latest.preference?.filings).toEqual(['CHPX_2024_Q1']);
  });

  it(`resolves a date to the fiscal year of the filing that ends on it (a September year's December quarter is the \
next FY)`, () => {
    const r = infer('CHPX revenue for the quarter ended December 30, 2023');
    expect(r.filters).toEqual({ sec_ticker: ['CHPX'], sec_fiscal_year: ['FY-2024'], sec_form_type: '10-Q' });
    expect(r.preference?.filings).toEqual(['CHPX_2024_Q1']);
  });

  it('treats the fourth quarter as part of the annual report: no form, no preference', () => {
    const r = infer('Arbelion fourth quarter 2022 revenue');
    expect(r.filters).toEqual({ sec_ticker: ['ARBL'], sec_fiscal_year: ['FY-2022'] });
    expect(r.preference).toBeNull();
  });

  it(`infers the form from "annual report", "10-K", "quarterly report" and "10-Q", and none when both are \
named`, () => {
    expect(infer('Arbelion annual report 2022').filters).toMatchObject({ sec_form_type: '10-K' });
    expect(infer('in its 10-Q').filters).toEqual({ sec_form_type: '10-Q' });
    expect(infer('Foodgrove quarterly report').filters).toMatchObject({ sec_form_type: '10-Q' });
    expect(infer('10-K versus 10-Q').filters).toEqual({});
  });

  it('reads "10-Qs" and questions about several quarters as form 10-Q, a single quarter or year as no form', () => {
    for (const q of [
      'Foodgrove liquidity changes as reported in these 10-Qs',
      'How has Foodgrove gross margin changed over the reported quarters?',
      'Foodgrove revenue across quarters',
      'Foodgrove segment revenue quarter to quarter',
      'Foodgrove inventory levels during the past quarters',
    ]) {
      expect(infer(q).filters, q).toEqual({ sec_ticker: ['FDGR'], sec_form_type: '10-Q' });
    }
    expect(infer('Foodgrove revenue in the quarter and the year').filters).toEqual({ sec_ticker: ['FDGR'] });
    expect(infer('Foodgrove headquarters lease').filters).toEqual({ sec_ticker: ['FDGR'] });
  });

  it('admits the year before a forward-looking year, where the outlook was stated, and no 10-Q form for it', () => {
    expect(infer('What capital expenditures does Chipperfield anticipate for fiscal 2024?').filters).toEqual({
      sec_ticker: ['CHPX'],
      sec_fiscal_year: ['FY-2023', 'FY-2024'],
    });
    const quarter = infer('What does Arbelion expect for the second quarter of fiscal 2024?');
    expect(quarter.filters).toEqual({ sec_ticker: ['ARBL'], sec_fiscal_year: ['FY-2023', 'FY-2024'] });
    expect(quarter.codes).toContain('FILTER_VALUE_UNMATCHED'); // Arbelion has nothing for FY2024 yet
  });

  it('makes item hints a ranking preference restricted to items in the index, never a filter', () => {
    const r = infer('What did Chipperfield say about liquidity in the MD&A?');
    expect(r.filters).toEqual({ sec_ticker: ['CHPX'] });
    expect(r.preference).toMatchObject({ itemTags: ['10K-Item-7', '10Q-PartI-Item-2'], filings: null });
    expect(infer('Arbelion executive compensation').preference).toBeNull(); // Arbelion has no Item 11 in the index
    expect(infer('Chipperfield executive compensation').preference?.itemTags).toEqual(['10K-Item-11']);
  });

  it(`infers sectors only with a cue word, multi-word sub-industries alone, and neither when a company is \
named`, () => {
    expect(infer('What do semiconductor companies say about export controls?').filters).toEqual({
      sec_gics_sub_industry: ['Semiconductors'],
    });
    expect(infer('storm costs at electric utilities').filters).toEqual({
      sec_gics_sub_industry: ['Electric Utilities'],
    });
    expect(infer('utilities sector capital plans').filters).toEqual({ sec_gics_sector: ['Utilities'] });
    expect(infer('packaged foods and meats pricing').filters).toEqual({
      sec_gics_sub_industry: ['Packaged Foods & Meats'],
    });
    expect(infer('how do semiconductors age').filters).toEqual({});
    expect(infer('Chipperfield versus other utilities companies').filters).toEqual({ sec_ticker: ['CHPX'] });
  });

  it('never infers a field the caller filtered, so it cannot contradict the caller', () => {
    const caller: Condition[] = [
      { field: 'sec_ticker', op: 'eq', values: ['FDGR'] },
      { field: 'sec_fiscal_year', op: 'neq', values: ['FY-2023'] },
    ];
    const r = infer('Arbelion FY2023 annual report risk factors', caller);
    expect(r.filters).toEqual({ sec_form_type: '10-K' });
    expect(
      infer('MD&A of Chipperfield', [{ field: 'sec_item_tag', op: 'eq', values: ['10K-Item-8'] }]).preference,
    ).toBeNull();
  });

  it(`widens a named fiscal year to the next two 10-Ks in scope (soft periods), never for quarters or caller-fixed \
fields`, () => {
    const widened = (q: string, caller: Condition[] = []) => {
      const w = inferFilters(analyzeQuestion(q, CATALOG), CATALOG, caller).widened;
      return w && { years: w.years, filters: conditionsToObject(w.conditions) };
    };
    // ARBL files 10-Ks for FY2021-FY2023: 2021 is restated by both later ones, 2022 by one, 2023 by none.
    expect(widened('What was Arbelion Power capital expenditure in 2021?')).toEqual({
      years: ['FY-2022', 'FY-2023'],
      filters: { sec_ticker: ['ARBL'], sec_fiscal_year: ['FY-2022', 'FY-2023'], sec_form_type: '10-K' },
    });
    expect(widened('Arbelion Power rate base in fiscal 2022')?.years).toEqual(['FY-2023']);
    expect(widened('Arbelion Power rate base in fiscal 2023')).toBeNull();
    expect(widened('Arbelion Power 10-K for 2021')?.years).toEqual(['FY-2022', 'FY-2023']);
    expect(widened('CHPX revenue in Q1 2024')).toBeNull(); // a quarter names one filing
    expect(
      widened('Arbelion Power capex in 2021', [{ field: 'sec_form_type', op: 'eq', values: ['10-K'] }]),
    ).toBeNull();
    expect(
      widened('Arbelion Power capex in 2021', [{ field: 'sec_fiscal_year', op: 'eq', values: ['FY-2021'] }]),
    ).toBeNull();
    expect(widened('Arbelion Power capital expenditure')).toBeNull(); // no year named
  });

  it(`warns when a named period is not in the index and substitutes the next years that report it as a \
comparative`, () => {
    const gone = infer('Arbelion revenue in FY2031');
    expect(gone.filters).toEqual({ sec_ticker: ['ARBL'] });
    expect(gone.codes).toEqual(['PERIOD_NOT_IN_INDEX']);
    const early = infer('Arbelion revenue in 2020');
    expect(early.filters).toEqual({ sec_ticker: ['ARBL'], sec_fiscal_year: ['FY-2021', 'FY-2022'] });
    expect(early.codes).toEqual(['PERIOD_SUBSTITUTED']);
  });

  it('relaxes inferred filters that leave no filing for the named company, with a warning', () => {
    const noQuarterly = infer('Arbelion 10-Q for Q2 2023');
    expect(noQuarterly.filters).toEqual({ sec_ticker: ['ARBL'], sec_fiscal_year: ['FY-2023'] });
    expect(noQuarterly.codes).toEqual(['PERIOD_NOT_IN_INDEX', 'INFERRED_FILTER_DROPPED']);
    // FY2021 exists in the index (Arbelion) but not for Foodgrove: its next years stand in.
    const foodgrove = infer('Foodgrove gross margin in fiscal 2021');
    expect(foodgrove.filters).toEqual({ sec_ticker: ['FDGR'], sec_fiscal_year: ['FY-2023'] });
    expect(foodgrove.codes).toEqual(['PERIOD_SUBSTITUTED']);
  });

  it('says which named company has no filing for the named period when another one has', () => {
    const r = infer('Compare Arbelion and Chipperfield in FY2021');
    expect(r.filters).toEqual({ sec_ticker: ['ARBL', 'CHPX'], sec_fiscal_year: ['FY-2021'] });
    expect(r.codes).toEqual(['FILTER_VALUE_UNMATCHED']);
    expect(r.notices[0]!.message).toContain('sec_ticker=CHPX');
  });

  it('says when the caller filters alone match nothing', () => {
    expect(infer('revenue', [{ field: 'sec_ticker', op: 'eq', values: ['ZZZZ'] }]).codes).toEqual([
      'FILTERS_MATCH_NOTHING',
    ]);
  });
});

describe('withoutSharedAliases', () => {
  it('drops an alias two companies share, keeps each full name, and leaves the others alone', () => {
    const companies = [
      { ticker: 'JNJ', aliases: companyAliases('Johnson & Johnson', 'JNJ') },
      { ticker: 'JCI', aliases: companyAliases('Johnson Controls International plc', 'JCI') },
      { ticker: 'PFE', aliases: companyAliases('Pfizer Inc.', 'PFE') },
    ];
    expect(companies[1]!.aliases).toContain('johnson'); // what the first-word rule gives alone
    const out = withoutSharedAliases(companies);
    expect(out.flatMap((c) => c.aliases)).not.toContain('johnson');
    expect(out[1]!.aliases).toContain('johnson controls international');
    expect(out[2]).toBe(companies[2]); // untouched
    expect(out[2]!.aliases).toContain('pfizer');
  });
});

describe('latestAnnualSources', () => {
  // The filings (doc ids) of the sources a question that names no period searches first.
  const latest = (q: string, conditions: Condition[] = []) => [
    ...new Set(
      latestAnnualSources(analyzeQuestion(q, CATALOG), CATALOG.sources, conditions).map(
        (i) => CATALOG.sources[i]!.doc_id,
      ),
    ),
  ];

  it("is each named company's newest 10-K, every item of it, within the conditions", () => {
    expect(latest('How does Chipperfield describe its competition?')).toEqual(['CHPX_2023_FY']); // not its later 10-Q
    expect(
      latestAnnualSources(
        analyzeQuestion('How does Chipperfield describe its competition?', CATALOG),
        CATALOG.sources,
        [],
      ),
    ).toHaveLength(7);
    expect(latest('Compare Arbelion and Chipperfield on competition')).toEqual(['ARBL_2023_FY', 'CHPX_2023_FY']);
    expect(
      latest('How does Arbelion describe its competition?', [
        { field: 'sec_fiscal_year', op: 'neq', values: ['FY-2023'] },
      ]),
    ).toEqual(['ARBL_2022_FY']);
    // The companies a caller's filter names count as the question's.
    expect(latest('How is competition described?', [{ field: 'sec_ticker', op: 'in', values: ['ARBL'] }])).toEqual([
      'ARBL_2023_FY',
    ]);
  });

  it(`is none when the question names a period, a span of periods or the quarterly form, or no company is named or \
filtered`, () => {
    expect(latest('How did Chipperfield describe its competition in fiscal 2022?')).toEqual([]);
    expect(latest('How has Chipperfield competition evolved?')).toEqual([]);
    expect(latest('What does the Chipperfield 10-Q say about competition?')).toEqual([]);
    // named: inference picks its year
    expect(latest("What does Chipperfield's latest 10-K say about competition?")).toEqual([]);
    expect(latest('How do chip makers describe competition?')).toEqual([]);
    // Filters that leave that report alone leave nothing to rank below it.
    expect(
      latest('How does Arbelion describe its competition?', [
        { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2023'] },
      ]),
    ).toEqual([]);
    expect(
      latest('How does Chipperfield describe its competition?', [
        { field: 'sec_fiscal_year', op: 'eq', values: ['FY-2023', 'FY-2024'] },
      ]),
    ).toEqual(['CHPX_2023_FY']); // and its later 10-Q
  });
});
