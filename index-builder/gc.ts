import { pointerKey } from '../src/format/keys';
import type { PublishTarget, StoredObject } from './publish';

export interface GcPlan {
  /** Every published version, newest first (by the upload time of its manifest). */
  versions: string[];
  current: string | null;
  keep: string[];
  remove: string[];
  /** Objects of the removed versions, manifests first. */
  keys: string[];
  bytes: number;
}

/**
 * Which versions `gc --keep N` removes: all but the N newest, never the current one (the pointer) and never the one
 * published before it, so a rollback to the previous version always has its objects. Versions are the
 * `<domain>/<version>/` prefixes that hold a manifest; a prefix without one (an interrupted publish) is removed too
 * when older than every kept version.
 */
export function planGc(objects: readonly StoredObject[], domain: string, current: string | null, keepNewest: number): GcPlan {
  const byVersion = new Map<string, StoredObject[]>();
  for (const o of objects) {
    const [d, version, ...rest] = o.key.split('/');
    if (d !== domain || !version || !rest.length) continue;
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
    const previous = versions.slice(versions.indexOf(current) + 1).find((v) => byVersion.get(v)!.some((o) => o.key.endsWith('/manifest.json')));
    if (previous) keep.add(previous);
  }
  const remove = versions.filter((v) => !keep.has(v));
  const keys = remove.flatMap((v) => {
    const list = byVersion.get(v)!;
    return [...list.filter((o) => o.key.endsWith('/manifest.json')), ...list.filter((o) => !o.key.endsWith('/manifest.json'))].map((o) => o.key);
  });
  const removed = new Set(keys);
  const bytes = objects.filter((o) => removed.has(o.key)).reduce((n, o) => n + o.bytes, 0);
  return { versions, current, keep: versions.filter((v) => keep.has(v)), remove, keys, bytes };
}

/** Lists the domain's objects, plans and (unless dryRun) deletes: each removed version's manifest before its data. */
export async function collectGarbage(target: PublishTarget, domain: string, keepNewest: number, opts: { dryRun?: boolean } = {}): Promise<GcPlan> {
  if (!Number.isInteger(keepNewest) || keepNewest < 1) throw new Error(`--keep must be a positive integer, got ${keepNewest}`);
  const current = await target.getPointer(pointerKey(domain));
  const plan = planGc(await target.listObjects(`${domain}/`), domain, current, keepNewest);
  if (!opts.dryRun && plan.keys.length) await target.deleteObjects(plan.keys);
  return plan;
}
