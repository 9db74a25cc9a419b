// Shard range reads (docs/RANGE-READS.md) against their slow twin, whole-object reads: the same responses, fewer
// bytes; and the pieces they rest on (CRC-32, the block reads, checksum failures).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexReader } from '../../index-format/index-reader';
import { runQuery } from '../../src/core/run-query';
import { RangeChecksumError } from '../../index-format/partitioned-reader';
import { crc32 } from '../../index-format/crc32';
import { blockReads, spanReads } from '../../index-format/shard-layout';
import { ResearchRequest } from '../../src/schema/request';
import { normalizeQuery } from '../../index-format/normalize';
import { openFileIndex } from '../support/file-index';
import { buildSample } from '../support/sample-build';

/** The slow twin of crc32: the bitwise table algorithm, written out. */
function tableCrc32(bytes: Uint8Array): number {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of bytes) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

describe('crc32', () => {
  it('matches the standard check value', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('equals the table algorithm on any bytes, including views into a larger buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.nat(16), (bytes, skip) => {
        const view = bytes.subarray(Math.min(skip, bytes.length));
        expect(crc32(view)).toBe(tableCrc32(view));
      }),
      { numRuns: 200 },
    );
  });
});

describe('blockReads', () => {
  it(
    'covers every wanted byte with whole blocks, in order, never overlapping, merging reads at most ' +
      '`gap` blocks apart',
    () => {
      const span = fc.tuple(fc.nat(20_000), fc.nat(3_000)).map(([a, n]) => [a, a + n] as const);
      fc.assert(
        fc.property(
          fc.array(span, { maxLength: 40 }),
          fc.integer({ min: 1, max: 4096 }),
          fc.nat(2),
          (spans, block, gap) => {
            const reads = blockReads(spans, block, gap);
            for (const [a, b] of spans) {
              if (b <= a) continue;
              expect(reads.some((r) => r.first * block <= a && (r.last + 1) * block >= b)).toBe(true);
            }
            for (let i = 1; i < reads.length; i++)
              expect(reads[i]!.first).toBeGreaterThan(reads[i - 1]!.last + 1 + gap);
            for (const r of reads) expect(r.last).toBeGreaterThanOrEqual(r.first);
          },
        ),
        { numRuns: 300 },
      );
    },
  );
});

describe('spanReads', () => {
  it('covers every span exactly, merges spans within the gap, and merges the closest reads down to maxReads', () => {
    const span = fc.tuple(fc.nat(50_000), fc.integer({ min: 1, max: 2_000 })).map(([a, n]) => [a, a + n] as const);
    fc.assert(
      fc.property(
        fc.array(span, { maxLength: 60 }),
        fc.nat(1_000),
        fc.integer({ min: 1, max: 20 }),
        (spans, gap, maxReads) => {
          const reads = spanReads(spans, gap, maxReads);
          for (const [a, b] of spans) expect(reads.some((r) => r.from <= a && r.to >= b)).toBe(true);
          expect(reads.length).toBeLessThanOrEqual(Math.max(1, maxReads));
          for (let i = 1; i < reads.length; i++) expect(reads[i]!.from).toBeGreaterThan(reads[i - 1]!.to + gap);
          // Exact: every read starts and ends on a span's edge.
          for (const r of reads) {
            expect(spans.some(([a]) => a === r.from)).toBe(true);
            expect(spans.some(([, b]) => b === r.to)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('range reads vs whole-object reads on the sample index', () => {
  let sample: Awaited<ReturnType<typeof buildSample>>;
  beforeAll(async () => {
    sample = await buildSample();
  });
  afterAll(() => sample.dispose());

  const QUESTIONS = [
    'What was Quillvale capital expenditure in fiscal 2023?',
    'Quillvale cost of sales and gross margin in fiscal 2023',
    'How did Zenhoff describe its legal proceedings?',
    'Zenhoff total current assets',
  ];

  it('give byte-identical responses in every mode, and a cold query reads fewer bytes', async () => {
    let rangeBytes = 0;
    let wholeBytes = 0;
    for (const mode of ['research', 'basic', 'agentic_research'] as const) {
      for (const query of QUESTIONS) {
        // Fresh readers: each query cold, as a fresh isolate in a colo with nothing cached.
        const ranges = openFileIndex(sample.result.dir, { onRead: (_, n) => (rangeBytes += n) });
        const whole = openFileIndex(sample.result.dir, { shardReads: 'whole', onRead: (_, n) => (wholeBytes += n) });
        const req = ResearchRequest.parse({ query, mode, retrieval: { max_evidence_tokens: 2000 } });
        const valid = { ...req, normalizedQuery: normalizeQuery(req.query) };
        const a = await runQuery(ranges, valid);
        const b = await runQuery(whole, valid);
        expect(JSON.stringify(a.body), `${mode}: ${query}`).toBe(JSON.stringify(b.body));
      }
    }
    expect(rangeBytes).toBeGreaterThan(0);
    expect(rangeBytes).toBeLessThan(wholeBytes);
  });

  it(`read only the records of the chains a token budget may keep, and answer as when every chain is \
read`, async () => {
    let budgetBytes = 0;
    let everyBytes = 0;
    for (const mode of ['research', 'basic', 'agentic_research'] as const) {
      for (const query of QUESTIONS) {
        for (const cap of [300, 900, 2000, null]) {
          const budget = openFileIndex(sample.result.dir, { onRead: (_, n) => (budgetBytes += n) });
          const every = openFileIndex(sample.result.dir, { onRead: (_, n) => (everyBytes += n) });
          const req = ResearchRequest.parse({ query, mode, retrieval: { max_evidence_tokens: cap } });
          const valid = { ...req, normalizedQuery: normalizeQuery(req.query) };
          const a = await runQuery(budget, valid);
          const b = await runQuery(every, valid, { recordReads: 'every_chain' });
          expect(JSON.stringify(a.body), `${mode} ${cap}: ${query}`).toBe(JSON.stringify(b.body));
        }
      }
    }
    expect(budgetBytes).toBeLessThan(everyBytes);
  });

  it('answer the same from a reader that earlier requests filled in as from a cold one', async () => {
    // A warm isolate holds parts other requests read (records, posting lists); chains are drafted from the head and
    // redrafted once records arrive, so what is already cached must not change the response.
    const warm = openFileIndex(sample.result.dir);
    const request = (query: string, mode: 'research' | 'basic' | 'agentic_research') => {
      const req = ResearchRequest.parse({ query, mode, retrieval: { max_evidence_tokens: 2000 } });
      return { ...req, normalizedQuery: normalizeQuery(req.query) };
    };
    const modes = ['research', 'basic', 'agentic_research'] as const;
    for (const mode of modes) for (const query of QUESTIONS) await runQuery(warm, request(query, mode));
    for (const mode of modes) {
      for (const query of [...QUESTIONS].reverse()) {
        const cold = await runQuery(openFileIndex(sample.result.dir), request(query, mode));
        const again = await runQuery(warm, request(query, mode));
        expect(JSON.stringify(again.body), `${mode}: ${query}`).toBe(JSON.stringify(cold.body));
      }
    }
  });

  it('answer the same whatever order concurrent passes read in (reads resolved after random delays)', async () => {
    // A request's passes run at once and fill the same shards' parts; when each read lands must not matter.
    let seed = 12345;
    const delay = () =>
      new Promise((resolve) => setTimeout(resolve, (seed = (seed * 1103515245 + 12345) % 2147483648) % 3));
    const jittered = (reader: IndexReader): IndexReader =>
      new Proxy(reader, {
        get(target, key) {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          return async (...args: unknown[]) => {
            await delay();
            const out = await (value as (...a: unknown[]) => unknown).apply(target, args);
            await delay();
            return out;
          };
        },
      });
    for (const mode of ['research', 'basic', 'agentic_research'] as const) {
      for (const query of QUESTIONS) {
        const req = ResearchRequest.parse({ query, mode, retrieval: { max_evidence_tokens: 2000 } });
        const valid = { ...req, normalizedQuery: normalizeQuery(req.query) };
        const plain = await runQuery(openFileIndex(sample.result.dir), valid);
        const shuffled = await runQuery(jittered(openFileIndex(sample.result.dir)), valid);
        expect(JSON.stringify(shuffled.body), `${mode}: ${query}`).toBe(JSON.stringify(plain.body));
      }
    }
  });

  it(`read a part once when callers ask for it at the same time (concurrent passes), as one caller alone \
would`, async () => {
    const { index } = sample.shard('QVLT-FY2023');
    const readsOf = async (callers: number) => {
      const reads: string[] = [];
      const reader = openFileIndex(sample.result.dir, {
        latencyMs: 5,
        onRead: (file, bytes, offset) => reads.push(`${file}@${offset}+${bytes}`),
      });
      const head = await reader.shard(index);
      reads.length = 0;
      const terms = [0, 5, 9].map((t) => head.terms.line(t));
      const need = { terms, records: [0, 1, 7] };
      // The second caller overlaps the first: one asks for part of the same, the other for all of it.
      await Promise.all(
        Array.from({ length: callers }, (_, k) =>
          reader.shardParts(index, k % 2 ? { terms: terms.slice(1), records: [7] } : need),
        ),
      );
      return reads;
    };
    const alone = await readsOf(1);
    const together = await readsOf(3);
    expect(alone.length).toBeGreaterThanOrEqual(2); // postings and records (the codes come with the head)
    expect(together.sort()).toEqual(alone.sort());
  });

  it('fails a read whose block does not match its checksum, and a truncated shard', async () => {
    const dir = sample.result.dir;
    const reader = openFileIndex(dir);
    const { index } = sample.shard('QVLT-FY2023');
    const file = join(dir, sample.catalog.shards[index]!.file);
    const good = readFileSync(file);
    const shard = await reader.shard(index);
    const layout = shard.parts!.layout;
    try {
      const corrupt = Buffer.from(good);
      corrupt[layout.records.start + 10]! ^= 0xff;
      writeFileSync(file, corrupt);
      await expect(openFileIndex(dir).shardParts(index, { records: [0] })).rejects.toBeInstanceOf(RangeChecksumError);
      const firstTerm = [shard.terms.line(0)];
      // other blocks intact
      await expect(openFileIndex(dir).shardParts(index, { terms: firstTerm })).resolves.toBeDefined();
      writeFileSync(file, good.subarray(0, layout.postings.start + 5));
      await expect(openFileIndex(dir).shardParts(index, { terms: firstTerm })).rejects.toBeInstanceOf(
        RangeChecksumError,
      );
    } finally {
      writeFileSync(file, good);
    }
  });
});
