// The partition map (index-builder/partition-map.ts): issuers packed by filing count, checked against an exhaustive
// search for the best split on small inputs (its slow twin), and the file's checks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  mapPartitions,
  partitionLoads,
  partitionMapId,
  partitionOf,
  partitionOfIssuer,
  readPartitionMap,
  writePartitionMap,
} from '../../index-builder/partition-map';
import { issuerFilingCounts, readCorpus } from '../../index-builder/segment/read-corpus';
import { tempDirs } from '../support/temp-dirs';

const tmp = tempDirs('fers-partition-map-');

/** A deterministic pseudo-random source (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const issuers = (sizes: number[]) => new Map(sizes.map((n, i) => [`T${String(i).padStart(3, '0')}`, n]));

/** The smallest possible largest partition, by trying every assignment (count^issuers; small inputs only). */
function bestLargest(sizes: number[], count: number): number {
  let best = Number.POSITIVE_INFINITY;
  const load = new Array<number>(count).fill(0);
  const place = (i: number) => {
    if (i === sizes.length) {
      best = Math.min(best, Math.max(...load));
      return;
    }
    for (let k = 0; k < count; k++) {
      load[k]! += sizes[i]!;
      if (load[k]! < best) place(i + 1);
      load[k]! -= sizes[i]!;
    }
  };
  place(0);
  return best;
}

describe('partition map', () => {
  it('packs within 4/3 of the best split and within one issuer of the mean (exhaustive search, 150 inputs)', () => {
    const next = random(20261127);
    for (let trial = 0; trial < 150; trial++) {
      const count = 2 + Math.floor(next() * 3);
      const sizes = Array.from({ length: 3 + Math.floor(next() * 6) }, () => 1 + Math.floor(next() * 60));
      const map = mapPartitions(issuers(sizes), count);
      const loads = partitionLoads(map, issuers(sizes));
      expect(loads.reduce((a, b) => a + b, 0)).toBe(sizes.reduce((a, b) => a + b, 0));
      const largest = Math.max(...loads);
      expect(largest).toBeLessThanOrEqual((4 / 3) * bestLargest(sizes, count) + 1e-9);
      const mean = loads.reduce((a, b) => a + b, 0) / count;
      expect(largest).toBeLessThanOrEqual(mean + Math.max(...sizes));
    }
  });

  it('evens out what the ticker hash leaves uneven', () => {
    // 500 issuers of 20 to 60 filings into 32 partitions, as at the S&P 500's scale.
    const next = random(7);
    const counts = new Map(Array.from({ length: 500 }, (_, i) => [`ISS${i}`, 20 + Math.floor(next() * 41)]));
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const map = mapPartitions(counts, 32);
    const hashed = new Array<number>(32).fill(0);
    for (const [t, n] of counts) hashed[partitionOf(t, 32) - 1]! += n;
    const mapped = partitionLoads(map, counts);
    expect(Math.max(...mapped) / (total / 32)).toBeLessThan(1.05);
    expect(Math.max(...hashed)).toBeGreaterThan(Math.max(...mapped));
  });

  it('is the same map whatever order the counts come in, with a stable id', () => {
    const counts = issuers([5, 9, 9, 3, 12, 1, 7]);
    const reversed = new Map([...counts].reverse());
    expect(mapPartitions(reversed, 3)).toEqual(mapPartitions(counts, 3));
    expect(partitionMapId(mapPartitions(reversed, 3))).toBe(partitionMapId(mapPartitions(counts, 3)));
    expect(partitionMapId(mapPartitions(counts, 2))).not.toBe(partitionMapId(mapPartitions(counts, 3)));
  });

  it('sends an issuer it does not name where the ticker hash does', () => {
    const map = mapPartitions(issuers([4, 4]), 4);
    expect(partitionOfIssuer('T000', map, map)).toBe(map.issuers.T000);
    expect(partitionOfIssuer('NEWCO', map, map)).toBe(partitionOf('NEWCO', 4));
    expect(partitionOfIssuer('T000', { count: 4 })).toBe(partitionOf('T000', 4));
  });

  it('reads back what it writes, and refuses a file that is not a map of the split', () => {
    const dir = tmp();
    const file = join(dir, 'maps', 'partitions.json');
    const map = mapPartitions(issuers([3, 2, 8]), 2);
    writePartitionMap(file, map);
    expect(readPartitionMap(file, { index: 1, count: 2 })).toEqual(map);
    expect(() => readPartitionMap(file, { index: 1, count: 3 })).toThrow(/into 2 partitions, not 3/);
    const bad = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return () => readPartitionMap(p);
    };
    expect(bad('a.json', '{')).toThrow(/not a readable partition map/);
    expect(bad('b.json', '{"format":"x","count":2,"issuers":{}}')).toThrow(/format is not/);
    const wrong = { ...map, issuers: { ...map.issuers, T001: 3 } };
    expect(bad('c.json', JSON.stringify(wrong))).toThrow(/T001 is given partition 3, not 1\.\.2/);
    expect(bad('d.json', JSON.stringify({ ...map, count: 0 }))).toThrow(/count is not a positive integer/);
    expect(() => mapPartitions(issuers([1]), 0)).toThrow(/count >= 1/);
  });

  it("counts each issuer's filings from metadata as the build reads them (sample corpus)", async () => {
    const sample = 'fixtures/sample-corpus/filings';
    const read = new Map<string, number>();
    for (const f of await readCorpus(sample)) read.set(f.doc.ticker, (read.get(f.doc.ticker) ?? 0) + 1);
    expect(issuerFilingCounts(sample)).toEqual(read);
  });
});
