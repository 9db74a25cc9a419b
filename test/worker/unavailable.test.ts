import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/router';
import { expectEnvelope, get, query } from './helpers';

describe('error envelope without a published index', () => {
  it('answers 503 INDEX_UNAVAILABLE when no version is published', async () => {
    const { status, json } = await query({ query: 'revenue' });
    expect(status).toBe(503);
    expect(json).toMatchObject({
      status_code: 503,
      detail: { code: 'INDEX_UNAVAILABLE', reason: 'no_published_version' },
    });
  });

  it('validates requests before any index I/O: a bad request is a 422, never a 503', async () => {
    expectEnvelope(
      (await query({ query: 'revenue', mode: 'research', metadata_filters: { report_filing_date: '2023-02-30' } }))
        .json,
      422,
      'INVALID_FILTER',
    );
    expectEnvelope(
      (await query({ query: 'revenue', mode: 'research', metadata_filters: { sec_ticker: Array(101).fill('A') } }))
        .json,
      422,
      'FILTER_LIMIT_EXCEEDED',
    );
    expectEnvelope(
      (await query({ query: 'revenue', metadata_filters: { sec_ticker: 'A' } })).json,
      422,
      'FILTERS_NOT_ALLOWED_IN_BASIC_MODE',
    );
    expectEnvelope((await get('/metadata-filters?field=nope')).json, 422, 'INVALID_PARAMETER');
    expect((await get('/metadata-filters')).status).toBe(503);
  });

  it('turns an unexpected exception into a 500 INTERNAL envelope without its message or stack', async () => {
    const res = errorResponse(new TypeError('secret internals at foo.ts:12'), {
      requestId: 'r1',
      started: 0,
      load: { loaded: [], cacheHits: 0 },
      log: {},
    });
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({
      status_code: 500,
      message: 'Internal server error.',
      detail: { code: 'INTERNAL', request_id: 'r1' },
    });
  });
});
