import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../support/temp-dirs';
import { copyWranglerConfig, startWranglerDev, type WranglerDev } from '../support/wrangler-dev';

/**
 * Answers sent before the body is read (401, 413, 415, 429) through a real `wrangler dev`: with large bodies, and
 * many of them at once, every answer is the contract's JSON envelope; none is a 5xx or a dropped connection. The
 * Worker must not leave a request body unread when it answers (src/http/unread-body.ts, src/router.ts).
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const LIMITED_KEY = 'limited-key';
const WRONG_KEY = 'not-a-configured-key';
const FRESH_KEYS = Array.from({ length: 200 }, (_, i) => `fresh-key-${i}`);
const MAX_BODY = 65_536;

/** A request body of `bytes` bytes: JSON, so only the key, the size or the media type decides the answer. */
const jsonBody = (bytes: number) => new TextEncoder().encode(`{"query":"${'a'.repeat(bytes - 12)}"}`);

interface Case {
  route: 'query' | 'mcp';
  key: string;
  bytes: number;
  contentType: string;
  /** Sent chunked, without Content-Length: the Worker can only find the size by reading. */
  chunked: boolean;
  expect: { status: number; code: string }[];
}

interface Outcome {
  status?: number;
  failure?: string;
}

/** 20-70 KB, and every fourth over the limit (up to 256 KB). */
const sizeOf = (i: number) => (i % 4 === 3 ? MAX_BODY + 1 + ((i * 7919) % 190_000) : 20_000 + ((i * 6151) % 50_000));

let dev: WranglerDev;
const newDir = tempDirs('fers-early-');

beforeAll(async () => {
  // wrangler.toml with a limit of one request per key and window, so the limited key is over it after one request.
  const dir = newDir();
  const configPath = copyWranglerConfig(dir, (toml) =>
    toml.replace('simple = { limit = 600, period = 60 }', 'simple = { limit = 1, period = 60 }'),
  );
  const hashes = [LIMITED_KEY, ...FRESH_KEYS].map(sha256).join(',');
  dev = await startWranglerDev({
    configPath,
    persistDir: join(dir, 'state'),
    vars: { API_KEY_HASHES: hashes },
  });
  // The limited key's one allowed request, the MCP message the run pads (so a request the limiter lets through when its
  // window turns gets MCP's own answer, 200); every later one is over the limit.
  const first = await fetch(`${dev.origin}/v2/sp500/mcp`, {
    method: 'POST',
    headers: {
      'x-api-key': LIMITED_KEY,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: mcpMessage(1_000),
  });
  expect(first.status, await first.text()).toBe(200);
}, 180_000);

afterAll(async () => {
  await dev?.stop();
});

/** A valid MCP request of about `bytes` bytes: tools/list, padded in its params' `_meta` (which MCP leaves open). */
function mcpMessage(bytes: number): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { pad: 'a'.repeat(bytes) } } }),
  );
}

async function send(c: Case): Promise<Outcome> {
  const body = c.route === 'mcp' ? mcpMessage(c.bytes) : jsonBody(c.bytes);
  const headers: Record<string, string> = {
    'x-api-key': c.key,
    'content-type': c.contentType,
    accept: 'application/json, text/event-stream',
  };
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers };
  if (c.chunked) {
    init.body = new ReadableStream({
      start(controller) {
        for (let at = 0; at < body.byteLength; at += 16_384) controller.enqueue(body.subarray(at, at + 16_384));
        controller.close();
      },
    });
    init.duplex = 'half';
  } else init.body = body;
  let res: Response;
  try {
    res = await fetch(`${dev.origin}/v2/sp500/${c.route}`, init);
  } catch (err) {
    return {
      failure:
        `connection: ` +
        `${err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? '')}` : String(err)}`,
    };
  }
  const text = await res.text().catch((err: unknown) => `<body lost: ${String(err)}>`);
  const allowed = c.expect.find((e) => e.status === res.status);
  if (!allowed)
    return { status: res.status, failure: `${c.route} ${c.bytes} B: status ${res.status} ${text.slice(0, 200)}` };
  if (res.status === 200) return { status: 200 }; // an allowed request's own answer (MCP), not an early one
  if (!/^application\/json/.test(res.headers.get('content-type') ?? ''))
    return { status: res.status, failure: `not JSON: ${res.headers.get('content-type')}` };
  let json: { status_code?: unknown; message?: unknown; detail?: { code?: unknown; retry_after_seconds?: unknown } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    return { status: res.status, failure: `unparseable body: ${text.slice(0, 200)}` };
  }
  if (json.status_code !== res.status || typeof json.message !== 'string' || json.detail?.code !== allowed.code) {
    return { status: res.status, failure: `not the envelope of ${allowed.code}: ${text.slice(0, 200)}` };
  }
  if (res.status === 429 && (res.headers.get('retry-after') !== '60' || json.detail.retry_after_seconds !== 60)) {
    return { status: res.status, failure: `429 without Retry-After 60: ${text.slice(0, 200)}` };
  }
  return { status: res.status };
}

/** Sends every case, `concurrency` at a time. */
async function sendAll(cases: Case[], concurrency = 8): Promise<Outcome[]> {
  const out: Outcome[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) {
        const i = next++;
        out[i] = await send(cases[i]!);
      }
    }),
  );
  return out;
}

const failures = (outcomes: Outcome[]) => outcomes.flatMap((o) => (o.failure ? [o.failure] : []));
const JSON_TYPE = 'application/json';

describe('early answers with large bodies, through wrangler dev', () => {
  it('a key over its limit gets the 429 envelope with Retry-After, 300 times, on /query and /mcp', async () => {
    const cases: Case[] = Array.from({ length: 300 }, (_, i) => ({
      route: i % 5 === 4 ? 'mcp' : 'query',
      key: LIMITED_KEY,
      bytes: sizeOf(i),
      contentType: JSON_TYPE,
      chunked: i % 3 === 2,
      // When the limiter's 60 s window turns during the run, one request per window goes through and its body is
      // judged.
      expect: [
        { status: 429, code: 'RATE_LIMITED' },
        { status: 413, code: 'BODY_TOO_LARGE' },
        { status: 422, code: 'QUERY_TOO_LONG' },
        { status: 200, code: '' },
      ],
    }));
    const outcomes = await sendAll(cases);
    expect(failures(outcomes), dev.output().slice(-3000)).toEqual([]);
    expect(outcomes.filter((o) => o.status === 429).length).toBeGreaterThanOrEqual(297);
  });

  it('a wrong key gets the 401 envelope, 300 times, on /query and /mcp', async () => {
    const cases: Case[] = Array.from({ length: 300 }, (_, i) => ({
      route: i % 5 === 4 ? 'mcp' : 'query',
      key: WRONG_KEY,
      bytes: sizeOf(i),
      contentType: JSON_TYPE,
      chunked: i % 3 === 2,
      expect: [{ status: 401, code: 'UNAUTHORIZED' }],
    }));
    expect(failures(await sendAll(cases)), dev.output().slice(-3000)).toEqual([]);
  });

  it('a body over the limit gets 413 and a non-JSON type 415, with or without Content-Length', async () => {
    const cases: Case[] = FRESH_KEYS.map((key, i) => ({
      route: 'query',
      key,
      bytes: i % 2 ? MAX_BODY + 1 + ((i * 7919) % 190_000) : 20_000 + ((i * 6151) % 50_000),
      contentType: i % 2 ? JSON_TYPE : 'text/plain',
      chunked: i % 4 >= 2,
      expect: i % 2 ? [{ status: 413, code: 'BODY_TOO_LARGE' }] : [{ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' }],
    }));
    expect(failures(await sendAll(cases)), dev.output().slice(-3000)).toEqual([]);
  });
});
