import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { env } from 'cloudflare:workers';
import { enforceRateLimit, type RateLimiter } from '../../src/http/rate-limit';
import { API_KEY, call } from './helpers';

/*
 * Runs in its own vitest project (vitest.config.ts, 'worker-ratelimit') whose RATE_LIMITER binding allows only
 * `rateLimit` requests per key per 60 s, simulated by Miniflare in memory: a fixed window per key that resets when the
 * minute turns. No index is published here, so allowed requests end in 422/503; the limiter runs before either.
 */
declare module 'vitest' {
  // biome-ignore lint/suspicious/noExportsInTest: augments vitest's ProvidedContext, not an export of the test
  export interface ProvidedContext {
    rateLimit: number;
    secondApiKey: string;
  }
}

const LIMIT = inject('rateLimit');
const SECOND_KEY = inject('secondApiKey');

const post = (key: string | null) =>
  call('/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', key });

/**
 * Sends requests with one key until the first 429. A window boundary can fall inside the burst (Miniflare's window is
 * the wall-clock minute) and reset the count once, so the first 429 comes after LIMIT to 2 x LIMIT allowed requests.
 */
async function burstUntilLimited(key: string): Promise<{ allowed: number; limited: Response }> {
  for (let sent = 0; sent <= 2 * LIMIT + 1; sent++) {
    const res = await post(key);
    if (res.status === 429) return { allowed: sent, limited: res };
    expect(res.status).not.toBe(401);
  }
  throw new Error(`no 429 after ${2 * LIMIT + 2} requests with a limit of ${LIMIT}`);
}

afterEach(() => vi.restoreAllMocks());

describe('per-key rate limit (RATE_LIMITER binding)', () => {
  it('answers 429 RATE_LIMITED in the envelope with Retry-After once a key exceeds its limit', async () => {
    const { allowed, limited } = await burstUntilLimited(API_KEY);
    expect(allowed).toBeGreaterThanOrEqual(LIMIT);
    expect(allowed).toBeLessThanOrEqual(2 * LIMIT);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect(limited.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const body = (await limited.json()) as any;
    expect(body).toEqual({
      status_code: 429,
      message: expect.any(String),
      detail: { code: 'RATE_LIMITED', retry_after_seconds: 60, request_id: limited.headers.get('x-request-id') },
    });
  });

  it('limits each key separately, checks the key before the limit, and never limits preflights', async () => {
    await burstUntilLimited(API_KEY);
    // Another key is unaffected by the first key's exhaustion.
    expect((await post(SECOND_KEY)).status).not.toBe(429);
    // A wrong key is a 401, not a 429: unauthenticated requests are never counted against (or blamed on) a key.
    expect((await post('not-a-key')).status).toBe(401);
    expect((await post(null)).status).toBe(401);
    const preflight = await call('/query', {
      method: 'OPTIONS',
      key: null,
      headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });

  it('counts MCP requests against the same per-key limit (a bearer key included), as an HTTP 429', async () => {
    await burstUntilLimited(API_KEY);
    const mcp = await call('/mcp', {
      method: 'POST',
      key: null,
      headers: {
        authorization: `Bearer ${API_KEY}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(429);
    expect(((await mcp.json()) as any).detail.code).toBe('RATE_LIMITED');
  });

  it('logs the limited request with its key_id and outcome, never the key', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    const { limited } = await burstUntilLimited(SECOND_KEY);
    const entry = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === limited.headers.get('x-request-id'));
    expect(entry).toMatchObject({
      status: 429,
      error_code: 'RATE_LIMITED',
      rate_limit: 'limited',
      key_id: expect.stringMatching(/^[0-9a-f]{8}$/),
    });
    for (const line of lines) expect(line).not.toContain(SECOND_KEY);
  });
});

describe('enforceRateLimit', () => {
  async function sha256Hex(text: string): Promise<string> {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }

  it('hands the binding the hash of the key, never the key', async () => {
    const seen: string[] = [];
    const recording: RateLimiter = {
      limit: (o) => {
        seen.push(o.key);
        return env.RATE_LIMITER!.limit(o);
      },
    };
    const hash = await sha256Hex('yet-another-key');
    expect(await enforceRateLimit(recording, hash, 60)).toBe('allowed');
    expect(seen).toEqual([`key:${hash}`]);
  });

  it('fails open, with the outcome named, when the binding is absent or throws', async () => {
    expect(await enforceRateLimit(undefined, 'ab', 60)).toBe('no_binding');
    const broken: RateLimiter = { limit: () => Promise.reject(new Error('limiter unreachable')) };
    expect(await enforceRateLimit(broken, 'ab', 60)).toBe('limiter_error');
  });
});
