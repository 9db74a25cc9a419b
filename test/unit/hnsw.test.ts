// hnswlib-wasm (patched build in generated/hnswlib) driven through index-format/hnsw.ts in Node:
// build -> bytes -> reload -> search, compared with an exact brute-force scan.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomUnitVectors } from '../support/random-vectors';

const GENERATED = join(import.meta.dirname, '../../generated/hnswlib/');
const READY = existsSync(`${GENERATED}hnswlib.wasm`) && existsSync(`${GENERATED}hnswlib-glue.mjs`);
if (!READY) {
  console.warn('hnsw tests SKIPPED: generated/hnswlib is missing; run `node scripts/prepare-hnswlib.mjs`.');
}

// Imported lazily: index-format/hnsw.ts imports the generated glue, which may not exist.
type Hnsw = typeof import('../../index-format/hnsw');

// Node may compile wasm from bytes (workerd may not). Reached through globalThis because the
// project's tsconfig may use @cloudflare/workers-types, where WebAssembly.Module is abstract.
const compileWasm = (bytes: Uint8Array): WebAssembly.Module =>
  new (
    globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
  ).WebAssembly.Module(bytes);

const DIM = 32;
const N = 2000;
const K = 10;

/** hnswlib's distance for each space (cosine: both sides unit-normalized). */
function exactDistance(space: 'ip' | 'l2' | 'cosine', a: Float32Array, b: Float32Array): number {
  let dot = 0,
    l2 = 0,
    na = 0,
    nb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? NaN;
    dot += x * y;
    l2 += (x - y) ** 2;
    na += x * x;
    nb += y * y;
  });
  if (space === 'l2') return l2;
  if (space === 'ip') return 1 - dot;
  return 1 - dot / Math.sqrt(na * nb);
}

/** Exact top-k labels by brute force, optionally restricted to allowed labels. */
function exactTopK(
  space: 'ip' | 'l2' | 'cosine',
  vectors: Float32Array[],
  query: Float32Array,
  k: number,
  isAllowed: (label: number) => boolean = () => true,
): number[] {
  return vectors
    .map((v, label) => ({ label, d: exactDistance(space, v, query) }))
    .filter((x) => isAllowed(x.label))
    .sort((x, y) => x.d - y.d)
    .slice(0, k)
    .map((x) => x.label);
}

/** Element access that fails loudly instead of yielding undefined. */
function at<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new Error(`index ${i} out of range`);
  return item;
}

function recall(found: number[][], expected: number[][]): number {
  let hit = 0,
    total = 0;
  found.forEach((labels, i) => {
    const want = new Set(expected[i]);
    hit += labels.filter((l) => want.has(l)).length;
    total += want.size;
  });
  return hit / total;
}

describe.skipIf(!READY)('hnswlib-wasm in Node (index-format/hnsw.ts)', () => {
  let hnsw: Hnsw;
  let wasmModule: WebAssembly.Module;
  let lib: import('../../index-format/hnsw').HnswLib;
  const vectors = randomUnitVectors(N, DIM, 42);
  const queries = randomUnitVectors(50, DIM, 7);
  const opts = { space: 'cosine' as const, m: 16, efConstruction: 200, seed: 100 };
  let bytes: Uint8Array;
  let index: import('../../index-format/hnsw').HnswIndex;

  beforeAll(async () => {
    hnsw = await import('../../index-format/hnsw');
    wasmModule = compileWasm(readFileSync(`${GENERATED}hnswlib.wasm`));
    lib = await hnsw.loadHnswlib(wasmModule);
    bytes = hnsw.buildHnswIndex(lib, vectors, DIM, opts);
    index = hnsw.readHnswIndex(lib, bytes, { space: 'cosine', dim: DIM, maxElements: N });
  });

  it('serializes a graph whose header matches the input', () => {
    expect(hnsw.parseHnswHeader(bytes)).toMatchObject({ count: N, dim: DIM, m: 16, efConstruction: 200 });
    expect(index.count).toBe(N);
  });

  it('unfiltered recall@10 after reload is > 0.95 vs brute force', () => {
    const found = queries.map((q) => hnsw.searchHnsw(index, q, K, 100).labels);
    const expected = queries.map((q) => exactTopK('cosine', vectors, q, K));
    expect(recall(found, expected)).toBeGreaterThan(0.95);
  });

  it('returns distances in ascending order matching the exact metric', () => {
    const { labels, distances } = hnsw.searchHnsw(index, at(queries, 0), K, 100);
    expect(labels).toHaveLength(K);
    expect([...distances].sort((a, b) => a - b)).toEqual(distances);
    labels.forEach((label, i) => {
      expect(distances[i]).toBeCloseTo(exactDistance('cosine', at(vectors, label), at(queries, 0)), 5);
    });
  });

  it('filtered search returns only allowed labels, recall > 0.9 vs exact filtered scan', () => {
    const allowed = (label: number) => label % 7 === 0;
    const found = queries.map((q) => hnsw.searchHnsw(index, q, K, 200, allowed).labels);
    for (const labels of found) {
      expect(labels).toHaveLength(K);
      expect(labels.every(allowed)).toBe(true);
    }
    const expected = queries.map((q) => exactTopK('cosine', vectors, q, K, allowed));
    expect(recall(found, expected)).toBeGreaterThan(0.9);
  });

  it('propagates an exception thrown by the filter and stays usable', () => {
    expect(() =>
      hnsw.searchHnsw(index, at(queries, 0), K, 50, () => {
        throw new Error('filter boom');
      }),
    ).toThrow('filter boom');
    expect(hnsw.searchHnsw(index, at(queries, 0), K, 50).labels).toHaveLength(K);
  });

  it('same input and seed -> byte-identical bytes (same and fresh wasm instance)', async () => {
    const again = hnsw.buildHnswIndex(lib, vectors, DIM, opts);
    const freshLib = await hnsw.loadHnswlib(wasmModule);
    const fresh = hnsw.buildHnswIndex(freshLib, vectors, DIM, opts);
    // Flat input must give the same graph as per-vector input.
    const flat = new Float32Array(N * DIM);
    vectors.forEach((v, i) => {
      flat.set(v, i * DIM);
    });
    const fromFlat = hnsw.buildHnswIndex(freshLib, flat, DIM, opts);
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(fresh).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(fromFlat).equals(Buffer.from(bytes))).toBe(true);
  });

  it.each(['ip', 'l2', 'cosine'] as const)('space %s: exact results on a small graph', (space) => {
    const small = randomUnitVectors(200, DIM, 3);
    const smallIndex = hnsw.readHnswIndex(lib, hnsw.buildHnswIndex(lib, small, DIM, { space }), {
      space,
      dim: DIM,
      maxElements: 0,
    });
    try {
      const { labels, distances } = hnsw.searchHnsw(smallIndex, at(queries, 1), 5, 200);
      expect(labels).toEqual(exactTopK(space, small, at(queries, 1), 5));
      labels.forEach((label, i) => {
        expect(distances[i]).toBeCloseTo(exactDistance(space, at(small, label), at(queries, 1)), 5);
      });
    } finally {
      hnsw.freeHnswIndex(smallIndex);
    }
  });

  it('rejects wrong dimensions and corrupt bytes with clear errors', () => {
    expect(() => hnsw.readHnswIndex(lib, bytes, { space: 'cosine', dim: DIM + 1, maxElements: 0 })).toThrow(
      /dim 32, expected 33/,
    );
    expect(() =>
      hnsw.readHnswIndex(lib, bytes.subarray(0, 1000), { space: 'cosine', dim: DIM, maxElements: 0 }),
    ).toThrow(/truncated/);
    // One element fewer in the header: hnswlib's own file-size check must catch it.
    const corrupt = bytes.slice();
    new DataView(corrupt.buffer).setUint32(8, N - 1, true);
    expect(() => hnsw.readHnswIndex(lib, corrupt, { space: 'cosine', dim: DIM, maxElements: 0 })).toThrow(
      /readIndex failed/,
    );
    expect(() => hnsw.searchHnsw(index, new Float32Array(DIM + 1), K, 50)).toThrow(/query has dim/);
    expect(() => hnsw.buildHnswIndex(lib, [new Float32Array(DIM).fill(NaN)], DIM, opts)).toThrow(/non-finite/);
  });

  it('handles tiny and empty graphs, k larger than the graph', () => {
    const one = hnsw.readHnswIndex(lib, hnsw.buildHnswIndex(lib, vectors.slice(0, 3), DIM, opts), {
      space: 'cosine',
      dim: DIM,
      maxElements: 0,
    });
    expect(hnsw.searchHnsw(one, at(vectors, 1), 10, 10).labels.sort()).toEqual([0, 1, 2]);
    hnsw.freeHnswIndex(one);
    hnsw.freeHnswIndex(one); // idempotent
    const empty = hnsw.readHnswIndex(lib, hnsw.buildHnswIndex(lib, [], DIM, opts), {
      space: 'cosine',
      dim: DIM,
      maxElements: 0,
    });
    expect(hnsw.searchHnsw(empty, at(vectors, 0), 10, 10)).toEqual({ labels: [], distances: [] });
    hnsw.freeHnswIndex(empty);
  });

  it('frees graphs so repeated loads do not grow the wasm heap', () => {
    const before = hnsw.hnswHeapBytes(lib);
    expect(before).toBeGreaterThanOrEqual(16 * 1024 * 1024); // initial wasm memory is 16 MiB
    for (let i = 0; i < 20; i++) {
      hnsw.freeHnswIndex(hnsw.readHnswIndex(lib, bytes, { space: 'cosine', dim: DIM, maxElements: 0 }));
    }
    expect(hnsw.hnswHeapBytes(lib)).toBe(before);
  });
});
