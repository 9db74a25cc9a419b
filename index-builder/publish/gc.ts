import { decodeFileList } from '../../index-format/codec';
import { CONTENT_PREFIX, FILE_LIST, objectKey, pointerKey, storedKey } from '../../index-format/keys';
import type { PublishTarget, StoredObject } from './publish';

export interface GcPlan {
  /** Every published version, newest first (by the upload time of its manifest). */
  versions: string[];
  current: string | null;
  keep: string[];
  remove: string[];
  /**
   * Objects to delete: the removed versions' own objects (manifests first), then stored objects no kept version lists.
   */
  keys: string[];
  bytes: number;
  /** Kept versions whose files.json could not be read: while there are any, no content-addressed object is removed. */
  unlisted: string[];
  /** Stored objects no kept version lists, kept because they are younger than the grace period. */
  recent: number;
}

/**
 * How long a stored object no version lists is kept: partition jobs of build-index.yml upload their objects before
 * the merge publishes the version that lists them, so a gc in between must not take them.
 */
export const GC_GRACE_MS = 24 * 3600 * 1000;

/**
 * What `gc --keep N` removes. Versions are the `<domain>/<version>/` prefixes; a version's age is its manifest's upload
 * time (a prefix without one, an interrupted publish, counts by its newest object). It keeps the N newest, the current
 * one (the pointer) and the one published before it, so a rollback to the previous version always has its objects.
 * Content-addressed objects (`<domain>/objects/`, shared between versions) are removed only when no kept version's
 * files.json lists them and they were uploaded before `youngAfter` (ms since the epoch; GC_GRACE_MS before now in
 * collectGarbage); `lists` holds the files.json of the versions that have one, as uploaded.
 */
export function planGc(
  objects: readonly StoredObject[],
  domain: string,
  current: string | null,
  keepNewest: number,
  lists: ReadonlyMap<string, string>,
  youngAfter = Number.POSITIVE_INFINITY,
): GcPlan {
  const byVersion = new Map<string, StoredObject[]>();
  const stored: StoredObject[] = [];
  for (const o of objects) {
    const [d, version, ...rest] = o.key.split('/');
    if (d !== domain || !version || !rest.length) continue;
    if (version === CONTENT_PREFIX) {
      stored.push(o);
      continue;
    }
    const list = byVersion.get(version);
    if (list) list.push(o);
    else byVersion.set(version, [o]);
  }
  // A version's age: its manifest's upload time (written after its data), else its newest object's.
  const age = (v: string) => {
    const list = byVersion.get(v)!;
    return list.find((o) => o.key.endsWith('/manifest.json'))?.uploaded ?? Math.max(...list.map((o) => o.uploaded));
  };
  const versions = [...byVersion.keys()].sort((a, b) => age(b) - age(a) || (a < b ? -1 : 1));
  const keep = new Set(versions.slice(0, Math.max(0, keepNewest)));
  if (current && byVersion.has(current)) {
    keep.add(current);
    const previous = versions
      .slice(versions.indexOf(current) + 1)
      .find((v) => byVersion.get(v)!.some((o) => o.key.endsWith('/manifest.json')));
    if (previous) keep.add(previous);
  }
  const remove = versions.filter((v) => !keep.has(v));
  const keys = remove.flatMap((v) => {
    const list = byVersion.get(v)!;
    return [
      ...list.filter((o) => o.key.endsWith('/manifest.json')),
      ...list.filter((o) => !o.key.endsWith('/manifest.json')),
    ].map((o) => o.key);
  });

  // Stored objects: referenced by some kept version, or garbage. A kept version without a readable list could need any.
  const referenced = new Set<string>();
  const unlisted: string[] = [];
  for (const v of versions.filter((x) => keep.has(x))) {
    const text = lists.get(v);
    let refs: ReturnType<typeof decodeFileList>['files'] | null;
    try {
      refs = text === undefined ? null : decodeFileList(text).files;
    } catch {
      refs = null;
    }
    if (!refs) unlisted.push(v);
    else for (const ref of refs) if (ref.content_id) referenced.add(storedKey(domain, v, ref));
  }
  let recent = 0;
  if (!unlisted.length)
    for (const o of stored) {
      if (referenced.has(o.key)) continue;
      if (o.uploaded > youngAfter) recent++;
      else keys.push(o.key);
    }

  const removed = new Set(keys);
  const bytes = objects.filter((o) => removed.has(o.key)).reduce((n, o) => n + o.bytes, 0);
  return { versions, current, keep: versions.filter((v) => keep.has(v)), remove, keys, bytes, unlisted, recent };
}

/**
 * Lists the domain's objects and every version's files.json, plans and (unless dryRun) deletes: each removed
 * version's manifest before its data, then the stored objects nothing kept refers to, once older than `graceMs`.
 * Run it after a publish, never alongside one (the refresh workflow runs both in one job): a publish that starts
 * after the listing would find an object already there, skip it, and lose it to this run; objects uploaded ahead of
 * their version (a partition job's) are what the grace period keeps.
 */
export async function collectGarbage(
  target: PublishTarget,
  domain: string,
  keepNewest: number,
  opts: { dryRun?: boolean; graceMs?: number } = {},
): Promise<GcPlan> {
  if (!Number.isInteger(keepNewest) || keepNewest < 1)
    throw new Error(`--keep must be a positive integer, got ${keepNewest}`);
  const current = await target.getPointer(pointerKey(domain));
  const objects = await target.listObjects(`${domain}/`);
  const lists = new Map<string, string>();
  for (const o of objects) {
    const version = o.key.split('/')[1]!;
    if (version === CONTENT_PREFIX || o.key !== objectKey(domain, version, FILE_LIST)) continue;
    const bytes = await target.getObject(o.key);
    if (bytes) lists.set(version, new TextDecoder().decode(bytes));
  }
  const plan = planGc(objects, domain, current, keepNewest, lists, Date.now() - (opts.graceMs ?? GC_GRACE_MS));
  if (!opts.dryRun && plan.keys.length) await target.deleteObjects(plan.keys);
  return plan;
}
