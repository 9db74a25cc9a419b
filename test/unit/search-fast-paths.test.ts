// The retrieval fast paths against their slow twins: topK's bounded heap against sorting everything, and the
// request's cosine memo against computing every cosine afresh.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topK, type ScoredStatement } from '../../src/search/lexical';
import { requestMemo, retrieve } from '../../src/search/retrieve';
import { EFFORT_PLANS } from '../../src/search/plan';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';

const sortAll = (items: ScoredStatement[], k: number) => [...items].sort((a, b) => b.score - a.score || a.local - b.local).slice(0, k);

describe('topK', () => {
  it('gives what sorting everything gives, ties and small k included', () => {
    const item = fc.record({ local: fc.nat(5000), score: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1, max: 1, noNaN: true })) });
    fc.assert(
      fc.property(fc.uniqueArray(item, { selector: (x) => x.local, maxLength: 2000 }), fc.nat(300), (items, k) => {
        expect(topK(items.map((x) => ({ ...x })), k)).toEqual(sortAll(items, k));
      }),
      { numRuns: 300 },
    );
  });
});

describe('retrieve with a request memo (cosines, row-label terms)', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  it('gives the same hits as without one, pass after pass under different filters', async () => {
    const reader = openFileIndex(sample.result.dir);
    const catalog = await reader.scope(['QVLT', 'ZNHF']);
    const memo = requestMemo();
    const passes = [
      [],
      [{ field: 'sec_fiscal_year' as const, op: 'eq' as const, values: ['FY-2023'] }],
      [{ field: 'sec_ticker' as const, op: 'eq' as const, values: ['QVLT'] }],
    ];
    for (const text of ['cost of sales and gross margin', 'purchases of property, plant and equipment']) {
      for (const conditions of passes) {
        const fresh = await retrieve(reader, catalog, text, conditions, EFFORT_PLANS.medium);
        const memoized = await retrieve(reader, catalog, text, conditions, EFFORT_PLANS.medium, undefined, memo);
        expect(memoized.hits).toEqual(fresh.hits);
      }
    }
    expect(memo.cosines.size).toBeGreaterThan(0);
  });
});
