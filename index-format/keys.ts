import type { StoredRef } from './types';

/**
 * Where artifacts live in R2 and the pointer in KV. One place, shared by the publisher, gc and the Worker.
 *
 * A version's own objects (manifest, file list, directory, term blocks: what changes with every build) live under
 * `<domain>/<version>/`. Objects that usually outlive a version (an issuer's table, shards and graphs: an incremental
 * build reuses them byte for byte) live once under `<domain>/objects/`, named by their content, so publishing a new
 * version uploads only what changed and every version that shares an object reads the same key (docs/DECISIONS.md
 * "Content-addressed objects").
 */
export const pointerKey = (domain: string) => `${domain}/current`;
export const manifestKey = (domain: string, version: string) => `${domain}/${version}/manifest.json`;
export const objectKey = (domain: string, version: string, file: string) => `${domain}/${version}/${file}`;

/** Every object of a version but the manifest and itself, in publishing order: what publish and gc read. */
export const FILE_LIST = 'files.json';

/** The prefix of every content-addressed object; no version is named like it (versions are hex). */
export const CONTENT_PREFIX = 'objects';
const contentPrefix = (domain: string) => `${domain}/${CONTENT_PREFIX}/`;

/** The first 128 bits of an object's SHA-256: enough to name it, the full hash is in its seal. */
export const contentIdOf = (sha256: string) => sha256.slice(0, 32);

/** shards/AAPL-FY2024.bin with id 3fa9... -> sp500/objects/shards/AAPL-FY2024.3fa9....bin (readable in a listing). */
export const contentKey = (domain: string, file: string, contentId: string) => {
  const dot = file.lastIndexOf('.');
  const [stem, ext] = dot > file.lastIndexOf('/') ? [file.slice(0, dot), file.slice(dot)] : [file, ''];
  return `${contentPrefix(domain)}${stem}.${contentId}${ext}`;
};

/** Where one artifact of a version is stored: by content when its reference names a content id, else per version. */
export const storedKey = (domain: string, version: string, ref: StoredRef) =>
  ref.content_id ? contentKey(domain, ref.file, ref.content_id) : objectKey(domain, version, ref.file);
