/**
 * agentic_research through the Worker on the sample index: the plan, per-requirement retrieval, and coverage
 * (spec 2.5, 3) under loose and tight token budgets. Every response is checked against the OpenAPI document.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

const TWO_ISSUERS = 'Compare Quillvale and Quarrystone capital expenditures in fiscal 2023';
const agentic = async (q: string, extra: Record<string, unknown> = {}) =>
  (await query({ query: q, mode: 'agentic_research', ...extra })).json;

/** Spec 3's rules, checked on any coverage object against the response it came with. */
function expectConsistent(json: any) {
  const c = json.coverage;
  const reqs: any[] = c.requirements;
  expect(c.requirement_count).toBe(reqs.length);
  expect(c.covered_requirement_count).toBe(reqs.filter((r) => r.status === 'covered').length);
  for (const r of reqs) {
    expect(r.returned_evidence_count).toBeLessThanOrEqual(r.retrieved_evidence_count);
    expect(r.returned_evidence_count).toBeLessThanOrEqual(json.evidence_budget.returned_evidence_count);
    if (r.status === 'covered') expect(r.returned_evidence_count).toBeGreaterThan(0);
    if (r.status === 'omitted_by_budget')
      expect([r.retrieved_evidence_count > 0, r.returned_evidence_count]).toEqual([true, 0]);
    if (r.status === 'missing') expect(r.retrieved_evidence_count).toBe(0);
  }
  const covered = c.covered_requirement_count;
  const expected = covered === 0 ? 'none' : covered === reqs.length && !c.omitted_requirements ? 'complete' : 'partial';
  expect(c.status).toBe(expected);
  const lim: string[] = c.limitations ?? [];
  expect(lim.includes('token_budget')).toBe(reqs.some((r) => r.status === 'omitted_by_budget'));
  expect(lim.includes('missing_evidence')).toBe(reqs.some((r) => r.status === 'missing'));
  expect(lim.includes('requirement_limit')).toBe(!!c.omitted_requirements);
}

describe('agentic_research: decomposition and coverage', () => {
  it('two issuers, no cap: one branch per issuer with its own filters, both covered, complete', async () => {
    const json = await agentic(TWO_ISSUERS, { include: { agent_context: true } });
    expectConsistent(json);
    expect(json.coverage.status).toBe('complete');
    expect(json.coverage.requirements.map((r: any) => [r.label, r.status])).toEqual([
      ['QSEP capital expenditure FY2023', 'covered'],
      ['QVLT capital expenditure FY2023', 'covered'],
    ]);
    expect(json.coverage.limitations).toBeUndefined();
    expect(json.retrieval_plan.queries.map((q: any) => q.applied_metadata_filters)).toEqual([
      { sec_ticker: 'QSEP', sec_fiscal_year: 'FY-2023' },
      { sec_ticker: 'QVLT', sec_fiscal_year: 'FY-2023' },
    ]);
    expect(json.retrieval_plan.queries[0].query).toBe(json.coverage.requirements[0].query);
    // Each issuer's own filing is cited: the evidence holds both companies' sources.
    expect(json.evidence).toContain('QSEP-10K-FY2023');
    expect(json.evidence).toContain('QVLT-10K-FY2023');
    expect(json.agent_context.source_fields).toContain('coverage');
    expect(json.agent_context.text).toContain('## Coverage assessment');
    expect(json.agent_context.text).toContain('R2 (QVLT capital expenditure FY2023): covered');
  });

  it('a cap no chain fits: none, every requirement omitted_by_budget, token_budget, no evidence', async () => {
    const json = await agentic(TWO_ISSUERS, { retrieval: { max_evidence_tokens: 5 } });
    expectConsistent(json);
    expect(json.evidence).toBeUndefined();
    expect(json.coverage.status).toBe('none');
    expect(json.coverage.requirements.map((r: any) => r.status)).toEqual(['omitted_by_budget', 'omitted_by_budget']);
    expect(json.coverage.limitations).toEqual(['token_budget']);
  });

  it(`tight caps: coverage is computed from what was returned, and some cap leaves it partial by the \
budget`, async () => {
    const loose = await agentic(TWO_ISSUERS);
    const full = loose.evidence_budget.estimated_tokens;
    const statuses = new Set<string>();
    for (let cap = 100; cap < full; cap += Math.ceil(full / 25)) {
      const json = await agentic(TWO_ISSUERS, { retrieval: { max_evidence_tokens: cap } });
      expect(json.evidence_budget.estimated_tokens).toBeLessThanOrEqual(cap);
      expectConsistent(json);
      statuses.add(json.coverage.status);
      if (json.coverage.status === 'partial') expect(json.coverage.limitations).toEqual(['token_budget']);
    }
    expect(statuses).toEqual(new Set(['none', 'partial', 'complete']));
  });

  it('an input the filings do not have: partial with missing_evidence', async () => {
    // The sample Quarrystone filings report no share repurchases; Zenharrow's 10-K and 10-Q do.
    const json = await agentic('Compare Zenharrow and Quarrystone share repurchases in 2023');
    expectConsistent(json);
    expect(json.coverage.status).toBe('partial');
    expect(json.coverage.requirements.map((r: any) => [r.label, r.status])).toEqual([
      ['QSEP share repurchases FY2023', 'missing'],
      ['ZNHF share repurchases FY2023', 'covered'],
    ]);
    expect(json.coverage.limitations).toEqual(['missing_evidence']);
  });

  it(`a ratio of two issuers over two years: four planned, the rest omitted with requirement_limit, never \
complete`, async () => {
    const json = await agentic(
      'Compare the operating margin of Quillvale and Zenharrow in fiscal 2023 and fiscal 2022',
    );
    expectConsistent(json);
    expect(json.coverage.requirement_count).toBe(4);
    expect(json.retrieval_plan.queries).toHaveLength(4);
    expect(json.coverage.omitted_requirements).toHaveLength(4);
    expect(json.coverage.limitations).toContain('requirement_limit');
    expect(json.coverage.status).not.toBe('complete');
  });

  it('nothing to decompose: the original question, not_assessed with planning_fallback', async () => {
    const json = await agentic('Quillvale net sales in fiscal 2023');
    expect(json.coverage).toEqual({
      status: 'not_assessed',
      requirement_count: 0,
      covered_requirement_count: 0,
      limitations: ['planning_fallback'],
    });
    expect(json.retrieval_plan.queries).toEqual([
      {
        query: 'Quillvale net sales in fiscal 2023',
        label: 'original question',
        applied_metadata_filters: { sec_ticker: ['QVLT'], sec_fiscal_year: ['FY-2023'] },
      },
    ]);
  });

  it(`max_evidence counts before coverage: a requirement whose chains were cut by the count cap is \
missing`, async () => {
    const json = await agentic(TWO_ISSUERS, { retrieval: { max_evidence: 1 } });
    expectConsistent(json);
    expect(json.coverage.status).toBe('partial');
    expect(json.coverage.requirements.map((r: any) => r.status).sort()).toEqual(['covered', 'missing']);
  });

  it(`a question about change across one issuer's filings: one requirement per filing, each searched in that filing \
only`, async () => {
    const json = await agentic('How have Zenharrow net sales evolved over time?');
    expectConsistent(json);
    expect(json.coverage.requirements.map((r: any) => r.label)).toEqual([
      'ZNHF revenue 10-K FY2023',
      'ZNHF revenue 10-Q FY2023Q3',
      'ZNHF revenue 10-K FY2022',
    ]);
    expect(json.retrieval_plan.queries.map((q: any) => q.applied_metadata_filters)).toEqual([
      { sec_ticker: 'ZNHF', sec_fiscal_year: 'FY-2023', sec_form_type: '10-K' },
      { sec_ticker: 'ZNHF', sec_fiscal_year: 'FY-2023', sec_form_type: '10-Q' },
      { sec_ticker: 'ZNHF', sec_fiscal_year: 'FY-2022', sec_form_type: '10-K' },
    ]);
    // A covered requirement is backed by evidence citing that filing (the 10-Q's ids carry its quarter).
    const covered = json.coverage.requirements.filter((r: any) => r.status === 'covered').map((r: any) => r.label);
    expect(covered.length).toBeGreaterThan(1);
    if (covered.includes('ZNHF revenue 10-Q FY2023Q3')) expect(json.evidence).toContain('ZNHF-10Q-FY2023Q3');
  });
});
