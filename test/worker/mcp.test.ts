// The MCP endpoint driven by the official MCP SDK client (Streamable HTTP client transport) against the Worker in
// workerd: the client's fetch calls the Worker's own fetch handler with the test bindings.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MCP_MAX_BODY_BYTES } from '../../src/mcp/tool-schemas';
import { estimateTokens } from '../../src/evidence/budget';
import { API_KEY, BASE, call, seedSampleIndex, unpublish } from './helpers';
import { forgetPointerMemo } from './index-versions';

const MCP_URL = `${BASE}/mcp`;

type Auth = { header: 'x-api-key' | 'bearer' | 'none' };

/** A fetch that sends the client's requests to the Worker, with the chosen credentials. */
function workerFetch(auth: Auth): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    if (auth.header === 'x-api-key') headers.set('x-api-key', API_KEY);
    if (auth.header === 'bearer') headers.set('authorization', `Bearer ${API_KEY}`);
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return call(request.url, { method: request.method, headers, body, key: null });
  }) as typeof fetch;
}

async function connect(auth: Auth = { header: 'x-api-key' }, era: 'legacy' | 'modern' = 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'mcp-test', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: workerFetch(auth) }));
  return client;
}

const textOf = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]?.text ?? '';

let lines: string[] = [];
afterEach(() => vi.restoreAllMocks());
function captureLogs() {
  lines = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
}

describe('MCP endpoint (Streamable HTTP, stateless)', () => {
  beforeAll(async () => {
    await seedSampleIndex();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`initializes and lists both tools with schemas from the contract (${era} protocol era)`, async () => {
      const client = await connect({ header: 'x-api-key' }, era);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['list_metadata_filters', 'search_filing_evidence']);
      const search = tools.find((t) => t.name === 'search_filing_evidence')!;
      const props = (search.inputSchema as { properties: Record<string, { description?: string; default?: unknown }> })
        .properties;
      expect(Object.keys(props).sort()).toEqual([
        'effort',
        'max_evidence',
        'max_evidence_tokens',
        'metadata_filters',
        'mode',
        'query',
      ]);
      expect(props.max_evidence_tokens!.default).toBe(8000);
      expect(props.query!.description).toMatch(/4000 characters/);
      expect(search.description).toMatch(/agentic_research/);
      expect(search.outputSchema).toBeDefined();
      await client.close();
    });
  }

  it(`answers search_filing_evidence with the agent_context markdown as text and the JSON response as structured \
content`, async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'search_filing_evidence',
      arguments: {
        query: 'What did Quillvale spend on property, plant and equipment in fiscal 2023?',
        mode: 'research',
        max_evidence: 2,
      },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^# Filing evidence/);
    expect(textOf(result)).toContain('<source_registry>');
    const structured = result.structuredContent as any;
    expect(structured.summary).toMatchObject({ mode: 'research', evidence_count: 2 });
    expect(structured.evidence_budget.requested_max_tokens).toBe(8000);
    expect(structured.agent_context).toBeUndefined(); // it is the text content
    expect(textOf(result)).toContain(structured.evidence);
    await client.close();
  });

  it('returns coverage in the text and the structured content of a budgeted agentic call', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'search_filing_evidence',
      arguments: {
        query: 'Compare Quillvale capital expenditure in fiscal 2022 and fiscal 2023',
        mode: 'agentic_research',
        max_evidence_tokens: 600,
      },
    });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as any;
    expect(structured.coverage.status).toMatch(/^(complete|partial|none|not_assessed)$/);
    expect(structured.evidence_budget).toMatchObject({ requested_max_tokens: 600 });
    expect(structured.evidence_budget.estimated_tokens).toBeLessThanOrEqual(600);
    expect(textOf(result)).toContain('## Coverage assessment');
    await client.close();
  });

  it('keeps everything but the evidence small, so a default-budget result fits a 25,000-token tool limit', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'search_filing_evidence',
      arguments: {
        query: 'Quillvale revenue, gross margin and capital expenditure in fiscal 2023 and 2022',
        mode: 'agentic_research',
        effort: 'high',
      },
    });
    const structured = result.structuredContent as any;
    const evidenceTokens = estimateTokens(structured.evidence ?? '');
    expect(evidenceTokens).toBeLessThanOrEqual(8000);
    const whole = estimateTokens(textOf(result)) + estimateTokens(JSON.stringify(structured));
    // The evidence appears twice (text and structured content); everything else is bounded.
    expect(whole - 2 * evidenceTokens).toBeLessThan(9000);
    await client.close();
  });

  it('lists metadata filters, one field with its values', async () => {
    const client = await connect();
    const result = await client.callTool({
      name: 'list_metadata_filters',
      arguments: { field: 'sec_ticker', include_values: true },
    });
    expect(result.isError).toBeFalsy();
    const listing = result.structuredContent as any;
    expect(listing.fields).toHaveLength(1);
    expect(listing.fields[0].name).toBe('sec_ticker');
    expect(listing.fields[0].allowed_values.map((v: { value: string }) => v.value)).toContain('QVLT');
    await client.close();
  });

  it('returns contract errors as tool errors with the code and envelope, and the session goes on', async () => {
    const client = await connect();
    const basic = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'capex', metadata_filters: { sec_ticker: 'QVLT' } },
    });
    expect(basic.isError).toBe(true);
    expect(textOf(basic)).toMatch(/^FILTERS_NOT_ALLOWED_IN_BASIC_MODE \(422\)/);
    expect(textOf(basic)).toContain('"status_code":422');

    const badArgs = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'capex', max_evidence_tokens: 0, extra: 1 },
    });
    expect(badArgs.isError).toBe(true);
    expect(textOf(badArgs)).toMatch(/^VALIDATION_ERROR \(422\)/);
    expect(textOf(badArgs)).toMatch(/max_evidence_tokens/);

    const badFilter = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'capex', mode: 'research', metadata_filters: { report_filing_date: '2023-02-30' } },
    });
    expect(textOf(badFilter)).toMatch(/^INVALID_FILTER \(422\)/);

    const badField = await client.callTool({ name: 'list_metadata_filters', arguments: { field: 'nope' } });
    expect(textOf(badField)).toMatch(/^INVALID_PARAMETER \(422\)/);

    // The same session still answers.
    const ok = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'Quillvale capital expenditure' },
    });
    expect(ok.isError).toBeFalsy();
    await client.close();
  });

  it('turns an unpublished index into a 503 tool error, then recovers in the same session', async () => {
    const client = await connect();
    await unpublish();
    forgetPointerMemo();
    const down = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'Quillvale capital expenditure' },
    });
    expect(down.isError).toBe(true);
    expect(textOf(down)).toMatch(/^INDEX_UNAVAILABLE \(503\)/);
    await seedSampleIndex();
    forgetPointerMemo();
    const up = await client.callTool({
      name: 'search_filing_evidence',
      arguments: { query: 'Quillvale capital expenditure' },
    });
    expect(up.isError).toBeFalsy();
    await client.close();
  });

  it('refuses a client without a key (401) and accepts a bearer key', async () => {
    await expect(connect({ header: 'none' })).rejects.toThrow(/401/);
    const client = await connect({ header: 'bearer' });
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });

  it('answers GET and DELETE with 405 and enforces the body cap while streaming', async () => {
    expect((await call('/mcp', { method: 'GET' })).status).toBe(405);
    expect((await call('/mcp', { method: 'DELETE' })).status).toBe(405);
    const tooBig = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_filing_evidence', arguments: { query: 'x'.repeat(MCP_MAX_BODY_BYTES) } },
    });
    const res = await call('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: new Blob([tooBig]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).detail.code).toBe('BODY_TOO_LARGE');
  });

  it('writes one log line per MCP request that names the tool', async () => {
    const client = await connect();
    captureLogs();
    await client.callTool({ name: 'search_filing_evidence', arguments: { query: 'Quillvale capital expenditure' } });
    const parsed = lines.map((l) => JSON.parse(l)).filter((l) => l.path === '/v2/sp500/mcp');
    expect(parsed.some((l) => l.tool === 'search_filing_evidence' && l.mode === 'basic' && l.status === 200)).toBe(
      true,
    );
    expect(lines.join('\n')).not.toContain(API_KEY);
    expect(lines.join('\n')).not.toContain('Quillvale capital');
    await client.close();
  });
});
