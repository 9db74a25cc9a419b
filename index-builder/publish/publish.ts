import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFileList, decodeManifest } from '../../index-format/codec';
import type { Manifest } from '../../index-format/types';
import { manifestKey, pointerKey, storedKey } from '../../index-format/keys';

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
  for (const [i, ref] of files.entries()) {
    const key = storedKey(manifest.domain, manifest.version, ref);
    if (await target.hasObject(key, ref.bytes)) {
      report.skipped++;
      report.skippedBytes += ref.bytes;
    } else {
      const data = new Uint8Array(readFileSync(join(versionDir, ref.file)));
      if (data.byteLength !== ref.bytes)
        throw new Error(`${ref.file}: ${data.byteLength} bytes on disk, manifest says ${ref.bytes}`);
      await target.putObject(key, data);
      report.uploaded++;
      report.bytes += data.byteLength;
    }
    onFile?.(i + 1, files.length);
  }
  await target.putObject(manifestKey(manifest.domain, manifest.version), new TextEncoder().encode(manifestText));
  await target.putPointer(pointerKey(manifest.domain), manifest.version);
  return report;
}
