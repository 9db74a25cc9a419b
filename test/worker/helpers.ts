import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../src';
import { expect, inject } from 'vitest';
import { openApiErrors, responseComponent } from '../support/openapi';

export const API_KEY = 'local-dev-key';
export const ORIGIN = 'https://evidence.test';
export const BASE = `${ORIGIN}/v2/sp500`;

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

/** Removes the published pointer (the index then reads as "not published"). */
export async function unpublish(): Promise<void> {
  await env.INDEX_KV.delete(inject('sampleIndex').pointerKey);
}

/**
 * Calls the Worker's own fetch handler with the test bindings, in workerd. Not `exports.default.fetch`: the pool
 * wraps each entrypoint instance in one more Proxy layer (seen with vitest-pool-workers 0.15), so after a couple of
 * thousand calls in one file every call slows down and the stack finally overflows (seen in the fuzz tests).
 */
export async function call(path: string, init: RequestInit & { key?: string | null } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key !== null) headers.set('x-api-key', init.key ?? API_KEY);
  const url = /^https?:/.test(path) ? path : `${BASE}${path}`;
  const ctx = createExecutionContext();
  const res = await worker.fetch!(
    new Request(url, { ...init, headers }) as Parameters<NonNullable<typeof worker.fetch>>[0],
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

export interface JsonResult {
  status: number;
  json: any;
  headers: Headers;
}

/**
 * Every JSON response the worker suite sees is checked against the service's own OpenAPI document: the schema
 * declared for that operation and status, or the error envelope for routes outside the document.
 */
export async function expectConforms(res: Response, method: string, url: string): Promise<JsonResult> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const json: any = await res.json();
  const path = new URL(url, BASE).pathname.replace(/^\/v2\/[^/]+/, '');
  let component = 'ErrorResponse';
  if (res.status < 400 || ['/query', '/metadata-filters', '/openapi.json', '/docs'].includes(path)) {
    try {
      component = responseComponent(method, path, res.status);
    } catch (err) {
      if (res.status < 400) throw err;
    }
  }
  if (component)
    expect(openApiErrors(component, json), `${method} ${path} ${res.status} conforms to ${component}`).toEqual([]);
  if (res.status >= 400) {
    expect(json.status_code).toBe(res.status);
    expect(JSON.stringify(json)).not.toMatch(/at \S+\.(ts|js):\d+/); // no stack traces
  }
  return { status: res.status, json, headers: res.headers };
}

export async function query(body: unknown, key?: string | null): Promise<JsonResult> {
  const res = await call('/query', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    key,
  });
  return expectConforms(res, 'POST', `${BASE}/query`);
}

export async function get(path: string, key?: string | null): Promise<JsonResult> {
  const res = await call(path, { key });
  return expectConforms(res, 'GET', /^https?:/.test(path) ? path : `${BASE}${path}`);
}

export function expectEnvelope(json: any, status: number, code: string) {
  expect(json.status_code).toBe(status);
  expect(typeof json.message).toBe('string');
  expect(json.detail.code).toBe(code);
}
