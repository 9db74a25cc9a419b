import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, requireApiKey } from '../../src/auth';
import { ApiError } from '../../src/errors';
import { API_KEY, call } from './helpers';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const withKey = (key: string) => new Request('https://evidence.test/', { headers: { 'x-api-key': key } });

async function status(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? err.code : 'other';
  }
}

describe('API keys', () => {
  it('are configured only as SHA-256 hashes: the configured hash itself is not a key', async () => {
    const configured = env.API_KEY_HASHES!;
    expect(configured).toBe(await sha256Hex(API_KEY));
    const res = await call('/metadata-filters', { key: configured });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).detail.code).toBe('UNAUTHORIZED');
  });

  it(`accept any configured hash (case and spaces ignored), ignore malformed entries, and fail closed on an empty \
list`, async () => {
    const hash = await sha256Hex('k1');
    const list = ` not-a-hash , ${(await sha256Hex('k2')).toUpperCase()} ,${hash},`;
    expect(await requireApiKey(withKey('k1'), list)).toBe(hash);
    expect(await status(requireApiKey(withKey('k2'), list))).toBe('ok');
    expect(await status(requireApiKey(withKey('k3'), list))).toBe('UNAUTHORIZED');
    expect(await status(requireApiKey(withKey('not-a-hash'), list))).toBe('UNAUTHORIZED');
    expect(await status(requireApiKey(withKey('k1'), ''))).toBe('UNAUTHORIZED');
    expect(await status(requireApiKey(withKey('k1'), undefined))).toBe('UNAUTHORIZED');
  });

  it('compare digests without an early exit, whatever position differs', () => {
    const a = 'a'.repeat(64);
    expect(constantTimeEqual(a, a)).toBe(true);
    expect(constantTimeEqual(a, `b${a.slice(1)}`)).toBe(false);
    expect(constantTimeEqual(a, `${a.slice(0, 63)}b`)).toBe(false);
    expect(constantTimeEqual(a, a.slice(1))).toBe(false);
  });

  it('answer the same 401 envelope for a near miss, a huge key and odd bytes, never a 5xx', async () => {
    const keys = [
      `${API_KEY}x`,
      API_KEY.slice(0, -1),
      API_KEY.toUpperCase(),
      'k'.repeat(16_000),
      'k\u00ff\u00fe',
      '%00',
      '\t',
    ];
    const messages = new Set<string>();
    for (const key of keys) {
      const res = await call('/metadata-filters', { key });
      expect(res.status).toBe(401);
      const body = (await res.json()) as any;
      expect(body.detail.code).toBe('UNAUTHORIZED');
      messages.add(body.message);
    }
    expect(messages.size).toBe(1);
  });
});
