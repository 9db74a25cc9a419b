import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, type BuildResult } from '../../index-builder/build';
import { KV_NAMESPACE_ID, openLocalStorage, R2_BUCKET } from '../../index-builder/local-storage';
import { publishVersion, type PublishTarget } from '../../index-builder/publish';
import { readCorpus } from '../../index-builder/read-corpus';
import { manifestKey, pointerKey } from '../../src/format/keys';

/*
 * The builder's publish never exposes a half-uploaded version: against real local R2/KV (Miniflare, the storage
 * `wrangler dev` serves), a storage that fails midway leaves the pointer on the previous version, and a re-run
 * completes the upload and only then moves the pointer.
 */

const dirs: string[] = [];
let live: BuildResult; // the whole sample corpus
let next: BuildResult; // a different version: the sample corpus without ZNHF
let persist: string;

beforeAll(async () => {
  const filings = await readCorpus('fixtures/sample-corpus/filings');
  dirs.push(mkdtempSync(join(tmpdir(), 'fers-publish-')));
  live = await buildIndex(filings, { outDir: join(dirs[0]!, 'live') });
  next = await buildIndex(filings.filter((f) => f.doc.ticker !== 'ZNHF'), { outDir: join(dirs[0]!, 'next') });
  persist = join(dirs[0]!, 'state');
}, 120_000);
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** What a Worker would see: the pointer and whether a version's manifest exists. */
async function readState(): Promise<{ pointer: string | null; hasManifest: (version: string) => Promise<boolean>; dispose: () => Promise<void> }> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: 'export default { fetch() { return new Response(null, { status: 404 }); } }',
      r2Buckets: { BUCKET: R2_BUCKET },
      kvNamespaces: { KV: KV_NAMESPACE_ID },
      resourcePersistencePath: join(persist, 'v3'),
      cf: false,
    }),
  );
  const bucket = await mf.getR2Bucket('BUCKET');
  const kv = await mf.getKVNamespace('KV');
  return {
    pointer: await kv.get(pointerKey('sp500'), 'text'),
    hasManifest: async (version) => (await bucket.head(manifestKey('sp500', version))) !== null,
    dispose: () => mf.dispose(),
  };
}

/** Runs a publish against the real local storage, through `wrap` (which may inject a failure). */
async function publishThrough(dir: string, wrap: (t: PublishTarget) => PublishTarget) {
  const storage = await openLocalStorage(persist);
  try {
    return await publishVersion(dir, wrap(storage.target));
  } finally {
    await storage.dispose();
  }
}

/** Keys a publish of `build` writes, in publish order: data files, then the manifest. */
function uploadKeys(build: BuildResult): string[] {
  const m = build.manifest;
  const files = [...m.shards, ...m.graphs, m.lexicon, m.embedding, m.catalog].map((r) => `sp500/${m.version}/${r.file}`);
  return [...files, manifestKey('sp500', m.version)];
}

/** A target whose upload of `failKey` throws, as a dropped connection would; records what it wrote. */
function failingOn(failKey: string | null, log: string[] = []) {
  return (t: PublishTarget): PublishTarget => ({
    hasObject: (k, b) => t.hasObject(k, b),
    putObject: async (key, bytes) => {
      if (key === failKey) throw new Error(`injected failure uploading ${key}`);
      log.push(key);
      await t.putObject(key, bytes);
    },
    putPointer: async (key, value) => {
      log.push(`pointer:${value}`);
      await t.putPointer(key, value);
    },
  });
}

describe('publishVersion', () => {
  it('uploads every artifact, then the manifest, then moves the pointer', async () => {
    expect(next.version).not.toBe(live.version);
    const order: string[] = [];
    const report = await publishThrough(live.dir, failingOn(null, order));
    expect(report.version).toBe(live.version);
    expect(order.at(-1)).toBe(`pointer:${live.version}`);
    expect(order.at(-2)).toBe(manifestKey('sp500', live.version));
    expect(order.slice(0, -2).every((k) => k.startsWith(`sp500/${live.version}/`) && !k.endsWith('manifest.json'))).toBe(true);
    const state = await readState();
    expect(state.pointer).toBe(live.version);
    await state.dispose();
  });

  it('leaves the pointer on the live version when uploads fail midway, and before the manifest', async () => {
    const keys = uploadKeys(next);
    // The first file, one in the middle, the last data file, and the manifest itself (all data there, unreferenced).
    for (const failKey of [keys[0]!, keys[Math.floor(keys.length / 2)]!, keys.at(-2)!, keys.at(-1)!]) {
      await expect(publishThrough(next.dir, failingOn(failKey))).rejects.toThrow(/injected failure/);
      const state = await readState();
      expect(state.pointer, `failure uploading ${failKey}`).toBe(live.version);
      expect(await state.hasManifest(next.version)).toBe(false);
      expect(await state.hasManifest(live.version)).toBe(true);
      await state.dispose();
    }
  });

  it('leaves the pointer on the live version when the pointer write itself fails', async () => {
    const failPointer = (t: PublishTarget): PublishTarget => ({ ...t, putPointer: () => Promise.reject(new Error('KV unavailable')) });
    await expect(publishThrough(next.dir, failPointer)).rejects.toThrow(/KV unavailable/);
    const state = await readState();
    expect(state.pointer).toBe(live.version);
    await state.dispose();
  });

  it('resumes a failed publish: skips what is already uploaded, then moves the pointer', async () => {
    const result = await publishThrough(next.dir, (t) => t);
    expect(result.skipped).toBeGreaterThan(0);
    expect(result.uploaded + result.skipped).toBe(uploadKeys(next).length - 1);
    const state = await readState();
    expect(state.pointer).toBe(next.version);
    await state.dispose();
  });
});
