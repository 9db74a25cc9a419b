import { createExecutionContext, env } from 'cloudflare:test';
import { inject } from 'vitest';
import worker from '../../src';
import { getIsolateCache } from '../../src/router';
import { API_KEY, BASE } from './helpers';
import { storedKey } from '../../index-format/keys';
import type { StoredRef } from '../../index-format/types';

/** The sample index the real builder produced in globalSetup, decoded once. */
function sample() {
  const index = inject('sampleIndex');
  const files = new Map<string, Uint8Array>();
  const refs = new Map<string, StoredRef>();
  for (const o of index.objects) {
    const bin = atob(o.data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    files.set(o.file, bytes);
    refs.set(o.file, { file: o.file, ...(o.content_id ? { content_id: o.content_id } : {}) });
  }
  return { domain: index.domain, pointerKey: index.pointerKey, files, refs };
}

export const SAMPLE = sample();

/**
 * The R2 key of a file of a version: under the version, or (shards, graphs, issuer tables) under its content, a key
 * every version holding the same bytes shares.
 */
export const keyOf = (version: string, file: string) =>
  storedKey(SAMPLE.domain, version, SAMPLE.refs.get(file) ?? { file });

/**
 * Uploads the sample index under a new version name (the manifest's version field rewritten, every artifact
 * byte-identical), so each test starts from artifacts no earlier test has cached in this isolate (its cache keys by
 * version). `skip` leaves files out (a half-finished upload: objects stored by content that an earlier version
 * uploaded are there all the same); `missing` deletes them from the bucket (a lost object, for every version that
 * shares it); `pointer: false` leaves the KV pointer alone (a publish that stopped before the end).
 */
export async function uploadVersion(
  version: string,
  opts: { skip?: string[]; missing?: string[]; pointer?: boolean } = {},
): Promise<void> {
  for (const [file, bytes] of SAMPLE.files) {
    if (file === 'manifest.json') continue;
    if (opts.missing?.includes(file)) await env.INDEX_BUCKET.delete(keyOf(version, file));
    else if (!opts.skip?.includes(file)) await env.INDEX_BUCKET.put(keyOf(version, file), bytes);
  }
  if (!opts.skip?.includes('manifest.json')) {
    const manifest = JSON.parse(new TextDecoder().decode(SAMPLE.files.get('manifest.json')!));
    manifest.version = version;
    await env.INDEX_BUCKET.put(keyOf(version, 'manifest.json'), JSON.stringify(manifest));
  }
  if (opts.pointer !== false) await setPointer(version);
}

export async function setPointer(version: string): Promise<void> {
  await env.INDEX_KV.put(SAMPLE.pointerKey, version);
}

/** Shard file of a ticker and fiscal year, e.g. shards/ZNHF-FY2023.bin. */
export function shardFile(ticker: string, fy: number): string {
  const file = `shards/${ticker}-FY${fy}.bin`;
  if (!SAMPLE.files.has(file)) throw new Error(`no ${file} in the sample index`);
  return file;
}

type Vars = Partial<Record<'POINTER_TTL_SECONDS' | 'EDGE_CACHE' | 'SHARD_READS', string>>;

/**
 * Calls the Worker's fetch handler with extra vars (e.g. POINTER_TTL_SECONDS): the same handler `exports.default`
 * serves, in the test file's isolate (so the same artifact cache).
 */
export async function fetchWith(
  path: string,
  init: RequestInit,
  vars: Vars = {},
): Promise<{ status: number; json: any }> {
  const headers = new Headers(init.headers);
  headers.set('x-api-key', API_KEY);
  const request = new Request(`${BASE}${path}`, { ...init, headers });
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, ...vars },
    createExecutionContext(),
  );
  return { status: res.status, json: await res.json() };
}

export const queryWith = (body: unknown, vars: Vars = {}) =>
  fetchWith(
    '/query',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    vars,
  );

/** Starts a test with no memoized pointer in this isolate, whatever earlier tests read. */
export function forgetPointerMemo(): void {
  getIsolateCache(env).delete(`pointer:${SAMPLE.domain}`);
}
