// The per-shard choice between exact scan and HNSW graph, the graph leg's rescoring, and the cache rules that keep
// graphs (which live in the never-shrinking wasm heap) inside the isolate's memory budget.
import { binaryCodes } from '../../index-format/shard-layout';
import { codeScorer } from '../../src/search/vector';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ArtifactCache } from '../../src/adapters/artifact-cache';
import type { GraphSearchResult, HnswIndexHandle } from '../../index-format/index-reader';
import type { Shard } from '../../index-format/types';
import { EFFORT_LIMITS } from '../../src/search/effort';
import { RANKING } from '../../src/search/ranking';
import { chooseVectorStrategy, countAllowed, hnswHandle, searchVectorGraph } from '../../src/search/vector-strategy';
import { quantizeUnit } from '../../index-format/embed';

const GENERATED = new URL('../../generated/hnswlib/', import.meta.url).pathname;
const READY = existsSync(`${GENERATED}hnswlib.wasm`) && existsSync(`${GENERATED}hnswlib-glue.mjs`);

const MiB = 1024 * 1024;

describe('chooseVectorStrategy', () => {
  // [has graph, statements, allowed] -> strategy, reason
  const table: [boolean, number, number, string, string][] = [
    [false, 50_000, 50_000, 'exact_scan', 'no_graph'],
    [false, 50_000, 1_000, 'exact_scan', 'no_graph'],
    [true, 50_000, 50_000, 'hnsw', 'graph'], // unfiltered
    [true, 50_000, 25_000, 'hnsw', 'graph'], // 50%
    [true, 20_000, 5_000, 'hnsw', 'graph'], // exactly RANKING.graphMinPassRate
    [true, 20_000, 4_999, 'exact_scan', 'selective_filter'], // just below
    [true, 20_000, 4_000, 'exact_scan', 'selective_filter'], // 20%, item-level: a graph is no faster at high effort
    [true, 50_000, 1_000, 'exact_scan', 'selective_filter'], // 2%: the graph would be ~10x slower
    [true, 50_000, 0, 'exact_scan', 'selective_filter'], // nothing passes: the scan is free
    [true, 0, 0, 'exact_scan', 'no_graph'], // empty shard
  ];
  it.each(table)(
    'graph %s, %i statements, %i allowed -> %s (%s)',
    (hasGraph, statements, allowed, strategy, reason) => {
      expect(chooseVectorStrategy({ hasGraph, statements, allowed })).toEqual({ strategy, reason });
    },
  );

  it('uses the documented pass-rate threshold of 0.25', () => {
    expect(RANKING.graphMinPassRate).toBe(0.25);
  });

  it('effort levels buy wider graph beams, never narrower than the depth they must fill', () => {
    expect([EFFORT_LIMITS.low.efSearch, EFFORT_LIMITS.medium.efSearch, EFFORT_LIMITS.high.efSearch]).toEqual([
      64, 128, 256,
    ]);
    for (const limits of Object.values(EFFORT_LIMITS)) expect(limits.efSearch).toBeGreaterThanOrEqual(limits.depth);
  });
});

/** A shard with just what the vector leg reads (the count, dim, int8 vectors and their binary codes). */
function vectorShard(rows: number[][]): Shard {
  const dim = rows[0]!.length;
  const vectors = new Int8Array(rows.length * dim);
  rows.forEach((r, i) => {
    const v = Float32Array.from(r);
    const norm = Math.hypot(...v);
    quantizeUnit(
      v.map((x) => x / norm),
      vectors,
      i * dim,
    );
  });
  const codes = binaryCodes(vectors, rows.length, dim);
  return {
    count: rows.length,
    dim,
    vectors,
    codes: codes.bits,
    codeMean: codes.mean,
    codeScale: codes.scale,
    source: new Uint32Array(rows.length).map((_, i) => i % 3),
  } as unknown as Shard;
}

function fakeGraph(result: GraphSearchResult | null): HnswIndexHandle & { calls: unknown[][] } {
  const calls: unknown[][] = [];
  return {
    count: 0,
    calls,
    search: (...args) => {
      calls.push(args);
      return result;
    },
  };
}

describe('searchVectorGraph', () => {
  const shard = vectorShard([
    [1, 0, 0, 0, 0, 0, 0, 0],
    [0.9, 0.1, 0, 0, 0, 0, 0, 0],
    [0, 1, 0, 0, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 0, 0, 0],
    [0.5, 0.5, 0, 0, 0, 0, 0, 0],
  ]);
  const query = Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0]);

  it("rescores the graph labels by their binary codes (the code scan's scale) and ranks by that", () => {
    // The graph's own order and distances are ignored: only its labels are used.
    const graph = fakeGraph({ labels: [4, 0, 2], distances: [0, 0.1, 0.2] });
    const hits = searchVectorGraph(shard, graph, query, undefined, 10, 64)!;
    const scorer = codeScorer(shard, query);
    expect(hits.map((h) => h.local)).toEqual([0, 4]); // 2 scores below 0 on its code
    for (const h of hits) expect(h.score).toBe(scorer.score(h.local));
  });

  it('passes depth, efSearch and the filter through, and cuts like the scan (score > 0, known labels)', () => {
    const isAllowed = (local: number) => local !== 2;
    const graph = fakeGraph({ labels: [0, 3, 99, -1, 2.5], distances: [] });
    const hits = searchVectorGraph(shard, graph, query, isAllowed, 40, 128)!;
    expect(graph.calls[0]).toEqual([query, 40, 128, isAllowed]);
    expect(hits.map((h) => h.local)).toEqual([0]); // 3 scores < 0; 99, -1, 2.5 are not statements of the shard
  });

  it('answers null when the graph is gone, so the caller scans instead', () => {
    expect(searchVectorGraph(shard, fakeGraph(null), query, undefined, 10, 64)).toBeNull();
  });

  it('countAllowed counts the statements that pass', () => {
    expect(countAllowed(shard, (local) => shard.source[local] === 0)).toBe(2);
  });
});

describe.skipIf(!READY)('hnswHandle over a real graph', () => {
  it('searches while loaded and answers null once freed (evicted)', async () => {
    const hnsw = await import('../../index-format/hnsw');
    const wasm = new (
      globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
    ).WebAssembly.Module(readFileSync(`${GENERATED}hnswlib.wasm`));
    const lib = await hnsw.loadHnswlib(wasm);
    const rows = Array.from({ length: 50 }, (_, i) => Float32Array.from([Math.cos(i / 8), Math.sin(i / 8), 0.1]));
    const index = hnsw.readHnswIndex(lib, hnsw.buildHnswIndex(lib, rows, 3, { space: 'ip' }), {
      space: 'ip',
      dim: 3,
      maxElements: 0,
    });
    const handle = hnswHandle(index);
    expect(handle.count).toBe(50);
    expect(handle.search(rows[0]!, 3, 16)!.labels[0]).toBe(0);
    expect(handle.search(rows[0]!, 3, 16, (l) => l % 2 === 1)!.labels.every((l) => l % 2 === 1)).toBe(true);
    hnsw.freeHnswIndex(index);
    expect(handle.search(rows[0]!, 3, 16)).toBeNull();
  });
});

describe('ArtifactCache.resize (a shard read by ranges grows)', () => {
  it(`accounts the new size, evicts the least recently used others to fit, and drops the entry if it alone is too \
big`, () => {
    const cache = new ArtifactCache(100);
    cache.set('a', 'a', 30);
    cache.set('b', 'b', 30);
    cache.set('c', 'c', 30);
    cache.get('a'); // b is now the least recently used
    cache.resize('c', 50);
    expect(cache.has('b')).toBe(false);
    expect(cache.has('a') && cache.has('c')).toBe(true);
    expect(cache.stats().bytes).toBe(80);
    cache.resize('c', 150);
    expect(cache.has('c')).toBe(false);
    expect(cache.has('a')).toBe(true); // nothing else had to go for an entry that cannot fit anyway
    expect(cache.stats().bytes).toBe(30);
  });
});

describe('ArtifactCache with an arena (the wasm heap)', () => {
  const ARENA = 'heap';

  it('counts an arena by its size, with the graphs inside it, not on top of it', () => {
    const cache = new ArtifactCache(64 * MiB);
    cache.set('shard', {}, 10 * MiB);
    cache.setArena(ARENA, 16 * MiB); // the one-time heap
    expect(cache.stats()).toMatchObject({ bytes: 26 * MiB, arenaBytes: 16 * MiB });
    cache.set('graph-a', {}, 13 * MiB, { arena: ARENA }); // fits inside the 16 MiB heap
    expect(cache.stats()).toMatchObject({ bytes: 26 * MiB, arenaBytes: 16 * MiB, entries: 2 });
    cache.set('graph-b', {}, 13 * MiB, { arena: ARENA }); // 26 MiB live before the heap size is reported
    expect(cache.stats().bytes).toBe(36 * MiB);
    cache.setArena(ARENA, 32 * MiB); // the read grew the heap
    expect(cache.stats()).toMatchObject({ bytes: 42 * MiB, arenaBytes: 32 * MiB });
  });

  it('evicts plain entries, not graphs, when the heap grows (evicting a graph frees no memory)', () => {
    const onEvict = vi.fn();
    const cache = new ArtifactCache(40 * MiB);
    cache.setArena(ARENA, 16 * MiB);
    cache.set('graph', 'g', 12 * MiB, { arena: ARENA, onEvict }); // oldest entry
    cache.set('shard-1', 's1', 10 * MiB);
    cache.set('shard-2', 's2', 10 * MiB);
    cache.setArena(ARENA, 24 * MiB);
    expect(cache.has('graph')).toBe(true);
    expect(cache.has('shard-1')).toBe(false);
    expect(cache.has('shard-2')).toBe(true);
    expect(onEvict).not.toHaveBeenCalled();
    expect(cache.stats().bytes).toBeLessThanOrEqual(40 * MiB);
  });

  it('evictFromArena frees least recently used graphs until the heap has room, calling onEvict', () => {
    const freed: string[] = [];
    const cache = new ArtifactCache(64 * MiB);
    cache.setArena(ARENA, 32 * MiB);
    for (const name of ['a', 'b', 'c'])
      cache.set(name, name, 10 * MiB, { arena: ARENA, onEvict: (v) => freed.push(v) });
    cache.get('a'); // a is now the most recently used
    expect(cache.evictFromArena(ARENA, 12 * MiB)).toBe(12 * MiB); // 2 free + 10 from b
    expect(freed).toEqual(['b']);
    expect(cache.evictFromArena(ARENA, 100 * MiB)).toBe(32 * MiB); // empties the arena, but no plain entries
    expect(freed).toEqual(['b', 'c', 'a']);
    expect(cache.arena(ARENA)).toEqual({ size: 32 * MiB, live: 0 });
  });

  it('does not cache what cannot fit next to the heap (the caller must then free it)', () => {
    const onEvict = vi.fn();
    const cache = new ArtifactCache(20 * MiB);
    cache.setArena(ARENA, 16 * MiB);
    cache.set('shard', 's', 6 * MiB); // plain entries cannot squeeze the heap
    expect(cache.has('shard')).toBe(false);
    cache.set('graph', 'g', 24 * MiB, { arena: ARENA, onEvict }); // would grow the arena past the budget
    expect(cache.has('graph')).toBe(false);
    expect(onEvict).not.toHaveBeenCalled();
  });

  it('behaves as before without arenas (LRU by bytes, first set wins)', () => {
    const cache = new ArtifactCache(100);
    expect(cache.set('a', 1, 60)).toBe(1);
    expect(cache.set('a', 2, 60)).toBe(1);
    cache.set('b', 3, 60);
    expect(cache.has('a')).toBe(false);
    expect(cache.set('huge', 4, 101)).toBe(4);
    expect(cache.has('huge')).toBe(false);
    expect(cache.stats()).toMatchObject({ bytes: 60, arenaBytes: 0, entries: 1, evictions: 1 });
  });
});
