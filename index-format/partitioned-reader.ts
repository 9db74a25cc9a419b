import { decodeIssuerTable, decodeShard, decodeTermBlock } from './codec';
import {
  blocksIntact,
  decodeShardHead,
  fillPostings,
  fillRecord,
  blockReads,
  spanReads,
  recordBody,
  recordIntact,
  shardMemory,
} from './shard-layout';
import type {
  Directory,
  DirectoryCompany,
  IssuerTable,
  Manifest,
  Shard,
  ShardInfo,
  StoredRef,
  TermBlock,
} from './types';
import { DirectoryIndex, scopedCatalog, termBlockFile, termBlockOf, termTable, withGlobalSources } from './views';
import type { IndexReader, ShardNeed } from './index-reader';

/**
 * Loads one artifact of the open version: read, verified (its seal), decoded and cached by the implementation.
 * `ref` names the file and, for objects stored by content, its content id (index-format/keys.ts). `size` is what the
 * decoded value costs in memory, for the cache's budget.
 */
export type LoadArtifact = <T>(
  ref: StoredRef,
  decode: (bytes: Uint8Array) => T,
  size: (value: T) => number,
) => Promise<T>;

/**
 * Reads bytes offset..offset+length of a stored object. `intact` checks them (block checksums): a cached copy that
 * fails is dropped and storage read instead; storage bytes that fail are a RangeChecksumError. These ranges depend on
 * the query (postings, records), so they go to storage only; a shard's head (with its codes) is loaded as a prefix
 * (LoadArtifact), which a colo cache keeps.
 */
export type ReadRange = (
  ref: StoredRef,
  offset: number,
  length: number,
  intact: (bytes: Uint8Array) => boolean,
) => Promise<Uint8Array>;

/** A range of a stored object whose bytes do not match their checksum (corrupt or truncated in storage). */
export class RangeChecksumError extends Error {
  constructor(readonly file: string) {
    super(`${file}: a range read does not match its checksum`);
  }
}

export class ShardNotInIndexError extends Error {
  constructor(readonly shard: number) {
    super(`shard ${shard} is not in the index`);
  }
}

/** Decoded JSON costs roughly twice its UTF-8 size in memory; count that, not the wire size. */
const JSON_COST = 2;

/**
 * The reading logic of a partitioned version, shared by every IndexReader (R2 in the Worker, files in tests and
 * benchmarks): which artifact holds what, and how the core's values are assembled from them. The caller supplies
 * how an artifact is loaded (and cached), so the Worker and the file reader differ only in I/O.
 */
/** Tells the loader's cache a loaded artifact's new size (a shard read by ranges grows as its parts are filled in). */
export type ResizeArtifact = (ref: StoredRef, bytes: number) => void;

export function partitionedReader(
  manifest: Manifest,
  directory: Directory,
  load: LoadArtifact,
  readRange?: ReadRange,
  resized?: ResizeArtifact,
) {
  const index = new DirectoryIndex(directory);
  const issuer = (c: DirectoryCompany): Promise<IssuerTable> =>
    load(
      { file: c.table, content_id: c.table_content_id },
      (b) => decodeIssuerTable(b, c.ticker),
      (t) => JSON.stringify(t).length * JSON_COST,
    );
  const located = async (shard: number) => {
    const owner = index.ownerOfShard(shard);
    if (!owner) throw new ShardNotInIndexError(shard);
    const info = (await issuer(owner)).shards[shard - owner.shards.first];
    if (!info) throw new ShardNotInIndexError(shard);
    return { owner, info };
  };
  const shardInfo = async (shard: number): Promise<ShardInfo> => (await located(shard)).info;
  const reader: IndexReader & { shardInfo(shard: number): Promise<ShardInfo> } = {
    manifest,
    directory,
    async scope(tickers) {
      const known = [...new Set(tickers)].sort().flatMap((t) => index.company(t) ?? []);
      return scopedCatalog(directory, await Promise.all(known.map(issuer)));
    },
    async terms(terms) {
      const ids = [...new Set(terms.map((t) => termBlockOf(t, directory.terms.blocks)))].sort((a, b) => a - b);
      const blocks = await Promise.all(
        ids.map((k) =>
          load<TermBlock>(
            { file: termBlockFile(k) },
            (b) => decodeTermBlock(b, k),
            (t) => t.byteSize,
          ),
        ),
      );
      return termTable(directory, new Map(blocks.map((b) => [b.block, b])), terms);
    },
    async shard(shard) {
      const { owner, info } = await located(shard);
      const ref: StoredRef = { file: info.file, content_id: info.content_id };
      if (!readRange) return load(ref, (b) => withGlobalSources(decodeShard(b), owner), shardMemory);
      return load(headRef(info), (b) => withGlobalSources(decodeShardHead(b), owner), shardMemory);
    },
    async shardParts(index, need) {
      const shard = await reader.shard(index);
      if (!shard.parts || !readRange) return shard;
      const { info } = await located(index);
      const before = shardMemory(shard);
      await readShardParts(shard, { file: info.file, content_id: info.content_id }, need, readRange);
      if (shardMemory(shard) !== before) resized?.(headRef(info), shardMemory(shard));
      return shard;
    },
    shardInfo,
  };
  return reader;
}

/**
 * How a shard read by ranges is loaded and cached: its head and codes, checked by the CRC-32 its issuer table lists.
 */
const headRef = (info: ShardInfo): StoredRef => ({
  file: info.file,
  content_id: info.content_id,
  prefix: { bytes: info.head_bytes, crc: info.head_crc },
});

/**
 * Records closer than this are read in one request (a record is about 220 bytes: its text and consensus): a chain's
 * row and the rows near it on a few pages save a read for a few KB. Locally, where R2 serves reads nearly one at a
 * time, latency follows the number of reads; in production a Worker waits on six at a time.
 */
const RECORD_GAP_BYTES = 8192;
/**
 * Reads per shard of its postings in one step, at most: the closest reads are merged beyond it. A Worker keeps six
 * connections open at a time and queues the rest, so a query's reads come in waves; measured, latency follows the
 * number of reads more than their bytes (docs/PARAMETERS.md "Shard reads").
 */
const MAX_READS_PER_PART = 4;
/**
 * Reads per shard of records in one step, at most. A request reads the records of the chains it keeps only (about
 * three dozen statements over two or three shards), so records are read exactly in practice; merging them into 4
 * reads spanned the gaps between them (a median 241-298 KB per cold query instead of 20-27 KB).
 */
const MAX_RECORD_READS = 16;

/** Reads of a shard's parts under way, by what they fill: a posting list (term index), a record. */
interface PartsInFlight {
  postings: Map<number, Promise<void>>;
  records: Map<number, Promise<void>>;
}
const inFlight = new WeakMap<Shard, PartsInFlight>();

/** Registers `job` as the read of `keys` until it settles (a failed read is retried by whoever asks next). */
function track(pending: Map<number, Promise<void>>, keys: readonly number[], job: Promise<void>): Promise<void> {
  for (const k of keys) pending.set(k, job);
  const done = () => {
    for (const k of keys) if (pending.get(k) === job) pending.delete(k);
  };
  job.then(done, done);
  return job;
}

/**
 * Fills in the parts of a shard read by ranges that `need` names and it lacks: per term its posting list (by blocks),
 * per statement its record (exactly, each checked by the CRC-32 it ends with), nearby reads merged. Reads run in
 * parallel; each is checked against its checksums before anything is filled. A part another caller is already
 * reading (a concurrent pass of the same request, or another request) is awaited, not read again.
 */
async function readShardParts(shard: Shard, ref: StoredRef, need: ShardNeed, readRange: ReadRange): Promise<void> {
  const parts = shard.parts!;
  const layout = parts.layout;
  let pending = inFlight.get(shard);
  if (!pending) inFlight.set(shard, (pending = { postings: new Map(), records: new Map() }));
  const jobs: Promise<void>[] = [];
  if (need.terms) {
    const ids = [
      ...new Set(
        need.terms.map((t) => shard.termIndex.get(t)).filter((t): t is number => t !== undefined && !parts.postings[t]),
      ),
    ];
    // An empty list (no bytes) is complete as it is.
    for (const t of ids) if (layout.postingAt[t + 1] === layout.postingAt[t]) parts.postings[t] = 1;
    const unread = ids.filter((t) => !parts.postings[t]);
    for (const t of unread) if (pending.postings.has(t)) jobs.push(pending.postings.get(t)!);
    const wanted = unread.filter((t) => !pending.postings.has(t));
    const at = layout.postingAt;
    const { start, bytes: size, crc } = layout.postings;
    for (const read of blockReads(
      wanted.map((t) => [at[t]!, at[t + 1]!] as const),
      layout.block,
      1,
      MAX_READS_PER_PART,
    )) {
      const from = read.first * layout.block;
      const to = Math.min(size, (read.last + 1) * layout.block);
      const inside = wanted.filter((t) => at[t]! >= from && at[t + 1]! <= to);
      const intact = (bytes: Uint8Array) =>
        bytes.byteLength === to - from && blocksIntact(bytes, read, layout.block, crc);
      const job = readRange(ref, start + from, to - from, intact).then((bytes) => {
        for (const t of inside) fillPostings(shard, t, bytes.subarray(at[t]! - from, at[t + 1]! - from));
      });
      jobs.push(track(pending.postings, inside, job));
    }
  }
  if (need.records) {
    const unread = [...new Set(need.records)].filter(
      (i) => Number.isInteger(i) && i >= 0 && i < shard.count && !parts.records[i],
    );
    for (const i of unread) if (pending.records.has(i)) jobs.push(pending.records.get(i)!);
    const locals = unread.filter((i) => !pending.records.has(i));
    const at = layout.recordAt;
    const { start } = layout.records;
    for (const read of spanReads(
      locals.map((i) => [at[i]!, at[i + 1]!] as const),
      RECORD_GAP_BYTES,
      MAX_RECORD_READS,
    )) {
      const inside = locals.filter((i) => at[i]! >= read.from && at[i + 1]! <= read.to);
      const slice = (bytes: Uint8Array, i: number) => bytes.subarray(at[i]! - read.from, at[i + 1]! - read.from);
      const intact = (bytes: Uint8Array) =>
        bytes.byteLength === read.to - read.from && inside.every((i) => recordIntact(slice(bytes, i)));
      const job = readRange(ref, start + read.from, read.to - read.from, intact).then((bytes) =>
        inside.forEach((i) => {
          fillRecord(shard, i, recordBody(slice(bytes, i)));
        }),
      );
      jobs.push(track(pending.records, inside, job));
    }
  }
  await Promise.all(jobs);
}
