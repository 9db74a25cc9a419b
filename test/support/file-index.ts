import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexReader } from '../../src/core/index-reader';
import { decodeCatalog, decodeEmbedding, decodeLexicon, decodeManifest, decodeShard } from '../../src/format/codec';

/** A built index directory as an IndexReader (exact vector scans; no graphs), for Node tests and scripts. */
export function openFileIndex(dir: string): IndexReader {
  const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
  const manifest = decodeManifest(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  const catalog = decodeCatalog(read(manifest.catalog.file));
  const lexicon = decodeLexicon(read(manifest.lexicon.file));
  const embedding = decodeEmbedding(read(manifest.embedding.file));
  const shards = new Map<number, ReturnType<typeof decodeShard>>();
  return {
    manifest,
    catalog,
    lexicon: async () => lexicon,
    embedding: async () => embedding,
    shard: async (i) => {
      let s = shards.get(i);
      if (!s) shards.set(i, (s = decodeShard(read(catalog.shards[i]!.file))));
      return s;
    },
  };
}
