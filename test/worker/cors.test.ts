import { beforeAll, describe, expect, it } from 'vitest';
import { call, query, seedSampleIndex } from './helpers';

beforeAll(async () => {
  await seedSampleIndex();
});

const ORIGIN = { origin: 'https://notebook.example' };

describe('CORS', () => {
  it('answers a preflight with 204 and the policy, without an API key, on both operations', async () => {
    for (const [path, method] of [
      ['/query', 'POST'],
      ['/metadata-filters', 'GET'],
    ] as const) {
      const res = await call(path, {
        method: 'OPTIONS',
        key: null,
        headers: {
          ...ORIGIN,
          'access-control-request-method': method,
          'access-control-request-headers': 'content-type, x-api-key',
        },
      });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, X-API-Key');
      expect(res.headers.get('access-control-max-age')).toBe('86400');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull(); // no cookies: keys travel in a header
    }
  });

  it('allows any origin on answers and errors alike, and exposes X-Request-Id and Retry-After', async () => {
    const ok = await call('/metadata-filters', { headers: ORIGIN });
    const unauthorized = await call('/metadata-filters', { headers: ORIGIN, key: 'wrong' });
    const notFound = await call('/nowhere', { headers: ORIGIN });
    const invalid = await call('/query', {
      method: 'POST',
      headers: { ...ORIGIN, 'content-type': 'application/json' },
      body: '{"query": 1}',
    });
    expect([ok.status, unauthorized.status, notFound.status, invalid.status]).toEqual([200, 401, 404, 422]);
    for (const res of [ok, unauthorized, notFound, invalid]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id, Retry-After');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('keeps a POST answer byte-identical to one without CORS (headers only)', async () => {
    const a = await query({ query: 'net sales' });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(a.headers.get('access-control-allow-origin')).toBe('*');
  });
});
