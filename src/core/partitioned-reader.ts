import { decodeIssuerTable, decodeShard, decodeTermBlock } from '../format/codec';
import type { Directory, DirectoryCompany, IssuerTable, Manifest, ShardInfo, StoredRef, TermBlock } from '../format/types';
import { DirectoryIndex, scopedCatalog, termBlockFile, termBlockOf, termTable, withGlobalSources } from '../format/views';
import type { IndexReader } from './index-reader';

/**
 * Loads one artifact of the open version: read, verified (its seal), decoded and cached by the implementation.
 * `ref` names the file and, for objects stored by content, its content id (src/format/keys.ts). `size` is what the
 * decoded value costs in memory, for the cache's budget.
 */
export type LoadArtifact = <T>(ref: StoredRef, decode: (bytes: Uint8Array) => T, size: (value: T) => number) => Promise<T>;

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
export function partitionedReader(manifest: Manifest, directory: Directory, load: LoadArtifact) {
  const index = new DirectoryIndex(directory);
  const issuer = (c: DirectoryCompany): Promise<IssuerTable> =>
    load({ file: c.table, content_id: c.table_content_id }, (b) => decodeIssuerTable(b, c.ticker), (t) => JSON.stringify(t).length * JSON_COST);
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
      const blocks = await Promise.all(ids.map((k) => load<TermBlock>({ file: termBlockFile(k) }, (b) => decodeTermBlock(b, k), (t) => t.byteSize)));
      return termTable(directory, new Map(blocks.map((b) => [b.block, b])), terms);
    },
    async shard(shard) {
      const { owner, info } = await located(shard);
      return load({ file: info.file, content_id: info.content_id }, (b) => withGlobalSources(decodeShard(b), owner), (s) => s.byteSize * JSON_COST);
    },
    shardInfo,
  };
  return reader;
}
