import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/router';
import { query } from './helpers';

describe('error envelope without a published index', () => {
  it('answers 503 INDEX_UNAVAILABLE when no version is published', async () => {
    const { status, json } = await query({ query: 'revenue' });
    expect(status).toBe(503);
    expect(json).toMatchObject({ status_code: 503, detail: { code: 'INDEX_UNAVAILABLE', reason: 'no_published_version' } });
  });

  it('turns an unexpected exception into a 500 INTERNAL envelope without its message or stack', async () => {
    const res = errorResponse(new TypeError('secret internals at foo.ts:12'), { requestId: 'r1', started: 0, load: { loaded: [], cacheHits: 0 }, log: {} });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ status_code: 500, message: 'Internal server error.', detail: { code: 'INTERNAL', request_id: 'r1' } });
  });
});
