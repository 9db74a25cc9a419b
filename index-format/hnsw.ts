// Thin wrapper over the patched hnswlib-wasm build (generated/hnswlib, written by
// scripts/prepare-hnswlib.mjs). Runs unchanged in Node (index builder, tests) and in workerd:
// no node:* / cloudflare:* imports, and the compiled WebAssembly.Module is passed in by the
// caller (Node: new WebAssembly.Module(bytes); Worker: `import wasm from './hnswlib.wasm'`).
//
// Nothing is cached at module scope: the caller keeps one HnswLib per isolate/process.
// Index bytes move through Emscripten's in-memory FS, because hnswlib only (de)serializes via
// files. The on-disk format is hnswlib's saveIndex layout for wasm32 (size_t = 4 bytes), which
// is why indexes from hnswlib-node (64-bit) are not compatible: build them with this module.

import createHnswlibModule from '../generated/hnswlib/hnswlib-glue.mjs';
import type { HnswlibHierarchicalNSW, HnswlibModule } from '../generated/hnswlib/hnswlib-glue.mjs';

export type HnswSpace = 'ip' | 'l2' | 'cosine';

/** One wasm instance (its own heap). Create it once and reuse it; it is not freed. */
export interface HnswLib {
  readonly module: HnswlibModule;
  /** Source of unique FS file names for this instance. */
  nextFileId: number;
}

/** A loaded graph. Lives in the wasm heap until freeHnswIndex(). */
export interface HnswIndex {
  readonly lib: HnswLib;
  readonly native: HnswlibHierarchicalNSW;
  readonly space: HnswSpace;
  readonly dim: number;
  /** Number of stored vectors (labels are whatever the builder used; ours are 0..count-1). */
  readonly count: number;
}

export interface HnswSearchResult {
  /** Best first. */
  labels: number[];
  /** Same order as labels. l2: squared distance; ip / cosine: 1 - dot product. */
  distances: number[];
}

export interface HnswBuildOptions {
  space: HnswSpace;
  /** Graph degree (hnswlib default 16). */
  m?: number;
  /** Build-time beam width (hnswlib default 200). */
  efConstruction?: number;
  /** Seed of hnswlib's level generator; same input + seed -> same bytes. */
  seed?: number;
}

/** Fields of the serialized header (see parseHnswHeader). */
export interface HnswHeader {
  count: number;
  dim: number;
  m: number;
  efConstruction: number;
  maxLevel: number;
}

// hnswlib-wasm's C++ prefixes every file name with this directory (hard-coded there).
const FS_DIR = '/hnswlib-index';
// addPoint refreshes a label cache in O(n) after every call (O(n^2) builds); addPoints does it
// once per batch. Batches also bound the size of the JS->C++ vector conversion.
const ADD_BATCH = 1024;
// Header written by HierarchicalNSW::saveIndex with 4-byte size_t: 11 x u32/i32, 1 f64, 1 u32.
const HEADER_BYTES = 56;

/** Instantiates the wasm. Call inside a request/test (not at a Worker's global scope). */
export async function loadHnswlib(wasmModule: WebAssembly.Module): Promise<HnswLib> {
  const module = await createHnswlibModule({ wasmModule });
  // Plain MEMFS directory; we never initialize hnswlib-wasm's IndexedDB file system manager.
  if (!module.FS.analyzePath(FS_DIR).exists) module.FS.mkdir(FS_DIR);
  return { module, nextFileId: 0 };
}

/** Current size of the wasm linear memory in bytes. It grows on demand and never shrinks. */
export function hnswHeapBytes(lib: HnswLib): number {
  return lib.module.HEAPU8.buffer.byteLength;
}

/** Reads the header of a serialized graph without loading it (cheap validation / metadata). */
export function parseHnswHeader(bytes: Uint8Array): HnswHeader {
  if (bytes.byteLength < HEADER_BYTES) throw new Error(`hnsw: index too short (${bytes.byteLength} bytes)`);
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (offset: number) => v.getUint32(offset, true);
  // Layout: offsetLevel0, maxElements, count, sizeDataPerElement, labelOffset, offsetData,
  // maxLevel, enterpoint, maxM, maxM0, M, mult (f64), efConstruction.
  const count = u32(8);
  const sizeDataPerElement = u32(12);
  const vectorBytes = u32(16) - u32(20); // labelOffset - offsetData = dim * sizeof(float)
  // Level 0 blocks plus one u32 per element for the upper-level link-list sizes.
  const minBytes = HEADER_BYTES + count * (sizeDataPerElement + 4);
  if (vectorBytes <= 0 || vectorBytes % 4 !== 0 || bytes.byteLength < minBytes) {
    throw new Error('hnsw: bytes are not a wasm32 hnswlib index (or are truncated)');
  }
  return { count, dim: vectorBytes / 4, m: u32(40), efConstruction: u32(52), maxLevel: v.getInt32(24, true) };
}

/**
 * Loads a graph from bytes produced by buildHnswIndex. `maxElements` only matters if points
 * would be added later (0 = exactly the stored count). The bytes are not copied into the FS
 * (MEMFS borrows them) and not modified; they can be dropped once this returns.
 */
export function readHnswIndex(
  lib: HnswLib,
  bytes: Uint8Array,
  opts: { space: HnswSpace; dim: number; maxElements: number },
): HnswIndex {
  const header = parseHnswHeader(bytes);
  // hnswlib does not store the metric and does not check the dimension: a mismatch would
  // silently return garbage, so compare with the header here.
  if (header.dim !== opts.dim) throw new Error(`hnsw: index has dim ${header.dim}, expected ${opts.dim}`);
  const { FS, HierarchicalNSW } = lib.module;
  const name = `read-${lib.nextFileId++}.bin`;
  const path = `${FS_DIR}/${name}`;
  // canOwn: MEMFS keeps a view of `bytes` instead of a copy (saves one index-sized copy).
  FS.writeFile(path, bytes, { canOwn: true });
  // Always a fresh object: after a failed readIndex hnswlib-wasm leaves a dangling pointer in
  // the old object, so one must never be reused.
  const native = new HierarchicalNSW(opts.space, opts.dim, '');
  try {
    native.readIndex(name, opts.maxElements);
  } catch (e) {
    native.delete();
    throw nativeError(lib, e, 'readIndex');
  } finally {
    FS.unlink(path);
  }
  return { lib, native, space: opts.space, dim: opts.dim, count: native.getCurrentCount() };
}

/**
 * k-NN search. `isAllowed` (optional) is called from inside the graph walk for candidate labels;
 * the walk still traverses disallowed nodes, so results stay good for selective filters as long
 * as efSearch is large enough. Returns fewer than k results if fewer labels are allowed.
 */
export function searchHnsw(
  index: HnswIndex,
  query: Float32Array,
  k: number,
  efSearch: number,
  isAllowed?: (label: number) => boolean,
): HnswSearchResult {
  if (query.length !== index.dim) throw new Error(`hnsw: query has dim ${query.length}, expected ${index.dim}`);
  // hnswlib throws for k > maxElements; asking for more than exists just means "all".
  const kk = Math.min(Math.floor(k), index.count);
  if (kk <= 0) return { labels: [], distances: [] };
  index.native.setEfSearch(Math.max(efSearch, kk));

  // A JS exception thrown through the C++ frames would skip hnswlib's cleanup (leaked visited
  // list, filter object). Catch it here, reject the remaining candidates, rethrow afterwards.
  let filterError: { error: unknown } | undefined;
  const filter = isAllowed
    ? (label: number): boolean => {
        if (filterError) return false;
        try {
          return isAllowed(label) === true;
        } catch (error) {
          filterError = { error };
          return false;
        }
      }
    : undefined;

  let result: ReturnType<typeof index.native.searchKnn>;
  try {
    result = index.native.searchKnn(query, kk, filter);
  } catch (e) {
    throw nativeError(index.lib, e, 'searchKnn');
  }
  if (filterError) throw filterError.error;
  return { labels: result.neighbors, distances: result.distances };
}

/** Releases the graph's wasm memory for reuse (the heap itself does not shrink). Idempotent. */
export function freeHnswIndex(index: HnswIndex): void {
  if (!index.native.isDeleted()) index.native.delete();
}

/**
 * Builds a graph over `vectors` (labels 0..n-1 in input order) and returns its serialized
 * bytes, for storage in R2 and readHnswIndex. `vectors` is one Float32Array per vector or one
 * flat Float32Array of n * dim values. Deterministic for the same input and seed.
 */
export function buildHnswIndex(
  lib: HnswLib,
  vectors: Float32Array[] | Float32Array,
  dim: number,
  opts: HnswBuildOptions,
): Uint8Array {
  const rows = toRows(vectors, dim);
  const { FS, HierarchicalNSW } = lib.module;
  // '' = no auto-save (it would try to sync IndexedDB after every add).
  const native = new HierarchicalNSW(opts.space, dim, '');
  const name = `build-${lib.nextFileId++}.bin`;
  const path = `${FS_DIR}/${name}`;
  try {
    // maxElements = n: the graph is immutable once built.
    native.initIndex(rows.length, opts.m ?? 16, opts.efConstruction ?? 200, opts.seed ?? 100);
    for (let start = 0; start < rows.length; start += ADD_BATCH) {
      const batch = rows.slice(start, start + ADD_BATCH);
      const labels = batch.map((_, i) => start + i);
      try {
        native.addPoints(batch, labels, false);
      } catch (e) {
        throw nativeError(lib, e, 'addPoints');
      }
    }
    try {
      native.writeIndex(name);
    } catch (e) {
      // writeIndex saves the file and then throws because it tries to sync IndexedDB, which we
      // never set up. The file is complete at that point; any other failure leaves no file.
      const err = nativeError(lib, e, 'writeIndex');
      if (!FS.analyzePath(path).exists) throw err;
    }
    return FS.readFile(path); // a fresh copy, independent of the wasm heap
  } finally {
    if (FS.analyzePath(path).exists) FS.unlink(path);
    native.delete();
  }
}

function toRows(vectors: Float32Array[] | Float32Array, dim: number): Float32Array[] {
  if (!Number.isInteger(dim) || dim <= 0) throw new Error(`hnsw: invalid dim ${dim}`);
  let rows: Float32Array[];
  if (vectors instanceof Float32Array) {
    if (vectors.length % dim !== 0)
      throw new Error(`hnsw: flat input length ${vectors.length} is not a multiple of ${dim}`);
    rows = [];
    for (let i = 0; i < vectors.length; i += dim) rows.push(vectors.subarray(i, i + dim));
  } else {
    rows = vectors;
  }
  rows.forEach((row, i) => {
    if (row.length !== dim) throw new Error(`hnsw: vector ${i} has dim ${row.length}, expected ${dim}`);
    // NaN/Infinity would corrupt the graph silently; cheap to reject here, offline.
    for (const x of row) if (!Number.isFinite(x)) throw new Error(`hnsw: vector ${i} has a non-finite value`);
  });
  return rows;
}

/** Turns a C++ exception (WebAssembly.Exception) into an Error with its message, and frees it. */
function nativeError(lib: HnswLib, e: unknown, op: string): Error {
  if (e instanceof Error) return e; // JS-side errors (embind BindingError etc.)
  let detail = String(e);
  try {
    const [type, message] = lib.module.getExceptionMessage(e);
    detail = message ? `${type}: ${message}` : type;
    lib.module.freeCppException(e);
  } catch {
    // not a C++ exception; keep String(e)
  }
  return new Error(`hnsw: ${op} failed: ${detail}`);
}
