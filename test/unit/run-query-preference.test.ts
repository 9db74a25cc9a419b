import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../src/core/run-query';
import { mergePreferred } from '../../src/core/merge';
import type { Mergeable } from '../../src/core/merge';
import { EFFORT_LIMITS, effortLimits } from '../../src/search/effort';
import { RANKING } from '../../src/search/ranking';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../index-format/normalize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';
import { heldSources } from '../../index-format/views';

let sample: Awaited<ReturnType<typeof buildSample>>;
beforeAll(async () => {
  sample = await buildSample();
});
afterAll(() => sample.dispose());

async function ask(body: Record<string, unknown>) {
  const reader = openFileIndex(sample.result.dir);
  const req = ResearchRequest.parse({ mode: 'research', effort: 'medium', ...body });
  return { reader, ...(await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) })) };
}

describe('runQuery: a named quarter gets its own retrieval pass', () => {
  it('searches only the named 10-Q in the preference pass, and ranks its evidence first', async () => {
    // The caller keeps the 10-K of the year before in scope, so the general pass sees both filings.
    const { reader, body, trace } = await ask({
      query: 'Quillvale net sales in Q1 2024',
      metadata_filters: {
        sec_ticker: 'QVLT',
        sec_fiscal_year: ['FY-2023', 'FY-2024'],
        sec_form_type: ['10-K', '10-Q'],
      },
    });
    const tenQ = (await reader.scope(['QVLT'])).sources.filter((s) => s.doc_id === 'QVLT_2024Q1_10Q').length;
    expect(trace.preference?.label).toMatch(/Q1 2024/);
    expect(trace.allowedSources).toBeGreaterThan(tenQ);
    expect(trace.preference?.pass?.allowedSources).toBe(tenQ);
    const first = /<evidence_chain\b[\s\S]*?<\/evidence_chain>/.exec(body.evidence ?? '')?.[0] ?? '';
    expect(first).toMatch(/sources='QVLT-10Q-FY2024Q1-/);
    expect(first).not.toMatch(/QVLT-10K-/);
  });
});

describe('runQuery: the words of a named quarter', () => {
  it(`count as held by the statements of the 10-Q that reports it, in basic mode too; the years stay terms, and a \
question naming no quarter has no credit`, async () => {
    const query = 'How much cash did Quillvale have at the end of the first half of fiscal 2024?';
    for (const mode of ['basic', 'research']) {
      const { reader, trace } = await ask({ mode, query });
      const { sources } = await reader.scope(['QVLT']);
      const tenQ = heldSources(sources).filter((i) => sources[i]!.doc_id === 'QVLT_2024Q1_10Q');
      // The first half of fiscal 2024 is reported by a second-quarter 10-Q, which the sample does not hold: nothing
      // is credited. Its first-quarter 10-Q is the filing of the first quarter.
      expect(
        trace.plan.passes.some((p) => p.lexical.periodCredit),
        mode,
      ).toBe(false);
      const q1 = await ask({ mode, query: query.replace('first half', 'first quarter') });
      const credited = q1.trace.plan.passes.filter((p) => p.lexical.periodCredit);
      expect(credited.length, mode).toBeGreaterThan(0);
      for (const p of credited) {
        expect(p.lexical.periodCredit).toEqual({ terms: ['first', 'quarter'], sources: tenQ });
        expect(p.lexical.terms).toEqual(expect.arrayContaining(['2024', 'fy2024']));
      }
    }
    const noQuarter = await ask({ query: 'How much cash did Quillvale have at the end of fiscal 2024?' });
    expect(noQuarter.trace.plan.passes.some((p) => p.lexical.periodCredit)).toBe(false);
  });
});

describe('runQuery: a financial statement the question names', () => {
  it('prefers the rows printed on that statement over the same figure elsewhere', async () => {
    const { body, trace } = await ask({
      query: 'From the balance sheet, how much cash did Quillvale hold at the end of fiscal 2023?',
    });
    expect(trace.analysis.statements).toEqual({ list: ['balance_sheet'], named: true });
    expect(trace.preference?.label).toMatch(/rows of the balance sheet/);
    // The cash-flow statement's closing cash row and MD&A's liquidity sentences state cash too; the balance sheet's
    // rows (two columns, the fiscal year ends: balances at a date, not the income statement's year spans) lead, its
    // cash row among the first three chains.
    const chains = (body.evidence ?? '').match(/<evidence_chain\b[\s\S]*?<\/evidence_chain>/g) ?? [];
    const balanceSheetRow = /^<consensus>[^<:]+: [\d,]+ for September 30, 2023 \| [\d,]+ for September 24, 2022 \(USD /;
    for (const chain of chains.slice(0, 3)) expect(/<consensus>[^<]*/.exec(chain)![0]).toMatch(balanceSheetRow);
    expect(chains.slice(0, 3).join('')).toMatch(/<consensus>Cash and cash equivalents: 1,284 for September 30, 2023/);
    // The explain trace names the bonus the named statement gave the leading chain.
    expect(trace.explain?.[0]?.preference).toBe(RANKING.namedStatementBonus);
  });

  it("infers the statements of a ratio's inputs, and none for a plain lookup", async () => {
    const ratio = await ask({ query: "What was Quillvale's gross margin percentage in fiscal 2023?" });
    expect(ratio.trace.analysis.statements).toEqual({ list: ['income_statement'], named: false });
    const lookup = await ask({ query: "What were Quillvale's net sales in fiscal 2023?" });
    expect(lookup.trace.analysis.statements).toEqual({ list: [], named: false });
    expect(lookup.trace.preference).toBeUndefined();
  });
});

describe('runQuery: soft periods', () => {
  it(`searches the later 10-Ks that restate a named year too, ranks them below it, and never widens a caller \
filter`, async () => {
    const { body, trace } = await ask({ query: 'Quillvale cost of sales in fiscal 2022' });
    expect(trace.widened?.years).toEqual(['FY-2023']);
    expect(trace.widened?.pass.allowedSources).toBeGreaterThan(0);
    expect(body.notices?.map((n) => n.code)).toContain('PERIOD_WIDENED');
    // still the named year
    expect(body.summary?.applied_metadata_filters).toMatchObject({ sec_fiscal_year: ['FY-2022'] });
    const first = /<evidence_chain\b[\s\S]*?<\/evidence_chain>/.exec(body.evidence ?? '')?.[0] ?? '';
    expect(first).toMatch(/sources='QVLT-10K-FY2022-/);

    const strict = await ask({
      query: 'Quillvale cost of sales in fiscal 2022',
      metadata_filters: { sec_fiscal_year: 'FY-2022' },
    });
    expect(strict.trace.widened).toBeUndefined();
    expect(strict.body.evidence).not.toMatch(/FY2023/);
  });
});

describe('runQuery: a question that names no period', () => {
  it.each(['research', 'basic'])(
    'searches the latest annual report first and cites it for what the filings repeat (%s mode)',
    async (mode) => {
      // Both of Quillvale's 10-Ks say so in the same words; the question is about the company now.
      const { body, trace } = await ask({ mode, query: "Is Quillvale's industry cyclical?" });
      expect(trace.analysis.current).toBe(true);
      expect(trace.passes.map((p) => `${p.purpose}:${p.merge}`).slice(0, 2)).toEqual([
        'latest:first',
        `${mode === 'basic' ? 'route' : 'question'}:below`,
      ]);
      expect(trace.passes[0]!.searchedShards).toEqual(['QVLT-FY2023']);
      const first = /<evidence_chain\b[\s\S]*?<\/evidence_chain>/.exec(body.evidence ?? '')?.[0] ?? '';
      expect(first).toMatch(/<consensus>The semiconductor industry is cyclical\.<\/consensus>/);
      expect(first).toMatch(/sources='QVLT-10K-FY2023-/);
      expect(first).not.toMatch(/sources='QVLT-10K-FY2022-/);
      // Research says so; basic mode adds no notice for its priors.
      expect((body.notices ?? []).some((n) => n.code === 'LATEST_FILING_PREFERRED')).toBe(mode === 'research');
    },
  );

  it('keeps to the year a question names', async () => {
    const { body, trace } = await ask({ query: "Was Quillvale's industry cyclical in fiscal 2022?" });
    expect(trace.analysis.current).toBe(false);
    expect(trace.passes.map((p) => p.purpose)).not.toContain('latest');
    expect(/<evidence_chain\b[\s\S]*?<\/evidence_chain>/.exec(body.evidence ?? '')?.[0]).toMatch(
      /sources='QVLT-10K-FY2022-/,
    );
  });
});

describe('runQuery: basic mode', () => {
  it(`routes to the named company and takes one pass per line item a ratio needs, still applying no \
filter`, async () => {
    const { body } = await ask({ mode: 'basic', query: 'What was the working capital of Quillvale in fiscal 2023?' });
    expect(body.summary?.applied_metadata_filters).toBeUndefined();
    const evidence = body.evidence ?? '';
    expect(evidence).toMatch(/<consensus>[^<]*[Tt]otal current assets/);
    expect(evidence).toMatch(/<consensus>[^<]*[Tt]otal current liabilities/);
  });
});

describe('mergePreferred', () => {
  const chain = (relevance: number, text: string): Mergeable => ({ relevance, score: relevance, claims: [text] });
  it('lets a preferred chain win a near-tie, and a clearly better general chain still lead', () => {
    const order = (pref: number, gen: number) =>
      mergePreferred([chain(pref, 'named quarter')], [chain(gen, 'other filing')], EFFORT_LIMITS.medium.maxChains).map(
        (c) => c.claims[0],
      );
    expect(order(8, 9)).toEqual(['named quarter', 'other filing']);
    expect(order(7, 9)).toEqual(['other filing', 'named quarter']);
  });

  it("keeps the bonus a chain earned from its own pass's preference when passes merge", () => {
    // The named year's chain (7, +1 as the preferred side) against a later 10-K's statement row that earned 3.
    const merged = mergePreferred(
      [chain(7, 'named year')],
      [{ ...chain(6, 'statement row'), earned: 3 }],
      EFFORT_LIMITS.medium.maxChains,
    );
    expect(merged.map((c) => c.claims[0])).toEqual(['statement row', 'named year']);
    const unearned = mergePreferred(
      [chain(7, 'named year')],
      [chain(6, 'statement row')],
      EFFORT_LIMITS.medium.maxChains,
    );
    expect(unearned.map((c) => c.claims[0])).toEqual(['named year', 'statement row']);
  });
});

describe('effortLimits: how many chains, how deep, by effort and question shape', () => {
  it(`gives medium lookups and ratios more, shorter chains; trends, comparisons and descriptive questions stay \
deep`, () => {
    for (const shape of ['lookup', 'ratio'] as const) {
      expect(effortLimits('medium', shape)).toEqual({ ...EFFORT_LIMITS.medium, maxChains: 16, entriesPerChain: 2 });
    }
    for (const shape of ['trend', 'comparison', 'descriptive'] as const)
      expect(effortLimits('medium', shape)).toEqual(EFFORT_LIMITS.medium);
    for (const effort of ['low', 'high'] as const)
      expect(effortLimits(effort, 'lookup')).toEqual(EFFORT_LIMITS[effort]);
  });

  it('runs the request with the plan of its shape, and the trace says which', async () => {
    const lookup = await ask({ query: 'Quillvale net sales in fiscal 2023' });
    expect(lookup.trace.analysis.shape).toBe('lookup');
    expect(lookup.trace.plan.effort).toEqual(effortLimits('medium', 'lookup'));
    expect(lookup.body.evidence_budget?.available_evidence_count).toBeLessThanOrEqual(16);
    const trend = await ask({ query: 'How did Quillvale net sales change from fiscal 2022 to fiscal 2023?' });
    expect(trend.trace.analysis.shape).toBe('trend');
    expect(trend.trace.plan.effort).toEqual(EFFORT_LIMITS.medium);
  });
});

describe('runQuery: a statement is shown once', () => {
  it(`prints no statement twice when merged passes both found it (line-item facets of a ratio, agentic \
requirements)`, async () => {
    for (const mode of ['research', 'agentic_research'] as const) {
      for (const query of [
        'What was the gross margin percentage of Quillvale in fiscal 2023?',
        'Compare Quillvale and Zenharrow net sales and operating income in 2023',
      ]) {
        const { body } = await ask({ query, mode });
        const consensus = [...(body.evidence ?? '').matchAll(/<consensus>([\s\S]*?)<\/consensus>/g)].map((m) => m[1]);
        expect(consensus.length).toBeGreaterThan(0);
        expect(new Set(consensus).size).toBe(consensus.length);
      }
    }
  });
});
