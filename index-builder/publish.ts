import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeFileList, decodeManifest } from '../src/format/codec';
import type { Manifest } from '../src/format/types';
import { manifestKey, objectKey, pointerKey } from '../src/format/keys';

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
}

/**
 * Publishes one built version: every data file first (files.json lists them), then files.json and the manifest,
 * then (last) the KV pointer that makes the version live. A crash at any point leaves the previous version serving; objects are content-addressed by version,
 * so re-running skips what is already there.
 */
export async function publishVersion(
  versionDir: string,
  target: PublishTarget,
  onFile?: (done: number, total: number) => void,
): Promise<PublishReport> {
  const manifestText = readFileSync(join(versionDir, 'manifest.json'), 'utf8');
  const manifest: Manifest = decodeManifest(manifestText);
  const files = [...decodeFileList(readFileSync(join(versionDir, manifest.files.file), 'utf8')).files, manifest.files];
  let uploaded = 0;
  let skipped = 0;
  let bytes = 0;
  for (const [i, ref] of files.entries()) {
    const key = objectKey(manifest.domain, manifest.version, ref.file);
    if (await target.hasObject(key, ref.bytes)) skipped++;
    else {
      const data = new Uint8Array(readFileSync(join(versionDir, ref.file)));
      if (data.byteLength !== ref.bytes) throw new Error(`${ref.file}: ${data.byteLength} bytes on disk, manifest says ${ref.bytes}`);
      await target.putObject(key, data);
      uploaded++;
      bytes += data.byteLength;
    }
    onFile?.(i + 1, files.length);
  }
  await target.putObject(manifestKey(manifest.domain, manifest.version), new TextEncoder().encode(manifestText));
  await target.putPointer(pointerKey(manifest.domain), manifest.version);
  return { version: manifest.version, uploaded, skipped, bytes };
}
