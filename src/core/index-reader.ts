import type { CatalogHeader, EmbeddingModel, Lexicon, Manifest, Shard } from '../format/types';

/**
 * What the pure core needs from a published index. The Worker implements it over R2/KV with a per-isolate cache;
 * tests and the bench implement it over files. Loading is lazy: a query touches only the shards it selects.
 */
export interface IndexReader {
  readonly manifest: Manifest;
  readonly catalog: CatalogHeader;
  lexicon(): Promise<Lexicon>;
  embedding(): Promise<EmbeddingModel>;
  shard(index: number): Promise<Shard>;
}
