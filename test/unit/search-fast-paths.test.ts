// The retrieval fast paths against their slow twins: topK's bounded heap against sorting everything, and the
// binary-code scan of the vector leg against the exact int8 scan.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topK, type ScoredStatement } from '../../src/search/lexical';
import type { Shard } from '../../src/format/types';
import { codeScorer, searchVectorCodes, searchVectorExact } from '../../src/search/vector';
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

describe('the code scan against the exact scan (its slow twin)', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  it('scores each code by its byte tables as the per-dimension formula does', () => {
    const { shard } = sample.shard('QVLT-FY2023');
    const query = embedTokens(shard, 0);
    const scorer = codeScorer(shard, query);
    const width = shard.dim / 8;
    for (let local = 0; local < shard.count; local += 7) {
      let direct = 0;
      for (let d = 0; d < shard.dim; d++) {
        const bit = (shard.codes[local * width + (d >> 3)]! >> (d & 7)) & 1;
        direct += query[d]! * (shard.codeMean[d]! + (bit ? 1 : -1) * shard.codeScale[d]!);
      }
      expect(scorer.score(local)).toBeCloseTo(direct / 127, 9);
    }
  });

  it('finds most of the exact top statements, and its approximate scores follow the exact cosines', () => {
    let found = 0;
    let wanted = 0;
    for (const id of ['QVLT-FY2023', 'ZNHF-FY2022']) {
      const { shard } = sample.shard(id);
      for (let k = 0; k < 20; k++) {
        const query = embedTokens(shard, k * 11);
        const exact = searchVectorExact(shard, query, () => true, 20).map((h) => h.local);
        const codes = new Set(searchVectorCodes(shard, query, () => true, 40).map((h) => h.local));
        wanted += exact.length;
        found += exact.filter((l) => codes.has(l)).length;
      }
    }
    expect(wanted).toBeGreaterThan(0);
    expect(found / wanted).toBeGreaterThanOrEqual(0.8);
  });
});

/** A query vector: a statement's own int8 vector as floats, unit length (a query close to real statements). */
function embedTokens(shard: Shard, local: number): Float32Array {
  const v = Float32Array.from(shard.vectors.subarray(local * shard.dim, (local + 1) * shard.dim));
  let norm = 0;
  for (const x of v) norm += x * x;
  return v.map((x) => x / Math.sqrt(norm || 1));
}
