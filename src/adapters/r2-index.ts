import type { IndexReader } from '../core/index-reader';
import { ApiError } from '../errors';
import { ArtifactFormatError } from '../format/container';
import { decodeCatalog, decodeEmbedding, decodeLexicon, decodeManifest, decodeShard } from '../format/codec';
import { manifestKey, objectKey, pointerKey } from '../format/keys';
import type { ArtifactRef, CatalogHeader, EmbeddingModel, Lexicon, Manifest, Shard } from '../format/types';
import type { ArtifactCache } from './artifact-cache';

export interface LoadStats {
  loaded: string[];
  cacheHits: number;
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
): Promise<IndexReader> {
  const version = await kv.get(pointerKey(domain));
  if (!version) throw unavailable('no_published_version');

  const cached = <T>(key: string, load: () => Promise<{ value: T; bytes: number }>): Promise<T> => {
    const hit = cache.get<T>(`${version}/${key}`);
    if (hit !== undefined) {
      stats.cacheHits++;
      return Promise.resolve(hit);
    }
    return load().then(({ value, bytes }) => {
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
  return {
    manifest,
    catalog,
    lexicon: () => load<Lexicon>(manifest.lexicon, decodeLexicon, (l) => l.byteSize * 2),
    embedding: () => load<EmbeddingModel>(manifest.embedding, decodeEmbedding, (e) => e.byteSize * 2),
    shard(index: number): Promise<Shard> {
      const ref = manifest.shards[index];
      if (!ref) return Promise.reject(unavailable('shard_not_in_manifest', { index }));
      return load<Shard>(ref, decodeShard, (s) => s.byteSize * 2);
    },
  };
}
