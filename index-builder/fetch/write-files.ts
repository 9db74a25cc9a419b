import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export const toSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes beside the target and renames over it: a rename within one directory is atomic, so a reader (or a
 * fetch interrupted mid-write) sees the old file or the new one, never half of one.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.part`);
  try {
    writeFileSync(temp, data, { flush: true });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

/** Removes temporary files a killed run left between write and rename; returns how many. */
export function removeStaleTemporaries(dir: string): number {
  const stale = readdirSync(dir).filter((n) => /^\..+\.\d+\.[0-9a-f]{8}\.part$/.test(n));
  for (const n of stale) rmSync(join(dir, n), { force: true });
  return stale.length;
}

/** The part of a sidecar that says which download the HTML file beside it is. */
export interface DownloadStamp {
  accession: string;
  bytes: number;
  sha256: string;
}

/**
 * A filing counts as downloaded when its sidecar names the same accession and the HTML beside it has the size
 * and SHA-256 the sidecar recorded. The sidecar is written first and the HTML last, so a fetch cut off between
 * the two leaves a sidecar without its HTML (the builder reads only HTML files), which this check re-fetches.
 */
export function isDownloaded(htmlPath: string, sidecarPath: string, accession: string): boolean {
  if (!existsSync(htmlPath) || !existsSync(sidecarPath)) return false;
  let stamp: Partial<DownloadStamp>;
  try {
    stamp = JSON.parse(readFileSync(sidecarPath, 'utf8')) as Partial<DownloadStamp>;
  } catch {
    return false;
  }
  if (stamp.accession !== accession || typeof stamp.bytes !== 'number' || typeof stamp.sha256 !== 'string')
    return false;
  if (statSync(htmlPath).size !== stamp.bytes) return false;
  return toSha256(readFileSync(htmlPath)) === stamp.sha256;
}
