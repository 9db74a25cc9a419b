/**
 * The HTTP contract, one test per rule (spec sections 2, 4, 5, 7, 8, 9; DESIGN.md section 2), against the real
 * Worker in workerd with the sample index in local R2/KV. Every response is also checked against the service's own
 * OpenAPI document by the helpers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FILTER_FIELDS } from '../../index-format/fields';
import { DRAIN_LIMIT_BYTES } from '../../src/http/unread-body';
import { API_KEY, BASE, call, expectConforms, expectEnvelope, get, ORIGIN, query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

const Q = 'purchases of property, plant and equipment';

async function rejects(body: unknown, code: string, status = 422) {
  const { status: got, json } = await query(body);
  expect(got, JSON.stringify(json)).toBe(status);
  expectEnvelope(json, status, code);
  return json;
}

describe('request validation (spec 2.1, 2.3, 2.4, 7)', () => {
  it('strict request: an unknown top-level key is rejected with VALIDATION_ERROR and its path', async () => {
    const json = await rejects({ query: Q, extra: 1 }, 'VALIDATION_ERROR');
    expect(json.detail.errors).toEqual([{ path: '(root)', message: 'unknown key(s): extra' }]);
  });

  it('strict include: an unknown key inside include is rejected', async () => {
    const json = await rejects({ query: Q, include: { evidence_fromat: 'xml' } }, 'VALIDATION_ERROR');
    expect(json.detail.errors[0].path).toBe('include');
  });

  it('strict retrieval: an unsupported key inside retrieval is rejected', async () => {
    const json = await rejects({ query: Q, retrieval: { top_k: 3 } }, 'VALIDATION_ERROR');
    expect(json.detail.errors[0].path).toBe('retrieval');
  });

  it('defaults: a body with only query runs in basic mode at medium effort', async () => {
    const { status, json } = await query({ query: Q });
    expect(status).toBe(200);
    expect(json.summary).toMatchObject({ domain: 'sp500', mode: 'basic', effort: 'medium' });
  });

  it('enums: values outside mode, effort and evidence_format are rejected', async () => {
    for (const body of [
      { mode: 'deep' },
      { effort: 'max' },
      { include: { evidence_format: 'html' } },
      { mode: 'BASIC' },
    ]) {
      const json = await rejects({ query: Q, ...body }, 'VALIDATION_ERROR');
      expect(json.detail.errors.length).toBe(1);
    }
  });

  it(`types: wrong JSON types are rejected field by field (query not a string, include flags not \
booleans)`, async () => {
    await rejects({ query: 42 }, 'VALIDATION_ERROR');
    await rejects({ query: Q, include: { evidence: 'yes' } }, 'VALIDATION_ERROR');
    await rejects({ query: Q, include: null }, 'VALIDATION_ERROR');
    await rejects({ query: Q, metadata_filters: 'sec_ticker=QVLT', mode: 'research' }, 'VALIDATION_ERROR');
  });

  it('the legacy filters key is rejected with LEGACY_FILTERS_KEY, even next to metadata_filters', async () => {
    await rejects({ query: Q, filters: { sec_ticker: 'QVLT' } }, 'LEGACY_FILTERS_KEY');
    await rejects(
      { query: Q, mode: 'research', filters: null, metadata_filters: { sec_ticker: 'QVLT' } },
      'LEGACY_FILTERS_KEY',
    );
  });

  it('basic mode, explicit or default, rejects non-empty metadata_filters; {} and null are accepted', async () => {
    await rejects({ query: Q, metadata_filters: { sec_ticker: 'QVLT' } }, 'FILTERS_NOT_ALLOWED_IN_BASIC_MODE');
    await rejects(
      { query: Q, mode: 'basic', metadata_filters: { sec_ticker: 'QVLT' } },
      'FILTERS_NOT_ALLOWED_IN_BASIC_MODE',
    );
    expect((await query({ query: Q, metadata_filters: {} })).status).toBe(200);
    expect((await query({ query: Q, mode: 'basic', metadata_filters: null })).status).toBe(200);
  });

  it(`max_evidence and max_evidence_tokens: integers >= 1 or null; zero, negatives, fractions, strings and booleans \
are rejected`, async () => {
    for (const bad of [0, -1, 1.5, '3', true, 1e300]) {
      await rejects({ query: Q, retrieval: { max_evidence: bad } }, 'VALIDATION_ERROR');
      await rejects({ query: Q, retrieval: { max_evidence_tokens: bad } }, 'VALIDATION_ERROR');
    }
    for (const ok of [1, null, 2.0]) {
      expect(
        (await query({ query: Q, retrieval: { max_evidence: ok, max_evidence_tokens: ok === 1 ? 5000 : ok } })).status,
      ).toBe(200);
    }
    expect((await query({ query: Q, retrieval: null })).status).toBe(200);
  });

  it(`query length: at most 4,000 characters after normalization (NFKC, whitespace collapsed, trimmed), counted in \
code points`, async () => {
    const word = 'revenue ';
    const exact = word.repeat(500).trim().padEnd(4000, 'x'); // 4,000 code points
    expect((await query({ query: exact })).status).toBe(200);
    await rejects({ query: `${exact}y` }, 'QUERY_TOO_LONG');
    // Whitespace runs collapse before counting: 3,999 characters plus long runs of spaces fit.
    expect((await query({ query: `  ${exact.slice(0, 1999)}${' '.repeat(3000)}${exact.slice(2000)}  ` })).status).toBe(
      200,
    );
    // Astral characters count once each (code points, not UTF-16 units).
    expect((await query({ query: '𝔁'.repeat(4000) })).status).toBe(200);
  });

  it('query empty after normalization is rejected with QUERY_EMPTY', async () => {
    await rejects({ query: '' }, 'QUERY_EMPTY');
    await rejects({ query: ' \n\t\u3000 ' }, 'QUERY_EMPTY');
  });

  it('malformed JSON is rejected with MALFORMED_JSON; JSON that is not an object with VALIDATION_ERROR', async () => {
    await rejects('{"query": ', 'MALFORMED_JSON');
    await rejects('', 'MALFORMED_JSON');
    await rejects('{"query": "a"} trailing', 'MALFORMED_JSON');
    for (const body of ['[]', '"revenue"', 'null', '42']) await rejects(body, 'VALIDATION_ERROR');
  });

  it('body over 65,536 bytes: 413 BODY_TOO_LARGE, enforced while reading the stream (no Content-Length)', async () => {
    await rejects({ query: 'a'.repeat(70_000) }, 'BODY_TOO_LARGE', 413);
    // Bodies streamed in 8 KiB chunks without Content-Length: the Worker counts while reading, answers 413, and drops
    // the rest as it arrives (it reads an unwanted body to its end, up to DRAIN_LIMIT_BYTES, then stops reading).
    const streamOf = (chunks: number) => {
      const chunk = new TextEncoder().encode(' '.repeat(8192));
      const counter = { sent: 0 };
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (counter.sent >= chunks) return controller.close();
          counter.sent++;
          controller.enqueue(chunk);
        },
      });
      return { stream, counter };
    };
    const limit = DRAIN_LIMIT_BYTES / 8192;
    for (const chunks of [10, limit * 2]) {
      const { stream, counter } = streamOf(chunks);
      const res = await call('/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      const { status, json } = await expectConforms(res, 'POST', `${BASE}/query`);
      expect(status).toBe(413);
      expectEnvelope(json, 413, 'BODY_TOO_LARGE');
      if (chunks === 10)
        expect(counter.sent).toBe(10); // drained to its end
      else expect(counter.sent).toBeLessThan(limit + 16); // stopped reading past the drain limit
    }
    // Exactly at the limit is accepted (padding with whitespace keeps it valid JSON).
    const atLimit = JSON.stringify({ query: Q }).padEnd(65_536, ' ');
    expect((await query(atLimit)).status).toBe(200);
  });

  it('content type: a body not declared as application/json is rejected with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', null]) {
      const headers = type ? { 'content-type': type } : undefined;
      const res = await call('/query', { method: 'POST', headers, body: JSON.stringify({ query: Q }) });
      const { status, json } = await expectConforms(res, 'POST', `${BASE}/query`);
      expect(status, String(type)).toBe(415);
      expectEnvelope(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    const ok = await call('/query', {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; Charset=UTF-8' },
      body: JSON.stringify({ query: Q }),
    });
    expect(ok.status).toBe(200);
  });
});

describe('metadata filters (spec 2.2, 8)', () => {
  const research = (metadata_filters: unknown, q = Q) => query({ query: q, mode: 'research', metadata_filters });

  it('three value forms: a scalar is eq, an array is in, an operator object uses the named operators', async () => {
    const { status, json } = await research({
      sec_ticker: 'QVLT',
      sec_fiscal_year: ['FY-2022', 'FY-2023'],
      sec_form_type: { neq: '10-Q' },
      report_filing_date: { gte: '2022-01-01', lte: '2023-12-31' },
    });
    expect(status).toBe(200);
    expect(json.summary.applied_metadata_filters).toMatchObject({
      sec_ticker: 'QVLT',
      sec_fiscal_year: ['FY-2022', 'FY-2023'],
      sec_form_type: { neq: '10-Q' },
      report_filing_date: { gte: '2022-01-01', lte: '2023-12-31' },
    });
    // Every returned source satisfies every condition (and there is at least one, so this cannot pass vacuously).
    const registered = [
      ...(json.evidence ?? '').matchAll(
        new RegExp(
          '<source id="[^"]+" type="[^"]+" date="([^"]+)"[^>]*sec_fiscal_year="([^"]+)' +
            '"[^>]*sec_form_type="([^"]+)"[^>]*sec_ticker="([^"]+)"',
          'g',
        ),
      ),
    ];
    expect(registered.length).toBeGreaterThan(0);
    for (const m of registered) {
      expect(m[4]).toBe('QVLT');
      expect(['FY-2022', 'FY-2023']).toContain(m[2]);
      expect(m[3]).toBe('10-K');
      expect(m[1] >= '2022-01-01' && m[1] <= '2023-12-31').toBe(true);
    }
  });

  it(`operators allowed per field: gte on a ticker and neq on a filing date are rejected; in on a date is \
rejected`, async () => {
    const json = await rejects(
      {
        query: Q,
        mode: 'research',
        metadata_filters: { sec_ticker: { gte: 'A' }, report_filing_date: { neq: '2023-01-01' } },
      },
      'INVALID_FILTER',
    );
    expect(json.detail.errors.map((e: any) => e.path).sort()).toEqual([
      'metadata_filters.report_filing_date.neq',
      'metadata_filters.sec_ticker.gte',
    ]);
    await rejects(
      { query: Q, mode: 'research', metadata_filters: { report_filing_date: ['2023-01-01'] } },
      'INVALID_FILTER',
    );
    await rejects({ query: Q, mode: 'research', metadata_filters: { sec_ticker: { like: 'Q%' } } }, 'INVALID_FILTER');
  });

  it('value formats: real calendar dates, FY-YYYY, valid MM-DD, known item tags and form types', async () => {
    const bad: Record<string, unknown>[] = [
      { report_filing_date: '2023-02-29' },
      { report_filing_date: '2023-13-01' },
      { report_filing_date: '23-01-01' },
      { sec_fiscal_year: 'FY-23' },
      { sec_fiscal_year_end: '02-30' },
      { sec_fiscal_year_end: '13-01' },
      { sec_item_tag: '10K-Item-17' },
      { sec_item_tag: '10Q-PartIII-Item-1' },
      { sec_form_type: '8-K' },
      { sec_ticker: 42 },
      { sec_ticker: '' },
    ];
    for (const f of bad) await rejects({ query: Q, mode: 'research', metadata_filters: f }, 'INVALID_FILTER');
    const good = [
      { report_filing_date: '2024-02-29' },
      { sec_fiscal_year_end: '02-29' },
      { sec_item_tag: '10Q-PartII-Item-1A' },
    ];
    for (const f of good) expect((await research(f)).status, JSON.stringify(f)).toBe(200);
  });

  it(`value normalization and aliases: 10k -> 10-K, fy2023 -> FY-2023, company names -> tickers, case-insensitive \
sectors and item aliases`, async () => {
    const { status, json } = await research({
      sec_form_type: '10k',
      sec_fiscal_year: 'fy2023',
      sec_ticker: ['quillvale microdevices', 'zenharrow'],
      sec_gics_sector: { in: ['information technology', 'CONSUMER STAPLES'] },
      sec_item_tag: { neq: 'risk factors' },
    });
    expect(status).toBe(200);
    expect(json.summary.submitted_metadata_filters.sec_form_type).toBe('10k'); // what the caller sent, verbatim
    expect(json.summary.applied_metadata_filters).toMatchObject({
      sec_form_type: '10-K',
      sec_fiscal_year: 'FY-2023',
      sec_ticker: ['QVLT', 'ZNHF'],
      sec_gics_sector: ['Information Technology', 'Consumer Staples'],
      sec_item_tag: { neq: '10K-Item-1A' },
    });
  });

  it(`limits: 50 conditions, 100 values per condition, 250 values in total, 256 characters per value \
(FILTER_LIMIT_EXCEEDED)`, async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `T${i}`);
    await rejects(
      { query: Q, mode: 'research', metadata_filters: { sec_ticker: values(101) } },
      'FILTER_LIMIT_EXCEEDED',
    );
    expect((await research({ sec_ticker: values(100) })).status).toBe(200);
    await rejects(
      {
        query: Q,
        mode: 'research',
        metadata_filters: { sec_ticker: values(100), sec_gics_sector: values(100), sec_gics_sub_industry: values(51) },
      },
      'FILTER_LIMIT_EXCEEDED',
    );
    expect(
      (await research({ sec_ticker: values(100), sec_gics_sector: values(100), sec_gics_sub_industry: values(50) }))
        .status,
    ).toBe(200);
    await rejects(
      { query: Q, mode: 'research', metadata_filters: { sec_gics_sector: 'x'.repeat(257) } },
      'FILTER_LIMIT_EXCEEDED',
    );
    expect((await research({ sec_gics_sector: 'x'.repeat(256) })).status).toBe(200);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`field_${i}`, 'x']));
    await rejects({ query: Q, mode: 'research', metadata_filters: many }, 'FILTER_LIMIT_EXCEEDED');
  });

  it(`boolean expression roots (and, or, not, field) are rejected with detail.code \
FILTER_EXPRESSION_UNSUPPORTED`, async () => {
    for (const root of ['and', 'or', 'not', 'field', 'AND']) {
      await rejects(
        { query: Q, mode: 'research', metadata_filters: { [root]: [{ sec_ticker: 'QVLT' }] } },
        'FILTER_EXPRESSION_UNSUPPORTED',
      );
    }
    await rejects(
      { query: Q, mode: 'agentic_research', metadata_filters: { sec_ticker: { or: ['QVLT', 'ZNHF'] } } },
      'FILTER_EXPRESSION_UNSUPPORTED',
    );
  });

  it('unknown filter fields are rejected with the list of known fields', async () => {
    const json = await rejects(
      { query: Q, mode: 'research', metadata_filters: { sec_cik: '9990101' } },
      'INVALID_FILTER',
    );
    expect(json.detail.errors[0].message).toContain('sec_ticker');
  });

  it('caller filters are constraints on every entry of every chain, graph-linked entries included', async () => {
    for (const metadata_filters of [
      { sec_item_tag: '10K-Item-8' },
      { sec_item_tag: '10K-Item-7', sec_ticker: 'QVLT' },
      { sec_fiscal_year: 'FY-2022' },
    ]) {
      const { json } = await research(metadata_filters, 'capital expenditure net sales outlook');
      const [field, value] = Object.entries(metadata_filters)[0]!;
      // The first source of an entry is the statement retrieved; later ones are filings that state the same claim.
      const entries = [...(json.evidence ?? '').matchAll(/<entry confidence_score='[^']+' sources='([^',]+)/g)];
      expect(entries.length, JSON.stringify(metadata_filters)).toBeGreaterThan(0);
      for (const m of entries) {
        const attrs = new RegExp(`<source id="${m[1]}"[^>]*${field}="([^"]+)"`).exec(json.evidence)!;
        expect(attrs[1], `${m[1]} under ${JSON.stringify(metadata_filters)}`).toBe(value);
      }
    }
  });

  it(`caller filters bound every cited source, agreeing and disagreeing filings included (neq; a report_filing_date \
lte backtest)`, async () => {
    const cases: { filters: Record<string, unknown>; ok: (attrs: Record<string, string>) => boolean }[] = [
      {
        filters: { sec_ticker: 'QVLT', sec_fiscal_year: { neq: 'FY-2022' } },
        ok: (a) => a.sec_fiscal_year !== 'FY-2022',
      },
      {
        filters: { sec_ticker: 'QVLT', report_filing_date: { lte: '2022-12-31' } },
        ok: (a) => a.date! <= '2022-12-31',
      },
    ];
    for (const { filters, ok } of cases) {
      const { json } = await research(filters, 'purchases of property, plant and equipment and net sales');
      const evidence: string = json.evidence ?? '';
      const registry = [...evidence.matchAll(/<source (id="[^"]+"[^>]*)\/>/g)].map((m) =>
        Object.fromEntries([...m[1]!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
      );
      expect(registry.length, JSON.stringify(filters)).toBeGreaterThan(0);
      for (const attrs of registry) expect(ok(attrs), `${attrs.id} cited under ${JSON.stringify(filters)}`).toBe(true);
      // Every id an entry cites is in the registry, so the registry is the whole list of cited sources.
      for (const m of evidence.matchAll(/sources='([^']+)'/g)) {
        for (const id of m[1]!.split(', '))
          expect(
            registry.some((a) => a.id === id),
            id,
          ).toBe(true);
      }
    }
  });

  it('caller filters are constraints: inference never contradicts them', async () => {
    const { json } = await research(
      { sec_ticker: 'ZNHF' },
      'Quillvale Microdevices capital expenditure in fiscal 2023',
    );
    expect(json.summary.applied_metadata_filters.sec_ticker).toBe('ZNHF');
    const tickers = [...(json.evidence ?? '').matchAll(/sec_ticker="([^"]+)"/g)].map((m) => m[1]);
    expect(tickers.length).toBeGreaterThan(0);
    for (const t of tickers) expect(t).toBe('ZNHF');
  });
});

describe('response sections (spec 2.5, 4.1 rules 1-5)', () => {
  it(`rule 1: a body with only query returns exactly request_id, evidence, evidence_instructions, evidence_budget and \
summary`, async () => {
    const { status, json, headers } = await query({ query: Q });
    expect(status).toBe(200);
    expect(Object.keys(json).sort()).toEqual([
      'evidence',
      'evidence_budget',
      'evidence_instructions',
      'request_id',
      'summary',
    ]);
    expect(headers.get('x-request-id')).toBe(json.request_id);
  });

  it('rule 2: include.evidence false omits evidence, and evidence_instructions comes only with evidence', async () => {
    const { json } = await query({ query: Q, include: { evidence: false, evidence_instructions: true } });
    expect(json.evidence).toBeUndefined();
    expect(json.evidence_instructions).toBeUndefined();
    const noInstr = (await query({ query: Q, include: { evidence_instructions: false } })).json;
    expect(noInstr.evidence).toBeDefined();
    expect(noInstr.evidence_instructions).toBeUndefined();
  });

  it(`rule 3: evidence_budget is present whenever evidence or agent_context is requested, absent \
otherwise`, async () => {
    expect((await query({ query: Q })).json.evidence_budget).toBeDefined();
    expect(
      (await query({ query: Q, include: { evidence: false, agent_context: true } })).json.evidence_budget,
    ).toBeDefined();
    expect((await query({ query: Q, include: { evidence: false } })).json.evidence_budget).toBeUndefined();
    const budget = (await query({ query: Q, retrieval: { max_evidence_tokens: 100000 } })).json.evidence_budget;
    expect(budget).toMatchObject({ requested_max_tokens: 100000, estimator: 'chars_div_4_v1', truncated: false });
    expect((await query({ query: Q })).json.evidence_budget.requested_max_tokens).toBeNull();
  });

  it('rule 4: coverage and retrieval_plan are returned for agentic_research, and only for it', async () => {
    const agentic = (await query({ query: 'Quillvale revenue in fiscal 2023', mode: 'agentic_research' })).json;
    expect(agentic.coverage).toBeDefined();
    expect(agentic.retrieval_plan.queries.length).toBeGreaterThan(0);
    for (const mode of ['basic', 'research']) {
      const other = (await query({ query: 'Quillvale revenue in fiscal 2023', mode })).json;
      expect(other.coverage).toBeUndefined();
      expect(other.retrieval_plan).toBeUndefined();
    }
  });

  it('rule 5: non-empty metadata_filters with mode basic (including the default mode) is rejected', async () => {
    await rejects({ query: Q, metadata_filters: { sec_fiscal_year: 'FY-2023' } }, 'FILTERS_NOT_ALLOWED_IN_BASIC_MODE');
  });

  it(`agent_context only: with evidence and evidence_instructions false, only agent_context of the three is \
returned`, async () => {
    const { json } = await query({
      query: Q,
      include: { evidence: false, evidence_instructions: false, agent_context: true },
    });
    expect(json.evidence).toBeUndefined();
    expect(json.evidence_instructions).toBeUndefined();
    expect(json.agent_context.content_type).toBe('text/markdown');
    expect(json.agent_context.text).toContain('<evidence_chain');
    expect(json.agent_context.source_fields).toEqual(expect.arrayContaining(['evidence_instructions', 'evidence']));
  });

  it(`metadata_distribution and metadata_dashboard are returned exactly when requested, independently of each \
other`, async () => {
    for (const [distribution, dashboard] of [
      [true, false],
      [false, true],
      [true, true],
      [false, false],
    ]) {
      const { json } = await query({
        query: Q,
        mode: 'research',
        include: { metadata_distribution: distribution, metadata_dashboard: dashboard },
      });
      expect('metadata_distribution' in json).toBe(distribution);
      expect('metadata_dashboard' in json).toBe(dashboard);
      if (distribution) expect(json.metadata_distribution.evidence_paths).toBe(json.summary.evidence_count);
      if (dashboard) expect(json.metadata_dashboard).toMatch(/\d+\.\d%/);
    }
  });

  it('include.summary false omits summary; no property beyond the listed ones is ever returned', async () => {
    const { json } = await query({ query: Q, include: { summary: false } });
    expect(json.summary).toBeUndefined();
    expect(Object.keys(json).sort()).toEqual(['evidence', 'evidence_budget', 'evidence_instructions', 'request_id']);
  });

  it(`summary: submitted_metadata_filters is what the caller sent, applied_metadata_filters the caller filters plus \
inferred ones`, async () => {
    const sent = { sec_form_type: ['10k'] };
    const { json } = await query({
      query: 'Zenharrow Foods net sales fiscal 2023',
      mode: 'research',
      metadata_filters: sent,
    });
    expect(json.summary.submitted_metadata_filters).toEqual(sent);
    expect(json.summary.applied_metadata_filters.sec_form_type).toEqual(['10-K']);
    expect([json.summary.applied_metadata_filters.sec_ticker].flat()).toEqual(['ZNHF']); // inferred from the question
    const basic = (await query({ query: Q })).json.summary;
    expect(basic.submitted_metadata_filters).toBeUndefined();
  });

  it('request_id is unique per request and echoed in X-Request-Id, on errors too', async () => {
    const a = await query({ query: Q });
    const b = await query({ query: Q, extra: true });
    expect(a.json.request_id).not.toBe(b.json.detail.request_id);
    expect(b.headers.get('x-request-id')).toBe(b.json.detail.request_id);
  });
});

describe('authentication (spec 5, DESIGN.md 2)', () => {
  it('both operations require X-API-Key: missing and wrong keys get the same 401 UNAUTHORIZED envelope', async () => {
    const results = [
      await query({ query: Q }, null),
      await query({ query: Q }, 'wrong'),
      await get('/metadata-filters', null),
      await get('/metadata-filters', `${API_KEY}x`),
    ];
    for (const r of results) expectEnvelope(r.json, 401, 'UNAUTHORIZED');
    expect(new Set(results.map((r) => r.json.message)).size).toBe(1);
  });

  it(`auth is checked before the body is validated, so an anonymous caller learns nothing about the \
contract`, async () => {
    expectEnvelope((await query('{not json', null)).json, 401, 'UNAUTHORIZED');
  });

  it('the OpenAPI document is public and is the one the tests validate against', async () => {
    const { status, json } = await get('/openapi.json', null);
    expect(status).toBe(200);
    expect(json.openapi).toBe('3.1.0');
    expect(json.info.version).toBe('7.22.0');
    expect(json.paths['/query'].post.operationId).toBe('runResearchQuery');
  });
});

describe('GET /metadata-filters (spec 2.6, 4.2)', () => {
  it('lists domain, schema_version and a complete descriptor for each of the eight fields', async () => {
    const { status, json } = await get('/metadata-filters');
    expect(status).toBe(200);
    expect(json.domain).toBe('sp500');
    expect(json.schema_version).toMatch(/\S/);
    expect(json.fields.map((f: any) => f.name)).toEqual([...FILTER_FIELDS]);
    for (const f of json.fields) {
      expect(f).toMatchObject({ max_values_per_condition: 100, max_value_length: 256 });
      expect(f.description.length).toBeGreaterThan(10);
      expect(f.operators.length).toBeGreaterThan(0);
      expect(f.allowed_values).toBeUndefined(); // only with include_values=true
    }
    expect(json.fields.find((f: any) => f.name === 'report_filing_date').operators).toEqual(['eq', 'gte', 'lte']);
  });

  it('values and bounds come from the published index', async () => {
    const { json } = await get('/metadata-filters?include_values=true');
    const field = (name: string) => json.fields.find((f: any) => f.name === name);
    expect(field('sec_ticker').allowed_values.map((v: any) => v.value)).toEqual(['QSEP', 'QVLT', 'ZNHF']);
    expect(field('sec_ticker').allowed_values[1]).toMatchObject({ display_value: 'Quillvale Microdevices (QVLT)' });
    expect(field('sec_fiscal_year').numeric_bounds).toEqual({ min: 2021, max: 2024 });
    expect(field('report_filing_date').numeric_bounds).toEqual({ min: 20220223, max: 20240223 });
    expect(field('sec_fiscal_year_end').allowed_values.map((v: any) => v.value)).toEqual(['09-24', '09-30', '12-31']);
    expect(field('report_filing_date').allowed_values).toBeUndefined(); // has_values false
    const tags = field('sec_item_tag').allowed_values;
    expect(tags.find((v: any) => v.value === '10K-Item-1A')).toMatchObject({
      display_value: '10-K Item 1A. Risk Factors',
    });
    expect(tags.some((v: any) => v.value.startsWith('10Q-Part'))).toBe(true);
  });

  it('every alias the listing shows is accepted as a filter value and resolves to its value', async () => {
    const { json } = await get('/metadata-filters?include_values=true');
    for (const f of json.fields.filter((x: any) => x.has_values)) {
      for (const v of f.allowed_values) {
        for (const alias of [v.value, ...v.aliases]) {
          const res = await query({
            query: 'revenue',
            mode: 'research',
            include: { evidence: false },
            metadata_filters: { [f.name]: alias },
          });
          expect(res.status, `${f.name}=${alias}`).toBe(200);
          expect(res.json.summary.applied_metadata_filters[f.name], `${f.name}=${alias}`).toBe(v.value);
        }
      }
    }
  });

  it(`field= returns one field; unknown fields and parameters and non-boolean include_values are rejected with \
INVALID_PARAMETER`, async () => {
    const one = await get('/metadata-filters?field=sec_form_type&include_values=true');
    expect(one.json.fields.map((f: any) => f.name)).toEqual(['sec_form_type']);
    expect(one.json.fields[0].allowed_values.map((v: any) => v.value)).toEqual(['10-K', '10-Q']);
    for (const qs of ['field=sec_cik', 'include_values=yes', 'limit=3', 'field=sec_ticker&field=sec_form_type']) {
      const { status, json } = await get(`/metadata-filters?${qs}`);
      expect(status, qs).toBe(422);
      expectEnvelope(json, 422, 'INVALID_PARAMETER');
    }
  });
});

describe('routes (DESIGN.md 2)', () => {
  it('unknown domains get 404 UNKNOWN_DOMAIN on every route', async () => {
    for (const [method, path] of [
      ['POST', '/query'],
      ['GET', '/metadata-filters'],
      ['GET', '/openapi.json'],
      ['GET', '/docs'],
    ] as const) {
      const url = `${ORIGIN}/v2/nasdaq${path}`;
      const res = await call(url, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{"query":"x"}' : undefined,
      });
      const { json } = await expectConforms(res, method, url);
      expectEnvelope(json, 404, 'UNKNOWN_DOMAIN');
    }
  });

  it('unknown routes get 404 NOT_FOUND; wrong methods get 405 METHOD_NOT_ALLOWED', async () => {
    for (const path of ['/', '/v1/sp500/query', '/v2/sp500', '/v2/sp500/query/extra']) {
      const url = `${ORIGIN}${path}`;
      const { json } = await expectConforms(await call(url), 'GET', url);
      expectEnvelope(json, 404, 'NOT_FOUND');
    }
    for (const [method, path] of [
      ['GET', '/query'],
      ['PUT', '/query'],
      ['DELETE', '/metadata-filters'],
      ['POST', '/metadata-filters'],
      ['POST', '/openapi.json'],
      ['POST', '/docs'],
    ] as const) {
      const res = await call(path, { method });
      const { json } = await expectConforms(res, method, `${BASE}${path}`);
      expectEnvelope(json, 405, 'METHOD_NOT_ALLOWED');
    }
  });
});
