import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src';
import { dropIsolateCache } from '../../src/router';
import { API_KEY, BASE } from './helpers';
import { keyOf, uploadVersion } from './index-versions';

/**
 * The Cache API layer between the isolate's artifact cache and R2 (src/adapters/edge-cache.ts), in miniflare's
 * implementation of it. A dropped isolate cache stands for a fresh isolate in the same colo.
 */
let lines: any[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(JSON.parse(String(line))));
});
afterEach(() => vi.restoreAllMocks());

const BODY = { query: 'revenue of Quillvale in FY2023', mode: 'research', metadata_filters: { sec_ticker: 'QVLT' } };

async function ask(vars: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}/query`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(BODY),
  });
  const res = await worker.fetch(
    request as Request<unknown, IncomingRequestCfProperties>,
    { ...env, POINTER_TTL_SECONDS: '0', ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx); // the edge puts run through waitUntil
  return { status: res.status, json: (await res.json()) as any, log: lines.at(-1) };
}

const edgeUrl = (version: string, file: string) => `https://index.invalid/${keyOf(version, file)}`;

describe('Cache API in front of R2', () => {
  it(`a fresh isolate reads every verified object but the manifest from the colo cache, with the same \
answer`, async () => {
    await uploadVersion('edge-v1');
    dropIsolateCache();
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.log.edge_cache_hits).toBe(0);
    expect(first.log.objects_read).toBeGreaterThan(2);
    expect(first.log.ranges_read).toBeGreaterThan(0);

    dropIsolateCache();
    const second = await ask();
    expect(second.status).toBe(200);
    // Whole objects and shard heads (with their codes) come from the colo cache (the manifest always from R2);
    // postings and records, ranges that depend on the query, are read from R2 and never put in the colo cache.
    expect(second.log.edge_cache_hits).toBeGreaterThanOrEqual(second.log.artifacts_loaded - 1);
    expect(second.log.edge_cache_hits).toBeLessThan(second.log.objects_read);
    expect(second.json.evidence).toBe(first.json.evidence);
  });

  it(`a newly published version reads its unchanged shards and issuer tables from the colo cache (stored by \
content)`, async () => {
    await uploadVersion('edge-v5a');
    dropIsolateCache();
    expect((await ask()).status).toBe(200);
    await uploadVersion('edge-v5b'); // the next version: same shards and tables, its own directory and term blocks
    dropIsolateCache();
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.log.shards_loaded).toBeGreaterThan(0);
    // its shard heads and QVLT's table
    expect(res.log.edge_cache_hits).toBeGreaterThanOrEqual(res.log.shards_loaded + 1);
    // R2: its directory and term blocks
    expect(res.log.objects_read - res.log.edge_cache_hits - 1).toBeGreaterThanOrEqual(2);
  });

  it('a copy that fails its seal is dropped and R2 is read instead', async () => {
    await uploadVersion('edge-v2');
    dropIsolateCache();
    await ask();
    const cache = await caches.open('filing-evidence-index');
    expect(await cache.match(edgeUrl('edge-v2', 'directory.bin'))).toBeDefined();
    const object = await env.INDEX_BUCKET.get(keyOf('edge-v2', 'directory.bin'));
    const bytes = new Uint8Array(await object!.arrayBuffer());
    bytes[bytes.length - 1]! ^= 0xff;
    await cache.put(
      edgeUrl('edge-v2', 'directory.bin'),
      new Response(bytes, { headers: { 'cache-control': 'max-age=3600' } }),
    );

    dropIsolateCache();
    const res = await ask();
    expect(res.status).toBe(200);
    // Read: the manifest (R2), the corrupt copy, R2's directory, every other object (shard ranges aside, see above)
    // from the colo cache.
    expect(res.log.edge_cache_hits).toBeGreaterThanOrEqual(res.log.objects_read - 3 - res.log.ranges_read);
    expect(res.log.edge_cache_hits).toBeLessThanOrEqual(res.log.objects_read - 3);
    // The corrupt copy counts as a read but not a hit; R2's copy replaces it in the colo cache.
    const repaired = new Uint8Array(await (await cache.match(edgeUrl('edge-v2', 'directory.bin')))!.arrayBuffer());
    expect(repaired[repaired.length - 1]).toBe(bytes[bytes.length - 1]! ^ 0xff);
  });

  it(`ARTIFACT_CACHE_SCOPE=request: every request reads what a fresh isolate reads, and the isolate keeps \
nothing`, async () => {
    await uploadVersion('edge-v4');
    dropIsolateCache();
    const vars = { ARTIFACT_CACHE_SCOPE: 'request', EDGE_CACHE: 'off' };
    const first = await ask(vars);
    const second = await ask(vars);
    expect(second.status).toBe(200);
    expect(first.log.objects_read).toBeGreaterThan(2);
    expect(second.log.artifacts_loaded).toBe(first.log.artifacts_loaded);
    expect(second.log.evidence_count).toBe(first.log.evidence_count);
    // The isolate's own cache was left empty: the next request with it loads every artifact again.
    expect((await ask({ EDGE_CACHE: 'off' })).log.artifacts_loaded).toBe(first.log.artifacts_loaded);
  });

  it('EDGE_CACHE=off reads R2 only', async () => {
    await uploadVersion('edge-v3');
    dropIsolateCache();
    await ask();
    dropIsolateCache();
    const res = await ask({ EDGE_CACHE: 'off' });
    expect(res.status).toBe(200);
    expect(res.log.edge_cache_hits).toBe(0);
  });
});
