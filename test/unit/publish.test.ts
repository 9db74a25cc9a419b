import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../index-builder/build';
import { buildIndex } from '../../index-builder/pipeline';
import { openLocalBindings } from '../support/local-bindings';
import { collectGarbage, planGc } from '../../index-builder/publish/gc';
import { publishVersion, type PublishTarget, type StoredObject } from '../../index-builder/publish/publish';
import { bindingsTarget, checkWranglerLogin, withRetries } from '../../index-builder/publish/storage';
import { parseGcArgs, parsePublishArgs } from '../../index-builder/cli/cli';
import { UsageError } from '../../index-builder/cli/cli-args';
import { readCorpus } from '../../index-builder/segment/read-corpus';
import { manifestKey, pointerKey, storedKey } from '../../index-format/keys';
import type { FileList } from '../../index-format/types';

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
  next = await buildIndex(
    filings.filter((f) => f.doc.ticker !== 'ZNHF'),
    { outDir: join(dirs[0]!, 'next') },
  );
  persist = join(dirs[0]!, 'state');
}, 120_000);
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

/**
 * The file's one Miniflare over the local state every publishVersion test writes (a workerd per publish or read made
 * up most of this file's time); `fresh` opens another over the same folder, as a Worker started later would.
 */
let storage: Awaited<ReturnType<typeof openLocalBindings>>;

/** What a Worker would see: the pointer and whether a version's manifest exists, read with Miniflare's raw bindings. */
async function readState(
  mf = storage.mf,
): Promise<{ pointer: string | null; hasManifest: (version: string) => Promise<boolean> }> {
  const bucket = await mf.getR2Bucket('BUCKET');
  const kv = await mf.getKVNamespace('KV');
  return {
    pointer: await kv.get(pointerKey('sp500'), 'text'),
    hasManifest: async (version) => (await bucket.head(manifestKey('sp500', version))) !== null,
  };
}

/** Runs a publish against the real local storage, through `wrap` (which may inject a failure). */
function publishThrough(dir: string, wrap: (t: PublishTarget) => PublishTarget) {
  return publishVersion(dir, wrap(storage.target));
}

/** Keys a publish of `build` writes, in publish order: the file list, data files, then the manifest. */
function uploadKeys(build: BuildResult): string[] {
  const m = build.manifest;
  const list = (JSON.parse(readFileSync(join(build.dir, m.files.file), 'utf8')) as FileList).files;
  return [m.files, ...list].map((r) => storedKey('sp500', m.version, r)).concat(manifestKey('sp500', m.version));
}

/** A target whose upload of `failKey` throws, as a dropped connection would; records what it wrote. */
function failingOn(failKey: string | null, log: string[] = []) {
  return (t: PublishTarget): PublishTarget => ({
    ...t,
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
  beforeAll(async () => {
    storage = await openLocalBindings(persist);
  });
  afterAll(() => storage?.dispose());

  it(`uploads the file list, every artifact (shards, graphs and issuer tables by content), the manifest, then moves \
the pointer`, async () => {
    expect(next.version).not.toBe(live.version);
    const order: string[] = [];
    const report = await publishThrough(live.dir, failingOn(null, order));
    expect(report.version).toBe(live.version);
    expect(order).toEqual([...uploadKeys(live), `pointer:${live.version}`]);
    expect(order[0]).toBe(`sp500/${live.version}/files.json`);
    const byContent = order.filter((k) => k.startsWith('sp500/objects/'));
    expect(byContent.length).toBeGreaterThan(0);
    expect(byContent.every((k) => /^sp500\/objects\/(shards|graphs|issuers)\/[^/]+\.[0-9a-f]{32}\.bin$/.test(k))).toBe(
      true,
    );
    expect(order.filter((k) => k.startsWith(`sp500/${live.version}/`)).some((k) => k.includes('/terms/'))).toBe(true);
    const state = await readState();
    expect(state.pointer).toBe(live.version);
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
    }
  });

  it('leaves the pointer on the live version when the pointer write itself fails', async () => {
    const failPointer = (t: PublishTarget): PublishTarget => ({
      ...t,
      putPointer: () => Promise.reject(new Error('KV unavailable')),
    });
    await expect(publishThrough(next.dir, failPointer)).rejects.toThrow(/KV unavailable/);
    const state = await readState();
    expect(state.pointer).toBe(live.version);
  });

  it('resumes a failed publish: skips what is already uploaded, then moves the pointer', async () => {
    const result = await publishThrough(next.dir, (t) => t);
    expect(result.skipped).toBeGreaterThan(0);
    expect(result.uploaded + result.skipped).toBe(uploadKeys(next).length - 1);
    const state = await readState();
    expect(state.pointer).toBe(next.version);
    // What these tests wrote is on disk: another Miniflare over the same folder reads the same state.
    const fresh = await openLocalBindings(persist);
    try {
      const persisted = await readState(fresh.mf);
      expect(persisted.pointer).toBe(next.version);
      expect(await persisted.hasManifest(next.version)).toBe(true);
      expect(await persisted.hasManifest(live.version)).toBe(true);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('gc --keep N', () => {
  const obj = (key: string, uploaded: number): StoredObject => ({ key, bytes: 10, uploaded });
  const fileList = (...files: [string, string?][]) =>
    JSON.stringify({
      files: files.map(([file, id]) => ({
        file,
        bytes: 10,
        sha256: '0'.repeat(64),
        ...(id ? { content_id: id } : {}),
      })),
    });
  const [A, B, C] = ['a', 'b', 'c'].map((x) => x.repeat(32)) as [string, string, string];
  const stored = (name: string, id: string) => `sp500/objects/shards/${name}.${id}.bin`;
  // Three versions published at t=0, 10, 20 (file list and data first, manifest last) that share shard a; b is v1's
  // alone, c is v3's; and a publish of v4 that stopped after its file list.
  const objects = [
    ...['v1', 'v2', 'v3'].flatMap((v, i) => [
      obj(`sp500/${v}/files.json`, i * 10),
      obj(`sp500/${v}/terms/0.bin`, i * 10),
      obj(`sp500/${v}/manifest.json`, i * 10 + 1),
    ]),
    obj(stored('a', A), 0),
    obj(stored('b', B), 0),
    obj(stored('c', C), 20),
    obj('sp500/v4/files.json', 40),
    obj('other/v0/manifest.json', 0),
  ];
  const lists = new Map([
    ['v1', fileList(['terms/0.bin'], ['shards/a.bin', A], ['shards/b.bin', B])],
    ['v2', fileList(['terms/0.bin'], ['shards/a.bin', A])],
    ['v3', fileList(['terms/0.bin'], ['shards/a.bin', A], ['shards/c.bin', C])],
    ['v4', fileList(['shards/c.bin', C])],
  ]);

  it(`keeps the N newest, the current and the previous version; removes manifests before data, then unreferenced \
stored objects`, () => {
    const plan = planGc(objects, 'sp500', 'v3', 1, lists);
    expect(plan.versions).toEqual(['v4', 'v3', 'v2', 'v1']);
    expect(plan.keep).toEqual(['v4', 'v3', 'v2']); // v4 newest, v3 current, v2 previous
    expect(plan.remove).toEqual(['v1']);
    expect(plan.keys).toEqual([
      'sp500/v1/manifest.json',
      'sp500/v1/files.json',
      'sp500/v1/terms/0.bin',
      stored('b', B),
    ]);
    expect(plan.bytes).toBe(40);
    expect(plan.unlisted).toEqual([]);
    expect(plan.recent).toBe(0);
    // b uploaded after the grace period's start: kept, and counted.
    const young = planGc(objects, 'sp500', 'v3', 1, lists, -1);
    expect(young.keys).toEqual(plan.keys.filter((k) => k !== stored('b', B)));
    expect(young.recent).toBe(1);
  });

  it(`never removes the current version, even when a rollback made it the oldest, nor an object a kept version \
lists`, () => {
    const plan = planGc(objects, 'sp500', 'v1', 2, lists);
    expect(plan.keep).toEqual(['v4', 'v3', 'v1']); // the two newest, and current v1 (nothing older: no previous)
    expect(plan.remove).toEqual(['v2']);
    expect(plan.keys.filter((k) => k.startsWith('sp500/objects/'))).toEqual([]); // a: v1 and v3; b: v1; c: v3 and v4
  });

  it('removes no stored object while a kept version has no readable file list', () => {
    const plan = planGc(
      objects,
      'sp500',
      'v3',
      1,
      new Map([...lists].filter(([v]) => v !== 'v2').concat([['v4', 'not json']])),
    );
    expect(plan.unlisted).toEqual(['v4', 'v2']);
    expect(plan.remove).toEqual(['v1']);
    expect(plan.keys.some((k) => k.startsWith('sp500/objects/'))).toBe(false);
  });

  it('removes old versions from real local R2, leaves the live one serving, and reports what it did', async () => {
    const filings = await readCorpus('fixtures/sample-corpus/filings');
    const third = await buildIndex(
      filings.filter((f) => f.doc.ticker !== 'QVLT'),
      { outDir: join(dirs[0]!, 'third') },
    );
    const state = join(dirs[0]!, 'gc-state');
    const storage = await openLocalBindings(state);
    try {
      for (const build of [live, next, third]) await publishVersion(build.dir, storage.target);
      const dry = await collectGarbage(storage.target, 'sp500', 1, { dryRun: true, graceMs: 0 });
      expect(dry.remove).toEqual([live.version]);
      expect((await storage.target.listObjects(`sp500/${live.version}/`)).length).toBeGreaterThan(0);

      // Within the grace period an object no version lists stays (a partition job uploads ahead of its version).
      const young = await collectGarbage(storage.target, 'sp500', 1, { dryRun: true });
      expect(young.recent).toBeGreaterThan(0);
      expect(young.keys.some((k) => k.startsWith('sp500/objects/'))).toBe(false);
      const plan = await collectGarbage(storage.target, 'sp500', 1, { graceMs: 0 });
      expect(plan.current).toBe(third.version);
      expect(plan.keep.sort()).toEqual([next.version, third.version].sort());
      expect(await storage.target.listObjects(`sp500/${live.version}/`)).toEqual([]);
      // Every object the kept versions need is still there; what only the removed one needed is gone.
      const remaining = new Set((await storage.target.listObjects('sp500/')).map((o) => o.key));
      const needed = new Set([...uploadKeys(next), ...uploadKeys(third)]);
      for (const key of needed) expect(remaining.has(key), key).toBe(true);
      const liveOnly = uploadKeys(live).filter((k) => !needed.has(k));
      expect(liveOnly.some((k) => k.startsWith('sp500/objects/'))).toBe(true);
      expect(liveOnly.filter((k) => remaining.has(k))).toEqual([]);
      expect(await storage.target.getPointer(pointerKey('sp500'))).toBe(third.version);
      // A second run has nothing left to remove.
      expect((await collectGarbage(storage.target, 'sp500', 1, { graceMs: 0 })).remove).toEqual([]);
      await expect(collectGarbage(storage.target, 'sp500', 0)).rejects.toThrow(/--keep/);
    } finally {
      await storage.dispose();
    }
  });
});

describe('storage adapter and CLI flags', () => {
  const noSleep = async () => {};

  it('retries a failing storage call with backoff, and gives up with the last error after five attempts', async () => {
    const waits: number[] = [];
    let calls = 0;
    const flaky = async () => {
      if (++calls < 3) throw new Error('connection reset');
      return 'ok';
    };
    expect(
      await withRetries(
        'put x',
        flaky,
        async (ms) => void waits.push(ms),
        () => 1,
      ),
    ).toBe('ok');
    expect(waits).toEqual([500, 1000]);
    await expect(withRetries('put y', () => Promise.reject(new Error('503 from R2')), noSleep)).rejects.toThrow(
      'put y: 503 from R2, giving up after 5 attempts',
    );
  });

  it('wraps R2/KV bindings: a put that fails twice still lands', async () => {
    const stored = new Map<string, Uint8Array>();
    let failures = 2;
    const bucket = {
      head: async (k: string) => (stored.has(k) ? { size: stored.get(k)!.byteLength } : null),
      get: async (k: string) => (stored.has(k) ? { arrayBuffer: async () => stored.get(k)!.slice().buffer } : null),
      put: async (k: string, v: Uint8Array) => {
        if (failures-- > 0) throw new Error('timeout');
        stored.set(k, v);
      },
      delete: async () => {},
      list: async () => ({ objects: [], truncated: false }),
    };
    const kv = { get: async () => null, put: async () => {} };
    const target = bindingsTarget(bucket, kv, noSleep);
    await target.putObject('a', new Uint8Array([1, 2, 3]));
    expect(await target.hasObject('a', 3)).toBe(true);
    expect(await target.hasObject('a', 4)).toBe(false);
    expect(await target.getObject('a')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await target.getObject('b')).toBeNull();
  });

  it('refuses a remote publish before any upload when wrangler is not logged in, saying what to run', () => {
    const home = mkdtempSync(join(tmpdir(), 'fers-nohome-'));
    dirs.push(home);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    delete env.CLOUDFLARE_API_TOKEN;
    delete env.CLOUDFLARE_API_KEY;
    expect(() => checkWranglerLogin(undefined, env)).toThrow(/not logged in.*npx wrangler login.*CLOUDFLARE_API_TOKEN/);
  });

  it('parses publish and gc flags, and refuses contradictions', () => {
    expect(parsePublishArgs([], 'state')).toEqual({ remote: false, persistDir: resolve('state') });
    expect(parsePublishArgs(['--remote', '--version', 'abc'])).toMatchObject({ remote: true, version: 'abc' });
    expect(parsePublishArgs(['--partial', 'parts/2'])).toMatchObject({ partial: resolve('parts/2') });
    expect(() => parsePublishArgs(['--partial', 'p', '--version', 'v'])).toThrow(/either --version or --partial/);
    expect(parseGcArgs(['--keep', '3', '--dry-run', '--local', '--persist-to', 'x'])).toEqual({
      keep: 3,
      dryRun: true,
      remote: false,
      persistDir: resolve('x'),
    });
    expect(() => parsePublishArgs(['--local', '--remote'])).toThrow(/either/);
    expect(() => parseGcArgs(['--keep', '0'])).toThrow(/positive/);
    expect(() => parseGcArgs([])).toThrow(/needs --keep/);
    expect(() => parsePublishArgs(['--remote', '--persist-to', 'x'])).toThrow(/--local only/);
    expect(() => parsePublishArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parsePublishArgs(['--keep', '3'])).toThrow(/Unknown option '--keep'/);
  });
});
