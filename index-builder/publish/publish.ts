import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFileList, decodeManifest } from '../../index-format/codec';
import type { ArtifactRef, Manifest } from '../../index-format/types';
import { contentKey, manifestKey, pointerKey, storedKey } from '../../index-format/keys';

/** An object in the bucket, as a listing reports it. */
export interface StoredObject {
  key: string;
  bytes: number;
  /** Upload time, ms since the epoch. */
  uploaded: number;
}

/** The storage operations publishing and gc need; implemented over R2/KV bindings (storage.ts). */
export interface PublishTarget {
  hasObject(key: string, bytes: number): Promise<boolean>;
  /** An object's bytes, or null when there is none. */
  getObject(key: string): Promise<Uint8Array | null>;
  putObject(key: string, bytes: Uint8Array): Promise<void>;
  getPointer(key: string): Promise<string | null>;
  putPointer(key: string, value: string): Promise<void>;
  listObjects(prefix: string): Promise<StoredObject[]>;
  deleteObjects(keys: string[]): Promise<void>;
}

export interface PublishReport {
  version: string;
  uploaded: number;
  skipped: number;
  bytes: number;
  /** Bytes of the objects already there (shared with earlier versions, or from an interrupted publish). */
  skippedBytes: number;
}

/**
 * Publishes one built version: files.json first (so gc sees which stored objects the version needs), then every
 * data file it lists, then the manifest, then (last) the KV pointer that makes the version live. A crash at any point
 * leaves the previous version serving. Shards, graphs and issuer tables are stored by content (index-format/keys.ts),
 * so an object an earlier version already uploaded is skipped, as is anything an interrupted run got to: a re-run
 * resumes, and an incremental build's publish uploads only what changed.
 */
export async function publishVersion(
  versionDir: string,
  target: PublishTarget,
  onFile?: (done: number, total: number) => void,
): Promise<PublishReport> {
  const manifestText = readFileSync(join(versionDir, 'manifest.json'), 'utf8');
  const manifest: Manifest = decodeManifest(manifestText);
  const files = [manifest.files, ...decodeFileList(readFileSync(join(versionDir, manifest.files.file), 'utf8')).files];
  const report: PublishReport = { version: manifest.version, uploaded: 0, skipped: 0, bytes: 0, skippedBytes: 0 };
  const missing = (ref: ArtifactRef) =>
    `${ref.file} is neither in ${versionDir} nor stored in the bucket: a merge with --objects-published leaves out ` +
    'the objects its partition jobs uploaded (index:publish -- --partial); upload them first';
  for (const [i, ref] of files.entries()) {
    const key = storedKey(manifest.domain, manifest.version, ref);
    await uploadIfMissing(target, key, ref, join(versionDir, ref.file), report, missing);
    onFile?.(i + 1, files.length);
  }
  await target.putObject(manifestKey(manifest.domain, manifest.version), new TextEncoder().encode(manifestText));
  await target.putPointer(pointerKey(manifest.domain), manifest.version);
  return report;
}

/**
 * Uploads a partition job's objects (shards, graphs, issuer tables) that are not stored yet. They are stored by
 * content, so their keys do not depend on the version the merge will make: a job uploads its own, and the merge job
 * needs only the partitions' small tables (docs/decisions/partitioned-build.md). Until the merge publishes the
 * version that lists them, gc keeps them for its grace period (gc.ts GC_GRACE_MS).
 */
export async function publishObjects(
  refs: readonly ArtifactRef[],
  objectsDir: string,
  domain: string,
  target: PublishTarget,
): Promise<Omit<PublishReport, 'version'>> {
  const report = { uploaded: 0, skipped: 0, bytes: 0, skippedBytes: 0 };
  for (const ref of refs) {
    if (!ref.content_id) throw new Error(`${ref.file} is not stored by content: only a version's publish uploads it`);
    const key = contentKey(domain, ref.file, ref.content_id);
    await uploadIfMissing(target, key, ref, join(objectsDir, ref.file), report);
  }
  return report;
}

/**
 * One object: skipped when the bucket holds it at its size, else read from `path`, checked against the ref's size and
 * uploaded. `missing` words the error for a file that is not there either (default: the read's own error).
 */
async function uploadIfMissing(
  target: PublishTarget,
  key: string,
  ref: ArtifactRef,
  path: string,
  report: Omit<PublishReport, 'version'>,
  missing?: (ref: ArtifactRef) => string,
): Promise<void> {
  if (await target.hasObject(key, ref.bytes)) {
    report.skipped++;
    report.skippedBytes += ref.bytes;
    return;
  }
  if (missing && !existsSync(path)) throw new Error(missing(ref));
  const data = new Uint8Array(readFileSync(path));
  if (data.byteLength !== ref.bytes)
    throw new Error(`${ref.file}: ${data.byteLength} bytes on disk, the file list says ${ref.bytes}`);
  await target.putObject(key, data);
  report.uploaded++;
  report.bytes += data.byteLength;
}
