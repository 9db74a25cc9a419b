// The pass plan of each mode (src/plan/passes.ts), pinned, and runQuery's trace of it on the sample index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/core/run-query';
import type { Condition } from '../../src/filters/parse';
import type { Facet } from '../../src/plan/facets';
import { planPasses, type PassInput } from '../../src/plan/passes';
import { ResearchRequest } from '../../src/schema/request';
import { lexicalQuery } from '../../src/question/terms';
import { normalizeQuery } from '../../index-format/normalize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';

const TICKER: Condition = { field: 'sec_ticker', op: 'in', values: ['ARBL'] };
const YEAR: Condition = { field: 'sec_fiscal_year', op: 'in', values: ['FY-2022'] };
const LATER: Condition[] = [
  TICKER,
  { field: 'sec_fiscal_year', op: 'in', values: ['FY-2023', 'FY-2024'] },
  { field: 'sec_form_type', op: 'eq', values: ['10-K'] },
];
const facet = (id: string, sources?: number[]): Facet => ({
  id,
  query: `${id} fy2022`,
  ...(sources ? { sources: new Set(sources) } : {}),
  covers: { metric: 0 },
});
const input = (over: Partial<PassInput>): PassInput => ({
  mode: 'research',
  analysis: { text: 'q', lexical: { terms: ['q'], metrics: [] } },
  conditions: [],
  callerConditions: [],
  basicRoute: [],
  widened: null,
  latest: [],
  facets: [],
  requirements: { decomposed: false, requirements: [], omitted: [] },
  ...over,
});
const shape = (passes: ReturnType<typeof planPasses>) => passes.map((p) => `${p.id}:${p.purpose}:${p.merge}`);

describe('planPasses', () => {
  it('basic: the named filings first, the whole index when they leave room, then one pass per line item there', () => {
    expect(shape(planPasses(input({ mode: 'basic' })))).toEqual(['question:question:first']);
    const routed = planPasses(
      input({
        mode: 'basic',
        basicRoute: [TICKER, YEAR],
        facets: [facet('current_assets'), facet('current_liabilities')],
      }),
    );
    expect(shape(routed)).toEqual([
      'route:route:first',
      'fill:fill:fill',
      'current_assets:line_item:round_robin',
      'current_liabilities:line_item:round_robin',
    ]);
    expect(routed[0]!.conditions).toEqual([TICKER, YEAR]);
    expect(routed[1]!.conditions).toEqual([]);
    expect(routed[2]!.conditions).toEqual([TICKER, YEAR]); // line items within the routed filings
  });

  it('research: the question under its filters, the later 10-Ks below it, then facets (line items or filings)', () => {
    const passes = planPasses(
      input({ conditions: [TICKER, YEAR], widened: { conditions: LATER }, facets: [facet('ARBL_2023_FY', [7, 3, 5])] }),
    );
    expect(shape(passes)).toEqual([
      'question:question:first',
      'later_years:later_years:below',
      'ARBL_2023_FY:filing:round_robin',
    ]);
    expect(passes[1]!.conditions).toEqual(LATER);
    expect(passes[2]!.sources).toEqual([3, 5, 7]);
  });

  it('a question naming no period: the latest annual reports first, every other pass below them', () => {
    const research = planPasses(input({ conditions: [TICKER], latest: [9, 8] }));
    expect(shape(research)).toEqual(['latest:latest:first', 'question:question:below']);
    expect(research[0]!.sources).toEqual([8, 9]);
    expect(research[0]!.conditions).toEqual([TICKER]);
    // Its line items are read from the latest annual reports too; a filing facet keeps its own filing.
    const facets = planPasses(
      input({ conditions: [TICKER], latest: [9, 8], facets: [facet('capex'), facet('ARBL_2023_FY', [7])] }),
    );
    expect(shape(facets)).toEqual([
      'latest:latest:first',
      'question:question:below',
      'capex:line_item:round_robin',
      'ARBL_2023_FY:filing:round_robin',
    ]);
    expect(facets[2]!.sources).toEqual([8, 9]);
    expect(facets[2]!.label).toBe('line item capex, latest annual report');
    expect(facets[3]!.sources).toEqual([7]);
    const basic = planPasses(input({ mode: 'basic', basicRoute: [TICKER], latest: [8] }));
    expect(shape(basic)).toEqual(['latest:latest:first', 'route:route:below', 'fill:fill:fill']);
    expect(basic[0]!.conditions).toEqual([TICKER]);
    const requirements = {
      decomposed: true,
      omitted: [],
      requirements: [{ id: 'R1', label: 'r', query: 'r', conditions: [TICKER] }],
    } as unknown as PassInput['requirements'];
    expect(shape(planPasses(input({ mode: 'agentic_research', requirements, latest: [8] })))).toEqual([
      'R1:requirement:round_robin',
    ]);
  });

  it(`the question passes search with the lexical query of the analysis, focused passes with that of their own \
text`, () => {
    const plan = input({ conditions: [TICKER, YEAR], widened: { conditions: LATER }, facets: [facet('capex')] });
    const passes = planPasses(plan);
    expect(passes[0]!.lexical).toBe(plan.analysis.lexical);
    expect(passes[1]!.lexical).toBe(plan.analysis.lexical);
    expect(passes[2]!.lexical).toEqual(lexicalQuery('capex fy2022'));
  });

  it('research: a caller filter is in every pass, the later-years pass included', () => {
    const caller: Condition = { field: 'report_filing_date', op: 'lte', values: ['2024-03-01'] };
    const passes = planPasses(
      input({ conditions: [caller, TICKER, YEAR], callerConditions: [caller], widened: { conditions: LATER } }),
    );
    for (const p of passes) expect(p.conditions).toContainEqual(caller);
  });

  it(`agentic: one round-robin pass per requirement, labelled for the retrieval plan; undecomposed like \
research`, () => {
    const requirements = {
      decomposed: true,
      omitted: [],
      requirements: [
        {
          id: 'R1',
          label: 'revenue of ARBL in FY2022',
          query: 'Arbelion revenue fiscal 2022',
          conditions: [TICKER],
          sources: new Set([4, 2]),
        },
        { id: 'R2', label: 'revenue of ARBL in FY2023', query: 'Arbelion revenue fiscal 2023', conditions: [TICKER] },
      ],
    } as unknown as PassInput['requirements'];
    const passes = planPasses(input({ mode: 'agentic_research', requirements }));
    expect(shape(passes)).toEqual(['R1:requirement:round_robin', 'R2:requirement:round_robin']);
    expect(passes.map((p) => p.label)).toEqual(['R1: revenue of ARBL in FY2022', 'R2: revenue of ARBL in FY2023']);
    expect(passes[0]!.sources).toEqual([2, 4]);
    expect(shape(planPasses(input({ mode: 'agentic_research', conditions: [YEAR] })))).toEqual([
      'question:question:first',
    ]);
  });
});

describe('runQuery: the trace lists every pass and every shard searched', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  const ask = async (body: Record<string, unknown>) => {
    const reader = openFileIndex(sample.result.dir);
    const req = ResearchRequest.parse({ effort: 'medium', ...body });
    return runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
  };

  it(`research with line items and a named year: question, later years, one pass per item; shards of all of \
them`, async () => {
    const { trace } = await ask({
      mode: 'research',
      query: 'What was the working capital of Quillvale in fiscal 2022?',
    });
    expect(trace.passes.map((p) => p.purpose)).toEqual(['question', 'later_years', 'line_item', 'line_item']);
    const union = new Set(trace.passes.flatMap((p) => [...p.searchedShards, ...(p.preference?.searchedShards ?? [])]));
    expect(new Set(trace.searchedShards)).toEqual(union);
    // FY2023's shard
    expect(trace.passes[1]!.searchedShards.some((s) => !trace.passes[0]!.searchedShards.includes(s))).toBe(true);
    // One analysis per request, in the trace: the plan's line items are its line items.
    expect(trace.analysis.lineItems).toEqual(['current_assets', 'current_liabilities']);
    expect(trace.passes.filter((p) => p.purpose === 'line_item').map((p) => p.id)).toEqual(trace.analysis.lineItems);
  });

  it(`basic: the routed pass, then the whole-index fill, listed as skipped when the routed filings gave enough \
chains`, async () => {
    const { trace } = await ask({ mode: 'basic', query: 'Quillvale net sales in fiscal 2023' });
    expect(trace.passes.map((p) => p.purpose)).toEqual(['route', 'fill']);
    expect(trace.passes[0]!.conditions.map((c) => c.field).sort()).toEqual(['sec_fiscal_year', 'sec_ticker']);
    const fill = trace.passes[1]!;
    expect(fill.conditions).toEqual([]);
    if (fill.skipped) expect(fill.searchedShards).toEqual([]);
    else expect(fill.searchedShards.length).toBeGreaterThan(0);
  });

  it('agentic: retrieval_plan is the pass plan', async () => {
    const { body, trace } = await ask({ mode: 'agentic_research', query: 'Quillvale cost of sales in fiscal 2022' });
    expect(body.retrieval_plan?.queries.map((q) => q.label)).toEqual(trace.passes.map((p) => p.label));
    expect(body.retrieval_plan?.queries[1]?.applied_metadata_filters).toMatchObject({
      sec_fiscal_year: ['FY-2023'],
      sec_form_type: '10-K',
    });
  });
});
