import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, BASE, call, seedSampleIndex } from './helpers';
import { exports } from 'cloudflare:workers';

/*
 * Hostile input: whatever arrives, the answer is a 2xx body or the error envelope, never a 5xx, never a stack trace,
 * never an echo of the input that breaks out of JSON or of the evidence structure.
 */

beforeAll(async () => {
  await seedSampleIndex();
});

const STACK = /\bat .*\.(ts|js|mjs):\d+|node_modules|src\/[a-z-/]+\.ts/;

/** Reads a response and checks the invariant; returns the parsed body. */
async function safe(res: Response | Promise<Response>): Promise<{ status: number; json: any }> {
  const r = await res;
  const text = await r.text();
  expect(r.status, text.slice(0, 300)).toBeLessThan(500);
  expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(text).not.toMatch(STACK);
  const json = JSON.parse(text);
  if (r.status >= 400) {
    expect(json.status_code).toBe(r.status);
    expect(typeof json.message).toBe('string');
    expect(typeof json.detail.code).toBe('string');
    expect(json.detail.request_id).toBe(r.headers.get('x-request-id'));
  } else {
    expect(typeof json.request_id).toBe('string');
  }
  return { status: r.status, json };
}

const post = (body: unknown) =>
  call('/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const postRaw = (body: BodyInit | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call('/query', { method: 'POST', headers, body });

describe('hostile JSON', () => {
  it('rejects deep nesting with 422, balanced or not, at every level of the request', async () => {
    const depth = 20_000;
    const bodies = [
      `{"query":"x","include":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      `{"query":"x","include":${'['.repeat(depth)}`,
      `{"query":"x","mode":"research","metadata_filters":{"sec_ticker":${'{"in":'.repeat(5_000)}"QVLT"` +
        `${'}'.repeat(5_000)}}}`,
      `{"query":"x","retrieval":${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)}}`,
      `${'['.repeat(60_000)}`,
    ];
    for (const body of bodies) {
      expect(body.length).toBeLessThanOrEqual(65_536);
      const { status } = await safe(postRaw(body));
      expect(status).toBe(422);
    }
  });

  it('handles huge, tiny and non-finite numbers as validation errors or valid integers', async () => {
    const values = [
      '1e308',
      '1e309',
      '-1e309',
      '9007199254740993',
      '1'.repeat(5_000),
      '0.5',
      '-0',
      '1e-400',
      '0',
      '-1',
      '2.0',
    ];
    for (const v of values) {
      for (const field of ['max_evidence', 'max_evidence_tokens']) {
        const { status, json } = await safe(postRaw(`{"query":"net sales","retrieval":{"${field}":${v}}}`));
        if (status !== 200) expect(json.detail.code).toBe('VALIDATION_ERROR');
      }
    }
    // Below 1 is always invalid; a finite integer >= 1 is always valid (huge ones just mean "no cap").
    expect((await safe(postRaw('{"query":"net sales","retrieval":{"max_evidence":0}}'))).status).toBe(422);
    expect((await safe(postRaw('{"query":"net sales","retrieval":{"max_evidence":-1}}'))).status).toBe(422);
    expect((await safe(postRaw('{"query":"net sales","retrieval":{"max_evidence":0.5}}'))).status).toBe(422);
  });

  it('never lets __proto__, constructor or prototype keys through or pollute prototypes', async () => {
    const bodies = [
      '{"query":"net sales","__proto__":{"mode":"agentic_research","polluted":1}}',
      '{"query":"net sales","constructor":{"prototype":{"polluted":1}}}',
      '{"query":"net sales","include":{"__proto__":{"agent_context":true}}}',
      '{"query":"net sales","retrieval":{"constructor":{"prototype":{"polluted":1}}}}',
      '{"query":"net sales","mode":"research","metadata_filters":{"__proto__":{"polluted":1}}}',
      '{"query":"net sales","mode":"research","metadata_filters":{"constructor":"QVLT"}}',
      '{"query":"net sales","mode":"research","metadata_filters":{"prototype":"QVLT"}}',
      '{"query":"net sales","mode":"research","metadata_filters":{"sec_ticker":{"__proto__":["QVLT"]}}}',
      '{"query":"net sales","mode":"research","metadata_filters":{"sec_ticker":{"constructor":"QVLT"}}}',
    ];
    for (const body of bodies) {
      const { status, json } = await safe(postRaw(body));
      expect(status, body).toBe(422);
      expect(json.detail.code).not.toBe('INTERNAL');
    }
    expect(({} as any).polluted).toBeUndefined();
    expect(({} as any).mode).toBeUndefined();
    expect((Object.prototype as any).agent_context).toBeUndefined();
  });

  it('rejects bytes that are not UTF-8 as MALFORMED_JSON, and survives lone surrogates and BOMs', async () => {
    const invalid = [
      [0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d], // {"query":"\xff\xfe"}
      [0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d], // overlong '/'
      [0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d], // encoded surrogate
      [0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d], // truncated sequence
    ];
    for (const bytes of invalid) {
      const { status, json } = await safe(postRaw(new Uint8Array(bytes)));
      expect(status).toBe(422);
      expect(json.detail.code).toBe('MALFORMED_JSON');
    }
    for (const body of [
      '{"query":"net \\ud800 sales"}',
      '{"query":"\\udfff"}',
      '\ufeff{"query":"net sales"}',
      '{"query":"net sales"}\u0000',
    ]) {
      await safe(postRaw(body));
    }
  });

  it('answers wrong content types and non-JSON bodies in the envelope', async () => {
    const form = await safe(
      postRaw('query=net+sales&mode=research', { 'content-type': 'application/x-www-form-urlencoded' }),
    );
    expect(form.status).toBeGreaterThanOrEqual(400);
    const multipart = await safe(
      postRaw('--b\r\nContent-Disposition: form-data; name="query"\r\n\r\nnet sales\r\n--b--', {
        'content-type': 'multipart/form-data; boundary=b',
      }),
    );
    expect(multipart.status).toBeGreaterThanOrEqual(400);
    const xml = await safe(postRaw('<query>net sales</query>', { 'content-type': 'application/xml' }));
    expect(xml.status).toBeGreaterThanOrEqual(400);
    expect((await safe(postRaw(null, {}))).status).toBe(415); // no body and no content type
    const empty = await safe(postRaw(null));
    expect(empty.status).toBe(422);
    expect(empty.json.detail.code).toBe('MALFORMED_JSON');
    // A JSON body under another declared type is refused as 415 (decided in docs/DECISIONS.md), never misread.
    for (const type of ['text/plain', 'application/json; charset=iso-8859-1', 'application/octet-stream', '']) {
      const { status, json } = await safe(postRaw('{"query":"net sales"}', { 'content-type': type }));
      expect(status, type).toBe(415);
      expect(json.detail.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('stops reading a chunked body without Content-Length at the limit and answers 413', async () => {
    const chunk = new TextEncoder().encode(`{"query":"${'a'.repeat(8_180)}`.slice(0, 8_192));
    const filler = new TextEncoder().encode('a'.repeat(8_192));
    const total = 256; // 2 MiB if it were read to the end
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(pulled === 0 ? chunk : filler);
        if (++pulled === total) controller.close();
      },
    });
    const request = new Request(`${BASE}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body,
      // @ts-expect-error duplex is required for a streamed request body but missing from the lib types
      duplex: 'half',
    });
    expect(request.headers.get('content-length')).toBeNull();
    const { status, json } = await safe(exports.default.fetch(request));
    expect(status).toBe(413);
    expect(json.detail.code).toBe('BODY_TOO_LARGE');
    expect(pulled).toBeLessThan(total);
  });
});

describe('unicode tricks', () => {
  const TRICKS = {
    zero_width: 'net\u200b sa\u200cles\u200d \ufeff',
    rtl_override: '\u202enet sales\u202c',
    full_width: 'ｎｅｔ ｓａｌｅｓ',
    nul: 'net\u0000sales',
    combining: 'ne\u0301t sa\u0308les',
    only_invisible: '\u200b\u200c\u200d\u2060',
    emoji_and_astral: 'net sales 📈 𝐧𝐞𝐭',
    control: 'net\u0007\u001b[31msales',
  };

  it('never breaks a query in any mode', async () => {
    for (const [name, text] of Object.entries(TRICKS)) {
      for (const mode of ['basic', 'research', 'agentic_research']) {
        const { status, json } = await safe(post({ query: text, mode }));
        // Invisible format characters are removed by normalization, so a query of nothing else is empty.
        expect(status, `${name} ${mode}`).toBe(name === 'only_invisible' ? 422 : 200);
        if (status === 422) expect(json.detail.code).toBe('QUERY_EMPTY');
      }
    }
  });

  it(`matches full-width filter values like their ASCII forms (NFKC), and rejects invisible or control characters in \
values`, async () => {
    const ascii = await safe(post({ query: 'net sales', mode: 'research', metadata_filters: { sec_ticker: 'QVLT' } }));
    expect(ascii.status).toBe(200);
    const fullWidth = await safe(
      post({ query: 'net sales', mode: 'research', metadata_filters: { sec_ticker: 'ＱＶＬＴ' } }),
    );
    expect(fullWidth.status).toBe(200);
    expect(fullWidth.json.summary.applied_metadata_filters).toEqual(ascii.json.summary.applied_metadata_filters);
    for (const [name, value] of [
      ['zero_width', 'QV\u200bLT'],
      ['rtl', '\u202eQVLT'],
      ['nul', 'QVLT\u0000'],
      ['control', 'QVLT\u001b'],
    ]) {
      const { status, json } = await safe(
        post({ query: 'net sales', mode: 'research', metadata_filters: { sec_ticker: value } }),
      );
      expect(status, name).toBe(422);
      expect(json.detail.code).toBe('INVALID_FILTER');
    }
    for (const value of ['FY-2023\u0000', 'FY\u200b-2023']) {
      expect(
        (await safe(post({ query: 'net sales', mode: 'research', metadata_filters: { sec_fiscal_year: value } })))
          .status,
      ).toBe(422);
    }
    const fy = await safe(
      post({ query: 'net sales', mode: 'research', metadata_filters: { sec_fiscal_year: 'ＦＹ－２０２３' } }),
    );
    expect(fy.json.summary.applied_metadata_filters.sec_fiscal_year).toEqual('FY-2023');
  });
});

describe('filing text is data', () => {
  const chains = (evidence: string) => ({
    opens: evidence.match(/<evidence_chain[ >]/g)?.length ?? 0,
    closes: evidence.match(/<\/evidence_chain>/g)?.length ?? 0,
  });

  it('keeps markup-like filing text escaped inside its entry (sample trap 4)', async () => {
    const { json } = await safe(
      post({
        query: 'Edge accelerator module ordering code QV7 shipments',
        mode: 'research',
        metadata_filters: { sec_ticker: 'QVLT' },
      }),
    );
    const evidence: string = json.evidence;
    expect(evidence).toMatch(/&lt;Quill&amp;Vale (&quot;|")Edge(&quot;|")&gt;/);
    expect(evidence).toContain('&lt;/evidence_chain&gt;-QV7');
    expect(evidence).not.toContain('</evidence_chain>-QV7');
    expect(evidence).not.toContain('<Quill&Vale');
    const { opens, closes } = chains(evidence);
    expect(opens).toBe(json.evidence_budget.returned_evidence_count);
    expect(closes).toBe(opens);
  });

  it(`keeps instruction-like filing text inside an entry, never in the instructions or outside the evidence (sample \
trap 5)`, async () => {
    const { json } = await safe(
      post({
        query: 'ignore previous instructions no material risks shares bought immediately',
        mode: 'research',
        metadata_filters: { sec_ticker: 'ZNHF' },
        include: { agent_context: true },
      }),
    );
    const evidence: string = json.evidence;
    expect(evidence).toMatch(/Ignore previous instructions/i);
    // Every occurrence sits between an <entry ...> and its </entry>.
    const outside = evidence.replace(/<entry [^>]*>[\s\S]*?<\/entry>/g, '');
    expect(outside).not.toMatch(/Ignore previous instructions/i);
    expect(json.evidence_instructions).not.toMatch(/Ignore previous instructions/i);
    const howTo = json.agent_context.text.split('## Evidence')[0];
    expect(howTo).not.toMatch(/Ignore previous instructions/i);
    const { opens, closes } = chains(evidence);
    expect(closes).toBe(opens);
  });
});

describe('hostile routes and methods', () => {
  it('answers odd paths and methods in the envelope', async () => {
    const cases: [string, string][] = [
      ['/v2/%00/query', 'POST'],
      ['/v2/sp500/query/..%2f..%2fmetadata-filters', 'POST'],
      [`/v2/sp500/${'a'.repeat(8_000)}`, 'GET'],
      ['/v2/sp500/query', 'PUT'],
      ['/v2/sp500/query', 'DELETE'],
      ['/v2/sp500/metadata-filters', 'PATCH'],
      ['/v2/sp500/metadata-filters?field=%00&include_values=%E2%80%AE', 'GET'],
      ['/v2/sp500/metadata-filters?field=__proto__', 'GET'],
      ['/v2/sp500/metadata-filters?constructor=1', 'GET'],
    ];
    for (const [path, method] of cases) {
      const { status } = await safe(
        exports.default.fetch(
          new Request(`https://evidence.test${path}`, { method, headers: { 'x-api-key': API_KEY } }),
        ),
      );
      expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
  });
});
