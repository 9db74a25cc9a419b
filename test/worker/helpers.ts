import { env, exports } from 'cloudflare:workers';
import { inject } from 'vitest';

export const API_KEY = 'local-dev-key';
export const BASE = 'https://evidence.test/v2/sp500';

function fromBase64(data: string): Uint8Array {
  const bin = atob(data);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Fills local R2/KV with the sample index the real builder produced in globalSetup: objects first, pointer last. */
export async function seedSampleIndex(): Promise<{ version: string }> {
  const index = inject('sampleIndex');
  for (const o of index.objects) await env.INDEX_BUCKET.put(o.key, fromBase64(o.data));
  await env.INDEX_KV.put(index.pointerKey, index.version);
  return { version: index.version };
}

export async function call(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-api-key', init.key ?? API_KEY);
  return exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

export async function query(body: unknown, key?: string | null): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await call('/query', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    key,
  });
  return { status: res.status, json: await res.json(), headers: res.headers };
}
