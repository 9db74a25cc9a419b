import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexReader } from '../../src/core/index-reader';
import { partitionedReader } from '../../src/core/partitioned-reader';
import { decodeDirectory, decodeIssuerTable, decodeManifest } from '../../src/format/codec';
import { verifySeal } from '../../src/format/container';
import type { CatalogHeader, StoredRef } from '../../src/format/types';
import { scopedCatalog } from '../../src/format/views';

/**
 * A built index directory as an IndexReader (exact vector scans; no graphs), for Node tests and scripts. Artifacts
 * are read when first asked for, verified by their seal like the Worker does, and kept. `onRead` sees every file
 * read (the manifest's text included), as the Worker's storage_bytes counts them.
 */
export function openFileIndex(dir: string, { onRead }: { onRead?: (file: string, bytes: number) => void } = {}): IndexReader {
  const read = (file: string) => {
    const bytes = new Uint8Array(readFileSync(join(dir, file)));
    onRead?.(file, bytes.byteLength);
    return bytes;
  };
  const manifest = decodeManifest(new TextDecoder().decode(read('manifest.json')));
  const directory = decodeDirectory(read(manifest.directory.file));
  const loaded = new Map<string, Promise<unknown>>();
  return partitionedReader(manifest, directory, <T>({ file }: StoredRef, decode: (bytes: Uint8Array) => T) => {
    let p = loaded.get(file) as Promise<T> | undefined;
    if (!p) {
      p = (async () => {
        const bytes = read(file);
        if (!(await verifySeal(bytes))) throw new Error(`${file}: seal does not match its content`);
        return decode(bytes);
      })();
      loaded.set(file, p);
    }
    return p;
  });
}

/** Every issuer's sources, shards and entities of a built version directory: the whole catalog, for tests and benchmarks. */
export function readFullCatalog(dir: string): CatalogHeader {
  const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
  const manifest = decodeManifest(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const directory = decodeDirectory(read(manifest.directory.file));
  return scopedCatalog(directory, directory.companies.map((c) => decodeIssuerTable(read(c.table), c.ticker)));
}
