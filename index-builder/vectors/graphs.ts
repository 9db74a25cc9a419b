/**
 * HNSW graphs for large shards, built offline with the same patched hnswlib-wasm build the Worker runs
 * (generated/hnswlib, written by scripts/prepare-hnswlib.mjs at postinstall), so the Worker can load them as is.
 *
 * A graph is only worth it where an exact scan gets expensive; docs/PARAMETERS.md ("Vector search: exact scan or
 * HNSW graph") has the numbers behind DEFAULT_GRAPH_MIN_STATEMENTS and the Worker's RANKING.graphMinPassRate.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeGraph, type GraphHeader } from '../../index-format/codec';
import type { HnswLib } from '../../index-format/hnsw';

/**
 * Shards with at least this many statements get a graph. An exact scan costs ~0.5 us per int8 vector, so ~10 ms for an
 * unfiltered 20,000-statement shard (up to 12 shards per query at high effort), against 0.2-0.5 ms through a graph.
 * Below that the scan stays a few ms while a graph still costs 656 B per vector (5x the shard's 128 B int8 vectors:
 * a float32 copy plus links) in R2, in the isolate's cache budget and in the never-shrinking wasm heap (16 MiB holds
 * ~one 20k graph), plus ~65 ms to fetch-verify-read once per isolate, i.e. several scans' worth.
 */
export const DEFAULT_GRAPH_MIN_STATEMENTS = 20_000;

/** Build parameters, fixed so rebuilds are byte-identical. */
export const GRAPH_PARAMS = {
  /** The stored vectors are unit-norm (quantized with scale 127), so inner product ranks like cosine. */
  space: 'ip' as const,
  /** hnswlib's default degree; 2*M = 32 links per vector on level 0. */
  m: 16,
  /**
   * Build-time beam. 100 gives recall@10 >= 0.99 at efSearch 64 on 20k synthetic statements; 200 costs 1.6x the build
   * time.
   */
  efConstruction: 100,
  /** Seed of hnswlib's level generator (any constant; it only has to stay the same). */
  seed: 20261121,
};

/** Where scripts/prepare-hnswlib.mjs writes the wasm and its glue. */
export const HNSWLIB_DIR = join(import.meta.dirname, '../../generated/hnswlib/');

export interface GraphBuilder {
  /** Builds the graph artifact (container kind 'graph') over one shard's int8 vectors; labels = local ids. */
  build(shardId: string, vectors: Int8Array, dim: number): Uint8Array;
}

// Node can compile wasm from bytes. Reached through globalThis because the project's tsconfig also loads
// @cloudflare/workers-types, where WebAssembly.Module cannot be constructed.
const compileWasm = (bytes: Uint8Array): WebAssembly.Module =>
  new (
    globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
  ).WebAssembly.Module(bytes);

/** Checks that the generated hnswlib build is there; throws the fix ("run npm install") otherwise. */
export function requireHnswlibBuild(dir: string = HNSWLIB_DIR): { wasm: string; glue: string } {
  const wasm = join(dir, 'hnswlib.wasm');
  const glue = join(dir, 'hnswlib-glue.mjs');
  const missing = [wasm, glue].filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(
      `cannot build HNSW graphs: ${missing.join(', ')} missing. Run npm install ` +
        '(its postinstall step, node scripts/prepare-hnswlib.mjs, writes generated/hnswlib/).',
    );
  }
  return { wasm, glue };
}

/**
 * Instantiates hnswlib-wasm once for a build. The wrapper module is imported only here, after the check, because it
 * imports the generated glue: a static import would fail at module load with a bare "Cannot find module".
 */
export async function openGraphBuilder(dir: string = HNSWLIB_DIR): Promise<GraphBuilder> {
  const paths = requireHnswlibBuild(dir);
  const hnsw = await import('../../index-format/hnsw');
  const lib: HnswLib = await hnsw.loadHnswlib(compileWasm(readFileSync(paths.wasm)));
  return {
    build(shardId, vectors, dim) {
      const count = vectors.length / dim;
      if (!Number.isInteger(count))
        throw new Error(`shard ${shardId}: ${vectors.length} vector values is not a multiple of dim ${dim}`);
      // Dequantize exactly as the Worker's dotInt8 does (q / 127), so graph distances are 1 - the exact scan's score.
      const flat = new Float32Array(vectors.length);
      for (let i = 0; i < vectors.length; i++) flat[i] = vectors[i]! / 127;
      const native = hnsw.buildHnswIndex(lib, flat, dim, GRAPH_PARAMS);
      const header: GraphHeader = {
        shard: shardId,
        dim,
        count,
        space: GRAPH_PARAMS.space,
        m: GRAPH_PARAMS.m,
        ef_construction: GRAPH_PARAMS.efConstruction,
        seed: GRAPH_PARAMS.seed,
      };
      return encodeGraph(header, native, hnsw.parseHnswHeader);
    },
  };
}

/** Validates a threshold (BuildOptions.graphMinStatements, env GRAPH_MIN_STATEMENTS). */
export function checkGraphMinStatements(value: number): number {
  if (!(Number.isInteger(value) && value >= 1) && value !== Infinity) {
    throw new Error(`graphMinStatements must be a positive integer (or Infinity for no graphs), got ${value}`);
  }
  return value;
}
