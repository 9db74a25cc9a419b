import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchResponse } from '../../src/schema/response';
import { exports } from 'cloudflare:workers';
import { API_KEY, call, query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

function expectEnvelope(json: any, status: number, code: string) {
  expect(json.status_code).toBe(status);
  expect(typeof json.message).toBe('string');
  expect(json.detail.code).toBe(code);
  expect(JSON.stringify(json)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
}

describe('POST /v2/sp500/query', () => {
  it('answers a body with only a query in basic mode at medium effort with the five default fields (rule 1)', async () => {
    const { status, json, headers } = await query({ query: 'purchases of property, plant and equipment' });
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual(['evidence', 'evidence_budget', 'evidence_instructions', 'request_id', 'summary']);
    expect(ResearchResponse.safeParse(json).success).toBe(true);
    expect(headers.get('x-request-id')).toBe(json.request_id);
    expect(json.summary).toMatchObject({ domain: 'sp500', mode: 'basic', effort: 'medium' });
    expect(json.summary.evidence_count).toBeGreaterThan(0);
  });

  it('renders the source registry, chains and the source_key footer from a real search of the sample index', async () => {
    const { json } = await query({ query: 'purchases of property, plant and equipment' });
    const evidence: string = json.evidence;
    expect(evidence.startsWith('<source_registry>\n<source id="')).toBe(true);
    expect(evidence).toMatch(/<evidence_chain relevance_score="(10|\d)">/);
    expect(evidence).toMatch(/<entry confidence_score='(High|Medium|Low)' sources='[^']+'>/);
    expect(evidence.trimEnd().endsWith('</source_key>')).toBe(true);
    expect(evidence.toLowerCase()).toContain('property, plant and equipment');
    // Every cited id is registered, and every registered source is cited.
    const registered = [...evidence.matchAll(/<source id="([^"]+)"/g)].map((m) => m[1]);
    const cited = new Set([...evidence.matchAll(/sources='([^']+)'/g)].flatMap((m) => m[1]!.split(', ')));
    expect(new Set(registered)).toEqual(cited);
  });

  it('gives the same evidence without the footer in xml format', async () => {
    const rendered = (await query({ query: 'risk factors supply chain', include: { evidence_format: 'rendered' } })).json.evidence as string;
    const xml = (await query({ query: 'risk factors supply chain', include: { evidence_format: 'xml' } })).json.evidence as string;
    expect(xml).not.toContain('<source_key>');
    expect(rendered.startsWith(xml)).toBe(true);
  });

  it('never exceeds max_evidence_tokens and keeps only complete chains', async () => {
    for (const cap of [1, 200, 600, 1500]) {
      const { json } = await query({ query: 'net sales gross margin', retrieval: { max_evidence_tokens: cap } });
      expect(json.evidence_budget.requested_max_tokens).toBe(cap);
      expect(json.evidence_budget.estimated_tokens).toBeLessThanOrEqual(cap);
      if (json.evidence) {
        expect(Math.ceil(json.evidence.length / 4)).toBe(json.evidence_budget.estimated_tokens);
        const opens = json.evidence.match(/<evidence_chain /g)?.length ?? 0;
        expect(json.evidence.match(/<\/evidence_chain>/g)?.length ?? 0).toBe(opens);
        expect(opens).toBe(json.evidence_budget.returned_evidence_count);
      } else {
        expect(json.evidence_instructions).toBeUndefined();
      }
    }
  });

  it('infers company and fiscal-year filters in research mode and reports them', async () => {
    const { json } = await query({ query: 'What were QNTM purchases of property, plant and equipment in FY2023?', mode: 'research' });
    expect(json.summary.applied_metadata_filters).toBeDefined();
  });

  it('returns coverage and a retrieval plan in agentic_research mode (rule 4)', async () => {
    const { status, json } = await query({ query: 'How did revenue change?', mode: 'agentic_research' });
    expect(status).toBe(200);
    expect(json.coverage.status).toBeDefined();
    expect(json.retrieval_plan.queries.length).toBeGreaterThan(0);
    expect(ResearchResponse.safeParse(json).success).toBe(true);
  });

  it('rejects metadata_filters in basic mode with 422 (rule 5)', async () => {
    const { status, json } = await query({ query: 'x revenue', metadata_filters: { sec_form_type: '10-K' } });
    expect(status).toBe(422);
    expectEnvelope(json, 422, 'FILTERS_NOT_ALLOWED_IN_BASIC_MODE');
  });

  it('rejects the legacy filters key with 422', async () => {
    const { status, json } = await query({ query: 'revenue', filters: {} });
    expect(status).toBe(422);
    expectEnvelope(json, 422, 'LEGACY_FILTERS_KEY');
  });

  it('rejects unknown keys and malformed JSON with 422', async () => {
    expectEnvelope((await query({ query: 'revenue', extra: 1 })).json, 422, 'VALIDATION_ERROR');
    expectEnvelope((await query('{"query": ')).json, 422, 'MALFORMED_JSON');
  });

  it('rejects a body over 65,536 bytes with 413', async () => {
    const { status, json } = await query({ query: 'a'.repeat(70_000) });
    expect(status).toBe(413);
    expectEnvelope(json, 413, 'BODY_TOO_LARGE');
  });

  it('answers 401 in the envelope for a missing or wrong key, with one message for both', async () => {
    const missing = await query({ query: 'revenue' }, null);
    const wrong = await query({ query: 'revenue' }, 'not-the-key');
    expect(missing.status).toBe(401);
    expect(wrong.status).toBe(401);
    expectEnvelope(missing.json, 401, 'UNAUTHORIZED');
    expect(wrong.json.message).toBe(missing.json.message);
  });

  it('answers 404 in the envelope for an unknown domain and an unknown route', async () => {
    const res = await exports.default.fetch(
      new Request('https://evidence.test/v2/nasdaq/query', { method: 'POST', headers: { 'x-api-key': API_KEY }, body: '{"query":"x"}' }),
    );
    expectEnvelope(await res.json(), 404, 'UNKNOWN_DOMAIN');
    const other = await call('/nothing-here');
    expectEnvelope(await other.json(), 404, 'NOT_FOUND');
  });
});

describe('GET /v2/sp500/metadata-filters', () => {
  it('lists the eight filter fields with values from the published index', async () => {
    const res = await call('/metadata-filters?include_values=true');
    expect(res.status).toBe(200);
    const json: any = await res.json();
    expect(json.domain).toBe('sp500');
    expect(json.fields.map((f: any) => f.name)).toEqual([
      'report_filing_date', 'sec_fiscal_year', 'sec_fiscal_year_end', 'sec_form_type',
      'sec_gics_sector', 'sec_gics_sub_industry', 'sec_item_tag', 'sec_ticker',
    ]);
    const tickers = json.fields.find((f: any) => f.name === 'sec_ticker').allowed_values.map((v: any) => v.value);
    expect(tickers.length).toBeGreaterThanOrEqual(3);
  });

  it('requires the API key', async () => {
    const res = await call('/metadata-filters', { key: null });
    expect(res.status).toBe(401);
  });
});
