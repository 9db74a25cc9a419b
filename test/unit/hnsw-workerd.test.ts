// Proof that the patched hnswlib-wasm runs inside workerd: a graph built in Node is put into a
// Miniflare R2 bucket, a real workerd Worker reads it from R2, loads it with index-format/hnsw.ts
// and answers a filtered k-NN query, which must equal the exact filtered scan computed here.
//
// The Worker is made of three modules, as wrangler would upload them: the worker script
// (index-format/hnsw.ts bundled by esbuild), the patched glue as its own ES module and the wasm
// as a CompiledWasm module (the import yields a WebAssembly.Module).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUnitVectors } from '../support/random-vectors';

const GENERATED = join(import.meta.dirname, '../../generated/hnswlib/');
const HNSW_TS = join(import.meta.dirname, '../../index-format/hnsw.ts');
const READY = existsSync(`${GENERATED}hnswlib.wasm`) && existsSync(`${GENERATED}hnswlib-glue.mjs`);
if (!READY) {
  console.warn('hnsw workerd test SKIPPED: generated/hnswlib is missing; run `node scripts/prepare-hnswlib.mjs`.');
}

// Node may compile wasm from bytes (workerd may not). Reached through globalThis because the
// project's tsconfig may use @cloudflare/workers-types, where WebAssembly.Module is abstract.
const compileWasm = (bytes: Uint8Array): WebAssembly.Module =>
  new (
    globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
  ).WebAssembly.Module(bytes);

const DIM = 32;
const N = 300;
const K = 10;
const DIVISOR = 7; // allowed labels: multiples of 7 (43 of 300)

// The Worker. It caches the HnswLib per isolate (the wrapper itself caches nothing) and also
// reports whether workerd really forbids what the patches removed.
const WORKER_SOURCE = `
import wasm from './hnswlib.wasm';
import { loadHnswlib, readHnswIndex, searchHnsw, freeHnswIndex, hnswHeapBytes } from ${JSON.stringify(HNSW_TS)};

let libPromise;

function blocked(fn) {
  try { fn(); return false; } catch { return true; }
}

export default {
  async fetch(request, env) {
    try {
      const { key, query, k, efSearch, divisor } = await request.json();
      libPromise ??= loadHnswlib(wasm);
      const lib = await libPromise;
      const heapAfterLoad = hnswHeapBytes(lib);
      const object = await env.INDEX.get(key);
      if (!object) return new Response('no such index: ' + key, { status: 404 });
      const bytes = new Uint8Array(await object.arrayBuffer());
      const index = readHnswIndex(lib, bytes, { space: 'cosine', dim: query.length, maxElements: 0 });
      try {
        const result = searchHnsw(index, Float32Array.from(query), k, efSearch, (label) => label % divisor === 0);
        return Response.json({
          ...result,
          count: index.count,
          heapAfterLoad,
          heapAfterRead: hnswHeapBytes(lib),
          wasmIsModule: wasm instanceof WebAssembly.Module,
          newFunctionBlocked: blocked(() => new Function('return 1')),
          wasmFromBytesBlocked: blocked(() => new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))),
        });
      } finally {
        freeHnswIndex(index);
      }
    } catch (e) {
      return new Response(String(e && e.stack ? e.stack : e), { status: 500 });
    }
  },
};
`;

function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  a.forEach((x, i) => {
    dot += x * (b[i] ?? NaN);
  });
  return 1 - dot; // both unit length
}

describe.skipIf(!READY)('hnswlib-wasm inside workerd (Miniflare)', () => {
  // Typed loosely so this file does not need miniflare's types at module scope.
  let mf: import('miniflare').Miniflare | undefined;
  let tmp: string | undefined;
  const vectors = randomUnitVectors(N, DIM, 1234);
  const [query = new Float32Array(DIM)] = randomUnitVectors(1, DIM, 99);

  beforeAll(async () => {
    const [{ Miniflare, convertV4MiniflareOptions }, { build }, hnsw] = await Promise.all([
      import('miniflare'),
      import('esbuild'),
      import('../../index-format/hnsw'),
    ]);

    // 1. Build the graph in Node with the same wasm build the Worker uses.
    const wasmBytes = readFileSync(`${GENERATED}hnswlib.wasm`);
    const lib = await hnsw.loadHnswlib(compileWasm(wasmBytes));
    const graph = hnsw.buildHnswIndex(lib, vectors, DIM, { space: 'cosine', m: 16, efConstruction: 200, seed: 100 });

    // 2. Bundle the worker + index-format/hnsw.ts; the glue and the wasm stay separate modules.
    tmp = mkdtempSync(join(tmpdir(), 'hnsw-workerd-'));
    const bundle = await build({
      stdin: { contents: WORKER_SOURCE, resolveDir: tmp, sourcefile: 'worker.mjs', loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      write: false,
      external: ['./hnswlib.wasm'],
      plugins: [
        {
          name: 'hnswlib-glue-external',
          setup(b) {
            b.onResolve({ filter: /hnswlib-glue\.mjs$/ }, () => ({ path: './hnswlib-glue.mjs', external: true }));
          },
        },
      ],
    });

    const [workerJs] = bundle.outputFiles;
    if (!workerJs) throw new Error('esbuild produced no output');

    // 3. Start workerd with an R2 bucket holding the graph.
    mf = new Miniflare(
      convertV4MiniflareOptions({
        modulesRoot: tmp,
        modules: [
          { type: 'ESModule', path: join(tmp, 'worker.mjs'), contents: workerJs.text },
          {
            type: 'ESModule',
            path: join(tmp, 'hnswlib-glue.mjs'),
            contents: readFileSync(`${GENERATED}hnswlib-glue.mjs`, 'latin1'),
          },
          { type: 'CompiledWasm', path: join(tmp, 'hnswlib.wasm'), contents: new Uint8Array(wasmBytes) },
        ],
        compatibilityDate: '2025-09-01',
        r2Buckets: ['INDEX'],
        cf: false,
      }),
    );
    const bucket = await mf.getR2Bucket('INDEX');
    await bucket.put('graphs/test.bin', new Uint8Array(graph)); // plain Uint8Array, not a Buffer
  }, 60_000);

  afterAll(async () => {
    await mf?.dispose();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('loads the graph from R2 and answers a filtered k-NN query exactly', async () => {
    const response = await mf!.dispatchFetch('http://localhost/search', {
      method: 'POST',
      body: JSON.stringify({ key: 'graphs/test.bin', query: Array.from(query), k: K, efSearch: N, divisor: DIVISOR }),
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    const body = JSON.parse(text) as {
      labels: number[];
      distances: number[];
      count: number;
      heapAfterLoad: number;
      heapAfterRead: number;
      wasmIsModule: boolean;
      newFunctionBlocked: boolean;
      wasmFromBytesBlocked: boolean;
    };

    // The runtime really is restrictive: the patches are what make this work.
    expect(body.wasmIsModule).toBe(true);
    expect(body.newFunctionBlocked).toBe(true);
    expect(body.wasmFromBytesBlocked).toBe(true);

    const expected = vectors
      .map((v, label) => ({ label, d: cosineDistance(v, query) }))
      .filter((x) => x.label % DIVISOR === 0)
      .sort((a, b) => a.d - b.d)
      .slice(0, K);
    expect(body.count).toBe(N);
    expect(body.labels).toEqual(expected.map((x) => x.label));
    body.distances.forEach((d, i) => {
      expect(d).toBeCloseTo(expected[i]?.d ?? NaN, 5);
    });
    console.info(
      `workerd: wasm heap ${body.heapAfterLoad} B after load, ${body.heapAfterRead} B after reading the graph`,
    );
  }, 60_000);
});
