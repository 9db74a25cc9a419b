import type { HnswIndexHandle, IndexReader } from '../../index-format/index-reader';
import {
  partitionedReader,
  RangeChecksumError,
  ShardNotInIndexError,
  type ReadRange,
} from '../../index-format/partitioned-reader';
import { crc32 } from '../../index-format/crc32';
import { ApiError } from '../errors';
import { ArtifactFormatError, verifySeal } from '../../index-format/container';
import { decodeDirectory, decodeGraph, decodeManifest } from '../../index-format/codec';
import { manifestKey, pointerKey, storedKey } from '../../index-format/keys';
import type { Directory, Manifest, ShardInfo, StoredRef } from '../../index-format/types';
import { hnswHandle } from '../search/vector-strategy';
import { freeHnswIndex, hnswHeapBytes, parseHnswHeader, readHnswIndex, type HnswIndex } from '../../index-format/hnsw';
import type { ArtifactCache } from './artifact-cache';
import type { EdgeCache } from './edge-cache';
import { HNSW_ARENA, HNSW_MIN_HEAP_BYTES, hnswRuntime } from './hnsw-runtime';

/**
 * Heap bytes a loaded graph takes beyond its serialized size (label map, level list, locks, visited list), per vector.
 * Measured ~60-170 B at dim 128; only used to make room before a read, the heap itself is measured afterwards.
 */
const GRAPH_OVERHEAD_PER_VECTOR = 128;

export interface LoadStats {
  loaded: string[];
  cacheHits: number;
  /** Bytes read from storage (R2 object bodies, the manifest included, plus Cache API hits), and how many objects. */
  storageBytes?: number;
  objectsRead?: number;
  /** Of those objects, how many came from the Cache API rather than R2. */
  edgeHits?: number;
  /** Of those reads, how many were byte ranges of shards (postings, codes, records; heads count as objects). */
  rangesRead?: number;
  /**
   * Wall time (ms) during which at least one KV/R2 read, verification or decode was in flight (overlaps counted once).
   */
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
    if (stats.inFlight === 0)
      stats.loadMs = (stats.loadMs ?? 0) + (performance.now() - (stats.busySince ?? performance.now()));
  }
}

function unavailable(reason: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError('INDEX_UNAVAILABLE', { extra: { reason, ...extra } });
}

export interface OpenOptions {
  stats?: LoadStats;
  pointerTtl?: number;
  /** The colo's cache in front of R2 (src/adapters/edge-cache.ts); none in Node tests and benchmarks. */
  edge?: EdgeCache;
  /**
   * How shards are read: by byte ranges (head, then the postings, codes and records a request uses; the default)
   * or whole (the slow twin, SHARD_READS=whole).
   */
  shardReads?: 'ranges' | 'whole';
}

/**
 * Opens the live version of a domain's index: the pointer from KV, the manifest and the directory, then the other
 * artifacts from R2 on demand (index-format/partitioned-reader.ts says which), each verified by its seal before
 * decoding and cached per isolate under a byte budget.
 * Any missing, corrupt or mismatched artifact is a 503 INDEX_UNAVAILABLE with a reason; nothing half-loaded is
 * cached, so the next request retries and the Worker recovers by itself once the data is fixed.
 */
export async function openR2Index(
  bucket: R2Bucket,
  kv: KVNamespace,
  domain: string,
  cache: ArtifactCache,
  {
    stats = { loaded: [], cacheHits: 0 },
    pointerTtl = DEFAULT_POINTER_TTL_MS,
    edge,
    shardReads = 'ranges',
  }: OpenOptions = {},
): Promise<IndexReader> {
  const version = await livePointer(kv, domain, cache, stats, pointerTtl);
  const reads = new VersionReads(bucket, domain, version, cache, stats, edge);
  const manifest = await reads.manifest();
  const directory = await reads.load<Directory>(
    manifest.directory,
    decodeDirectory,
    () => manifest.directory.bytes * 2,
  );
  const parts = partitionedReader(
    manifest,
    directory,
    reads.load,
    shardReads === 'ranges' ? reads.readRange : undefined,
    (ref, bytes) => cache.resize(`${version}/${cacheKeyOf(ref)}`, bytes),
  );
  /** Any failure in the partitioned reads: a shard number outside the index is the version's fault, a 503. */
  const guarded = <T>(p: Promise<T>): Promise<T> =>
    reads.forgetPointerOnFailure(
      p.catch((err: unknown) => {
        if (err instanceof ShardNotInIndexError) throw unavailable('shard_not_in_index', { version, shard: err.shard });
        if (err instanceof RangeChecksumError)
          throw unavailable('artifact_checksum_mismatch', { version, file: err.file });
        if (err instanceof ArtifactFormatError) throw unavailable('artifact_invalid', { version, error: err.message });
        throw err;
      }),
    );

  return {
    manifest,
    directory,
    scope: (tickers) => guarded(parts.scope(tickers)),
    terms: (terms) => guarded(parts.terms(terms)),
    shard: (index) => guarded(parts.shard(index)),
    shardParts: (index, need) => guarded(parts.shardParts(index, need)),
    graph: (index: number) =>
      guarded(parts.shardInfo(index).then((info) => loadGraph(reads, info, directory.embedding_dim))),
  };
}

/** The version the KV pointer names, from the isolate's memo while it is fresh. Only a successful read is memoized. */
async function livePointer(
  kv: KVNamespace,
  domain: string,
  cache: ArtifactCache,
  stats: LoadStats,
  pointerTtl: number,
): Promise<string> {
  // The pointer memo lives in the artifact cache (a few bytes, per isolate).
  const memo = cache.get<PointerMemo>(pointerCacheKey(domain));
  if (memo && pointerTtl > 0 && Date.now() - memo.readAt < pointerTtl) return memo.version;
  const pointed = await timedLoad(stats, () => kv.get(pointerKey(domain)));
  if (!pointed) throw unavailable('no_published_version');
  if (pointerTtl > 0) {
    // set() keeps an existing entry, so replace the stale memo explicitly.
    cache.delete(pointerCacheKey(domain));
    cache.set<PointerMemo>(pointerCacheKey(domain), { version: pointed, readAt: Date.now() }, 128);
  }
  return pointed;
}

/** A shard read by ranges is cached under its file and `#head` (what was loaded), a whole object under its file. */
const cacheKeyOf = (ref: StoredRef) => (ref.prefix ? `${ref.file}#head` : ref.file);

/**
 * One request's reads of one version: every artifact and range is read at most once however many of the request's
 * passes ask for it, verified before decoding, and cached per isolate. The isolate's cache keys by version and file,
 * not by content: a shard's decoded value depends on the directory (its sources' global numbers), so it is only
 * valid within its version.
 */
class VersionReads {
  /** Loads in flight in this request, by key: a request's parallel passes share one read of an artifact or range. */
  private readonly inflight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly bucket: R2Bucket,
    private readonly domain: string,
    readonly version: string,
    readonly cache: ArtifactCache,
    readonly stats: LoadStats,
    private readonly edge: EdgeCache | undefined,
  ) {}

  /**
   * Any failure to load this version (missing, corrupt or invalid artifact) forgets the memoized pointer, so the next
   * request re-reads KV: if the operator repaired the pointer, the Worker recovers on the next request, not after
   * the TTL. Failed loads themselves are never cached (cache.set only runs after a successful verify and decode).
   */
  readonly forgetPointerOnFailure = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (err instanceof ApiError && err.code === 'INDEX_UNAVAILABLE') {
        const current = this.cache.get<PointerMemo>(pointerCacheKey(this.domain));
        if (current?.version === this.version) this.cache.delete(pointerCacheKey(this.domain));
      }
      throw err;
    });

  private once<T>(key: string, run: () => Promise<T>): Promise<T> {
    let p = this.inflight.get(key) as Promise<T> | undefined;
    if (!p) {
      p = run().finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private cached<T>(key: string, load: () => Promise<{ value: T; bytes: number }>): Promise<T> {
    const hit = this.cache.get<T>(`${this.version}/${key}`);
    if (hit !== undefined) {
      this.stats.cacheHits++;
      return Promise.resolve(hit);
    }
    return this.once(`artifact:${key}`, () =>
      this.forgetPointerOnFailure(timedLoad(this.stats, load)).then(({ value, bytes }) => {
        this.stats.loaded.push(key);
        return this.cache.set(`${this.version}/${key}`, value, bytes);
      }),
    );
  }

  private countRead(bytes: number): void {
    this.stats.storageBytes = (this.stats.storageBytes ?? 0) + bytes;
    this.stats.objectsRead = (this.stats.objectsRead ?? 0) + 1;
  }

  /**
   * Bytes of an object (or of the range offset..offset+length): the colo's copy when it has one that passes `intact`,
   * else R2's (then offered to the colo's cache under the same key). Keys are versioned or content-addressed
   * (index-format/keys.ts), a range's key adds the range, so a cached copy is never stale, only possibly corrupt,
   * which the seal or the block checksums catch. `colo` false skips the colo's cache (ranges that depend on the
   * query: each would cost a cache lookup and a put, subrequests of a limited budget, for little reuse).
   */
  private async fetchChecked(
    ref: StoredRef,
    range: { offset: number; length: number } | null,
    intact: (b: Uint8Array) => boolean | Promise<boolean>,
    colo = true,
  ): Promise<Uint8Array> {
    const { file } = ref;
    const { version } = this;
    const stored = storedKey(this.domain, version, ref);
    const key = stored + (range ? `/bytes=${range.offset}-${range.offset + range.length - 1}` : '');
    const coloCache = colo ? this.edge : undefined;
    const copy = coloCache ? await coloCache.get(key) : null;
    if (copy) {
      this.countRead(copy.byteLength);
      if (await intact(copy)) {
        this.stats.edgeHits = (this.stats.edgeHits ?? 0) + 1;
        return copy;
      }
      await coloCache!.delete(key);
    }
    let object: R2ObjectBody | null;
    try {
      object = await this.bucket.get(stored, range ? { range } : undefined);
    } catch (err) {
      // A range past the end of a stored object: it is shorter than the version says.
      if (range) throw unavailable('artifact_checksum_mismatch', { version, file });
      throw err;
    }
    if (!object) throw unavailable('artifact_missing', { version, file });
    const bytes = new Uint8Array(await object.arrayBuffer());
    this.countRead(bytes.byteLength);
    if (!(await intact(bytes))) throw unavailable('artifact_checksum_mismatch', { version, file });
    coloCache?.put(key, bytes);
    return bytes;
  }

  /** A whole object checked by its seal, or a prefix (a shard's head) by its CRC-32. */
  fetchVerified(ref: StoredRef): Promise<Uint8Array> {
    const { prefix } = ref;
    if (!prefix) return this.fetchChecked(ref, null, verifySeal);
    return this.fetchChecked(
      ref,
      { offset: 0, length: prefix.bytes },
      (b) => b.byteLength === prefix.bytes && crc32(b) === prefix.crc,
    );
  }

  readonly readRange: ReadRange = (ref, offset, length, intact) =>
    this.once(`range:${ref.file}:${offset}:${length}`, () =>
      timedLoad(this.stats, () =>
        this.fetchChecked(ref, { offset, length }, intact, false).then((bytes) => {
          this.stats.rangesRead = (this.stats.rangesRead ?? 0) + 1;
          return bytes;
        }),
      ),
    );

  decodeOr503<T>(file: string, decode: () => T): T {
    try {
      return decode();
    } catch (err) {
      if (err instanceof ArtifactFormatError)
        throw unavailable('artifact_invalid', { version: this.version, file, error: err.message });
      throw err;
    }
  }

  manifest(): Promise<Manifest> {
    return this.cached<Manifest>('manifest', async () => {
      const object = await this.bucket.get(manifestKey(this.domain, this.version));
      if (!object) throw unavailable('manifest_missing', { version: this.version });
      const text = await object.text();
      this.countRead(text.length);
      return { value: this.decodeOr503('manifest.json', () => decodeManifest(text)), bytes: text.length * 2 };
    });
  }

  /** An artifact (or a shard's head), read, verified and decoded once per isolate and version. */
  readonly load = <T>(ref: StoredRef, decode: (b: Uint8Array) => T, size: (v: T) => number): Promise<T> =>
    this.cached<T>(cacheKeyOf(ref), async () => {
      const bytes = await this.fetchVerified(ref);
      const value = this.decodeOr503(ref.file, () => decode(bytes));
      return { value, bytes: size(value) };
    });
}

/**
 * A shard's graph, read into the isolate's hnswlib heap and cached there. The heap is a cache arena: its size
 * (16 MiB from the first graph on, growing, never shrinking) is what counts against the budget, and the graphs
 * inside it are entries that free their native memory when evicted. Null when the shard has no graph or the graph
 * cannot fit the budget (the caller scans exactly). A listed but missing or corrupt graph is a 503, like any
 * other artifact: it means the published version is broken.
 */
async function loadGraph(reads: VersionReads, info: ShardInfo, dim: number): Promise<HnswIndexHandle | null> {
  if (!info.graph_file) return null;
  const { cache, stats, version } = reads;
  const file = info.graph_file;
  const key = `${version}/${file}`;
  const hit = cache.get<HnswIndexHandle>(key);
  if (hit !== undefined) {
    stats.cacheHits++;
    return hit;
  }
  const needed = (info.graph_bytes ?? 0) + info.statement_count * GRAPH_OVERHEAD_PER_VECTOR;
  if (Math.max(HNSW_MIN_HEAP_BYTES, needed) > cache.budget) return null; // could never be cached: do not load it

  const lib = await hnswRuntime();
  cache.setArena(HNSW_ARENA, hnswHeapBytes(lib)); // first graph of the isolate: the 16 MiB heap enters the budget
  const bytes = await timedLoad(stats, () => reads.fetchVerified({ file, content_id: info.graph_content_id }));
  const { hnsw } = reads.decodeOr503(file, () =>
    decodeGraph(bytes, { shard: info.id, dim, count: info.statement_count }, parseHnswHeader),
  );
  // Free least recently used graphs first if the heap has no room, so it grows only when it must.
  cache.evictFromArena(HNSW_ARENA, needed);
  let native: HnswIndex;
  try {
    native = readHnswIndex(lib, hnsw, { space: 'ip', dim, maxElements: 0 });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The heap could not grow: degrade to an exact scan instead of failing the request. hnswlib reports it as
    // "std::runtime_error: Not enough memory: loadIndex failed to allocate ..." and the instance stays usable.
    if (/not enough memory|bad_alloc|out of memory/i.test(message)) {
      console.error(JSON.stringify({ level: 'error', event: 'graph_oom', file, heap_bytes: hnswHeapBytes(lib) }));
      return null;
    }
    throw unavailable('artifact_invalid', { version, file, error: message });
  }
  stats.loaded.push(file);
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
}
