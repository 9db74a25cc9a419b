import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEY, call, query, seedSampleIndex } from './helpers';

/** The Worker's log lines during one test (console.log is the Workers logging channel). */
let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
});
afterEach(() => vi.restoreAllMocks());

function lineOf(requestId: string | null): any {
  const matching = lines.map((l) => JSON.parse(l)).filter((l) => l.request_id === requestId);
  expect(matching).toHaveLength(1); // exactly one line per request
  return matching[0];
}

const SECRET_WORDS = 'zebrafinch quillvale purchases';

describe('structured request logs', () => {
  it('name the reason of a 503 (before any index is published)', async () => {
    const res = await query({ query: SECRET_WORDS });
    expect(res.status).toBe(503);
    expect(lineOf(res.headers.get('x-request-id'))).toMatchObject({
      level: 'error',
      status: 503,
      error_code: 'INDEX_UNAVAILABLE',
      reason: 'no_published_version',
    });
  });

  it('carry request id, mode, effort, stage timings, shards loaded, cache hits and bytes for a query', async () => {
    await seedSampleIndex();
    const body = {
      query: `${SECRET_WORDS} of Quillvale in FY2023`,
      mode: 'research',
      effort: 'high',
      metadata_filters: { sec_ticker: 'QVLT' },
    };
    const cold = await query(body);
    expect(cold.status).toBe(200);
    const first = lineOf(cold.headers.get('x-request-id'));
    expect(first).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/v2/sp500/query',
      status: 200,
      mode: 'research',
      effort: 'high',
      key_id: expect.stringMatching(/^[0-9a-f]{8}$/),
      rate_limit: 'allowed',
      shape: 'descriptive', // the question's shape from its analysis: names no metric and asks for no number
      searched_shards: expect.any(Number),
      evidence_count: cold.json.summary.evidence_count,
    });
    expect(Object.keys(first.timings_ms).sort()).toEqual(['auth', 'load', 'parse', 'rate_limit', 'retrieve_render']);
    for (const ms of Object.values(first.timings_ms)) expect(ms).toBeGreaterThanOrEqual(0);
    expect(first.shards_loaded).toBeGreaterThan(0);
    // manifest, directory, issuer table, term blocks too
    expect(first.artifacts_loaded).toBeGreaterThan(first.shards_loaded);
    // Every object read (the manifest included) counts, from R2 or the colo's Cache API.
    expect(first.objects_read).toBe(first.artifacts_loaded + first.ranges_read);
    expect(first.ranges_read).toBeGreaterThan(0);
    expect(first.storage_bytes).toBeGreaterThan(0);
    expect(first.cache_bytes).toBeGreaterThan(0);
    expect(first.cache_bytes).toBeLessThanOrEqual(first.cache_budget);

    // Warm: the same query loads nothing and hits the cache; bytes do not grow.
    const warm = await query(body);
    const second = lineOf(warm.headers.get('x-request-id'));
    expect(second.shards_loaded).toBe(0);
    expect(second.artifacts_loaded).toBe(0);
    expect(second.storage_bytes).toBe(0);
    expect(second.objects_read).toBe(0);
    expect(second.cache_hits).toBeGreaterThan(0);
    expect(second.cache_bytes).toBe(first.cache_bytes);
  });

  it('never contain the API key, the query text or filter values, on success or failure', async () => {
    await seedSampleIndex();
    const requests = [
      query({ query: SECRET_WORDS, mode: 'research', metadata_filters: { sec_ticker: 'Quillvale' } }),
      query({ query: SECRET_WORDS, mode: 'agentic_research' }),
      query({ query: SECRET_WORDS, nope: true }), // 422 naming the unknown key
      query(`{"query": "${SECRET_WORDS}"`), // malformed JSON
      query({ query: SECRET_WORDS }, 'zebrafinch-wrong-key'), // 401
      call('/metadata-filters?field=sec_ticker&include_values=true'),
    ];
    const statuses = (await Promise.all(requests)).map((r) => r.status);
    expect(statuses).toEqual([200, 200, 422, 422, 401, 200]);
    expect(lines).toHaveLength(requests.length);
    for (const line of lines) {
      expect(line).not.toContain(API_KEY);
      expect(line).not.toContain('zebrafinch');
      expect(line.toLowerCase()).not.toContain('quillvale');
      expect(line).not.toContain('include_values'); // no query string
    }
  });
});
