import type { HnswIndexHandle, IndexReader } from '../core/index-reader';
import { ApiError } from '../errors';
import { ArtifactFormatError } from '../format/container';
import { decodeCatalog, decodeEmbedding, decodeGraph, decodeLexicon, decodeManifest, decodeShard } from '../format/codec';
import { manifestKey, objectKey, pointerKey } from '../format/keys';
import type { ArtifactRef, CatalogHeader, EmbeddingModel, Lexicon, Manifest, Shard } from '../format/types';
import { hnswHandle } from '../search/vector-strategy';
import { freeHnswIndex, hnswHeapBytes, parseHnswHeader, readHnswIndex, type HnswIndex } from '../vector/hnsw';
import type { ArtifactCache } from './artifact-cache';
import { HNSW_ARENA, HNSW_MIN_HEAP_BYTES, hnswRuntime } from './hnsw-runtime';

/**
 * Heap bytes a loaded graph takes beyond its serialized size (label map, level list, locks, visited list), per vector.
 * Measured ~60-170 B at dim 128; only used to make room before a read, the heap itself is measured afterwards.
 */
const GRAPH_OVERHEAD_PER_VECTOR = 128;

export interface LoadStats {
  loaded: string[];
  cacheHits: number;
  /** Wall time (ms) during which at least one KV/R2 read, verification or decode was in flight (overlaps counted once). */
  loadMs?: number;
  /** Bookkeeping for loadMs: loads in flight and when the current busy interval began. */
  inFlight?: number;
  busySince?: number;
}

/**
 * Default lifetime of the isolate's memo of the KV pointer. A request costs a KV read only once per TTL per isolate;
 * a newly published version is served within TTL seconds (plus KV's own propagation, up to 60 s across locations).
 * A pointer whose version fails to load is dropped at once, so a repaired pointer is picked up by the next request.
 */
export const DEFAULT_POINTER_TTL_MS = 10_000;

/** POINTER_TTL_SECONDS var -> ms (0 disables the memo; invalid or absent -> the default). */
export function pointerTtlMs(value: string | undefined): number {
  const seconds = value === undefined || value.trim() === '' ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_POINTER_TTL_MS;
}

interface PointerMemo {
  version: string;
  readAt: number;
}

const pointerCacheKey = (domain: string) => `pointer:${domain}`;

/** Runs one load step and adds its time to stats.loadMs, counting overlapping steps once. */
async function timedLoad<T>(stats: LoadStats, step: () => Promise<T>): Promise<T> {
  if (!stats.inFlight) stats.busySince = performance.now();
  stats.inFlight = (stats.inFlight ?? 0) + 1;
  try {
    return await step();
  } finally {
    stats.inFlight--;
    if (stats.inFlight === 0) stats.loadMs = (stats.loadMs ?? 0) + (performance.now() - (stats.busySince ?? performance.now()));
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function unavailable(reason: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('INDEX_UNAVAILABLE', { extra: { reason, ...extra } });
}

/**
 * Opens the live version of a domain's index: the pointer from KV, then artifacts from R2 on demand, each
 * verified against the manifest's size and SHA-256 before decoding, and cached per isolate under a byte budget.
 * Any missing, corrupt or mismatched artifact is a 503 INDEX_UNAVAILABLE with a reason; nothing half-loaded is
 * cached, so the next request retries and the Worker recovers by itself once the data is fixed.
 */
export async function openR2Index(
  bucket: R2Bucket,
  kv: KVNamespace,
  domain: string,
  cache: ArtifactCache,
  stats: LoadStats = { loaded: [], cacheHits: 0 },
  pointerTtl: number = DEFAULT_POINTER_TTL_MS,
): Promise<IndexReader> {
  // The pointer memo lives in the artifact cache (a few bytes, per isolate). Only a successful read is memoized.
  const memo = cache.get<PointerMemo>(pointerCacheKey(domain));
  let pointed: string | null;
  if (memo && pointerTtl > 0 && Date.now() - memo.readAt < pointerTtl) pointed = memo.version;
  else {
    pointed = await timedLoad(stats, () => kv.get(pointerKey(domain)));
    if (!pointed) throw unavailable('no_published_version');
    if (pointerTtl > 0) {
      // set() keeps an existing entry, so replace the stale memo explicitly.
      cache.delete(pointerCacheKey(domain));
      cache.set<PointerMemo>(pointerCacheKey(domain), { version: pointed, readAt: Date.now() }, 128);
    }
  }
  const version: string = pointed;
  /**
   * Any failure to load this version (missing, corrupt or invalid artifact) forgets the memoized pointer, so the next
   * request re-reads KV: if the operator repaired the pointer, the Worker recovers on the next request, not after
   * the TTL. Failed loads themselves are never cached (cache.set only runs after a successful verify and decode).
   */
  const forgetPointerOnFailure = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'INDEX_UNAVAILABLE') {
        const current = cache.get<PointerMemo>(pointerCacheKey(domain));
        if (current?.version === version) cache.delete(pointerCacheKey(domain));
      }
      throw err;
    });

  const cached = <T>(key: string, load: () => Promise<{ value: T; bytes: number }>): Promise<T> => {
    const hit = cache.get<T>(`${version}/${key}`);
    if (hit !== undefined) {
      stats.cacheHits++;
      return Promise.resolve(hit);
    }
    return forgetPointerOnFailure(timedLoad(stats, load)).then(({ value, bytes }) => {
      stats.loaded.push(key);
      return cache.set(`${version}/${key}`, value, bytes);
    });
  };

  const fetchVerified = async (ref: ArtifactRef): Promise<Uint8Array> => {
    const object = await bucket.get(objectKey(domain, version, ref.file));
    if (!object) throw unavailable('artifact_missing', { version, file: ref.file });
    const bytes = new Uint8Array(await object.arrayBuffer());
    if (bytes.byteLength !== ref.bytes || (await sha256Hex(bytes)) !== ref.sha256) {
      throw unavailable('artifact_checksum_mismatch', { version, file: ref.file });
    }
    return bytes;
  };

  const decodeOr503 = <T>(file: string, decode: () => T): T => {
    try {
      return decode();
    } catch (err) {
      if (err instanceof ArtifactFormatError) throw unavailable('artifact_invalid', { version, file, error: err.message });
      throw err;
    }
  };

  const manifest = await cached<Manifest>('manifest', async () => {
    const object = await bucket.get(manifestKey(domain, version));
    if (!object) throw unavailable('manifest_missing', { version });
    const text = await object.text();
    return { value: decodeOr503('manifest.json', () => decodeManifest(text)), bytes: text.length * 2 };
  });
  const load = <T>(ref: ArtifactRef, decode: (b: Uint8Array) => T, size: (v: T) => number) =>
    cached<T>(ref.file, async () => {
      const bytes = await fetchVerified(ref);
      const value = decodeOr503(ref.file, () => decode(bytes));
      return { value, bytes: size(value) };
    });

  // Decoded JSON costs roughly twice its UTF-8 size in memory; count that, not the wire size.
  const catalog = await load<CatalogHeader>(manifest.catalog, decodeCatalog, () => manifest.catalog.bytes * 2);
  /**
   * A shard's graph, read into the isolate's hnswlib heap and cached there. The heap is a cache arena: its size
   * (16 MiB from the first graph on, growing, never shrinking) is what counts against the budget, and the graphs
   * inside it are entries that free their native memory when evicted. Null when the shard has no graph or the graph
   * cannot fit the budget (the caller scans exactly). A listed but missing or corrupt graph is a 503, like any
   * other artifact: it means the published version is broken.
   */
  const graph = async (index: number): Promise<HnswIndexHandle | null> => {
    const info = catalog.shards[index];
    if (!info?.graph_file) return null;
    const ref = manifest.graphs.find((r) => r.file === info.graph_file);
    if (!ref) throw unavailable('graph_not_in_manifest', { version, file: info.graph_file });
    const key = `${version}/${ref.file}`;
    const hit = cache.get<HnswIndexHandle>(key);
    if (hit !== undefined) {
      stats.cacheHits++;
      return hit;
    }
    const needed = ref.bytes + info.statement_count * GRAPH_OVERHEAD_PER_VECTOR;
    if (Math.max(HNSW_MIN_HEAP_BYTES, needed) > cache.budget) return null; // could never be cached: do not load it

    const lib = await hnswRuntime();
    cache.setArena(HNSW_ARENA, hnswHeapBytes(lib)); // first graph of the isolate: the 16 MiB heap enters the budget
    const bytes = await timedLoad(stats, () => fetchVerified(ref));
    const { hnsw } = decodeOr503(ref.file, () =>
      decodeGraph(bytes, { shard: info.id, dim: catalog.embedding_dim, count: info.statement_count }, parseHnswHeader),
    );
    // Free least recently used graphs first if the heap has no room, so it grows only when it must.
    cache.evictFromArena(HNSW_ARENA, needed);
    let native: HnswIndex;
    try {
      native = readHnswIndex(lib, hnsw, { space: 'ip', dim: catalog.embedding_dim, maxElements: 0 });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // The heap could not grow: degrade to an exact scan instead of failing the request. hnswlib reports it as
      // "std::runtime_error: Not enough memory: loadIndex failed to allocate ..." and the instance stays usable.
      if (/not enough memory|bad_alloc|out of memory/i.test(message)) {
        console.error(JSON.stringify({ level: 'error', event: 'graph_oom', file: ref.file, heap_bytes: hnswHeapBytes(lib) }));
        return null;
      }
      throw unavailable('artifact_invalid', { version, file: ref.file, error: message });
    }
    stats.loaded.push(ref.file);
    cache.setArena(HNSW_ARENA, hnswHeapBytes(lib)); // the read may have grown the heap
    const handle = hnswHandle(native);
    const stored = cache.set(key, handle, needed, { arena: HNSW_ARENA, onEvict: () => freeHnswIndex(native) });
    if (stored !== handle) {
      freeHnswIndex(native); // another request cached this graph meanwhile: use theirs
      return stored;
    }
    if (!cache.has(key)) {
      freeHnswIndex(native); // it did not fit the budget after all: never keep an uncached graph alive
      return null;
    }
    return handle;
  };

  return {
    manifest,
    catalog,
    graph: (index: number) => forgetPointerOnFailure(graph(index)),
    lexicon: () => load<Lexicon>(manifest.lexicon, decodeLexicon, (l) => l.byteSize * 2),
    embedding: () => load<EmbeddingModel>(manifest.embedding, decodeEmbedding, (e) => e.byteSize * 2),
    shard(index: number): Promise<Shard> {
      const ref = manifest.shards[index];
      if (!ref) return Promise.reject(unavailable('shard_not_in_manifest', { index }));
      return load<Shard>(ref, decodeShard, (s) => s.byteSize * 2);
    },
  };
}
