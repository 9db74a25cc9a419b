import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexReader } from '../../index-format/index-reader';
import { partitionedReader, RangeChecksumError } from '../../index-format/partitioned-reader';
import { crc32 } from '../../index-format/crc32';
import { decodeDirectory, decodeIssuerTable, decodeManifest } from '../../index-format/codec';
import { verifySeal } from '../../index-format/container';
import type { CatalogHeader, StoredRef } from '../../index-format/types';
import { scopedCatalog } from '../../index-format/views';

/**
 * A built index directory as an IndexReader (exact vector scans; no graphs), for Node tests and scripts. Artifacts
 * are read when first asked for, verified like the Worker does (seal, or a range's checksums), and kept. `onRead`
 * sees every read (the manifest's text included), as the Worker's storage_bytes counts them. `shardReads`: by
 * byte ranges as the Worker reads them (default), or whole (the slow twin). `latencyMs`: each read resolves that much
 * later, as remote storage would (benchmarks of how many reads a query waits for one after another).
 */
export function openFileIndex(
  dir: string,
  {
    onRead,
    shardReads = 'ranges',
    latencyMs = 0,
  }: {
    onRead?: (file: string, bytes: number, offset: number) => void;
    shardReads?: 'ranges' | 'whole';
    latencyMs?: number;
  } = {},
): IndexReader {
  // Remote storage's round trip, simulated: each read resolves latencyMs later (reads in parallel overlap).
  const roundTrip = () => new Promise((resolve) => setTimeout(resolve, latencyMs));
  const readPart = (file: string, offset: number, length: number) => {
    const fd = openSync(join(dir, file), 'r');
    try {
      const bytes = new Uint8Array(length);
      const n = readSync(fd, bytes, 0, length, offset);
      onRead?.(file, n, offset);
      return bytes.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  };
  const read = (file: string) => {
    const bytes = new Uint8Array(readFileSync(join(dir, file)));
    onRead?.(file, bytes.byteLength, 0);
    return bytes;
  };
  const manifest = decodeManifest(new TextDecoder().decode(read('manifest.json')));
  const directory = decodeDirectory(read(manifest.directory.file));
  const loaded = new Map<string, Promise<unknown>>();
  return partitionedReader(
    manifest,
    directory,
    <T>({ file, prefix }: StoredRef, decode: (bytes: Uint8Array) => T) => {
      let p = loaded.get(file) as Promise<T> | undefined;
      if (!p) {
        p = (async () => {
          if (latencyMs) await roundTrip();
          if (prefix) {
            const head = readPart(file, 0, prefix.bytes);
            if (head.byteLength !== prefix.bytes || crc32(head) !== prefix.crc) throw new RangeChecksumError(file);
            return decode(head);
          }
          const bytes = read(file);
          if (!(await verifySeal(bytes))) throw new Error(`${file}: seal does not match its content`);
          return decode(bytes);
        })();
        loaded.set(file, p);
      }
      return p;
    },
    shardReads === 'ranges'
      ? async (ref, offset, length, intact) => {
          if (latencyMs) await roundTrip();
          const bytes = readPart(ref.file, offset, length);
          if (!intact(bytes)) throw new RangeChecksumError(ref.file);
          return bytes;
        }
      : undefined,
  );
}

/**
 * Every issuer's sources, shards and entities of a built version directory: the whole catalog, for tests and
 * benchmarks.
 */
export function readFullCatalog(dir: string): CatalogHeader {
  const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
  const manifest = decodeManifest(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const directory = decodeDirectory(read(manifest.directory.file));
  return scopedCatalog(
    directory,
    directory.companies.map((c) => decodeIssuerTable(read(c.table), c.ticker)),
  );
}
