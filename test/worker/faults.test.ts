import { decodeArtifactHead } from '../../index-format/container';
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { decodeDirectory } from '../../index-format/codec';
import { termBlockFile, termBlockOf } from '../../index-format/views';
import { queryTerms } from '../../src/question/terms';
import {
  fetchWith,
  forgetPointerMemo,
  keyOf,
  queryWith,
  SAMPLE,
  setPointer,
  shardFile,
  uploadVersion,
} from './index-versions';

/*
 * Broken deployments, in workerd against local R2/KV filled from the real builder's output. Every test uploads the
 * sample index under a fresh version name, so the isolate's artifact cache holds nothing of it yet.
 */

const QVLT = {
  query: 'purchases of property, plant and equipment',
  mode: 'research',
  metadata_filters: { sec_ticker: 'QVLT' },
};
const ZNHF_2023 = {
  query: 'cost of sales',
  mode: 'research',
  metadata_filters: { sec_ticker: 'ZNHF', sec_fiscal_year: 'FY-2023' },
};
// The memo of the KV pointer is off unless a test is about it: each request reads the pointer a test just wrote. So is
// the colo cache: objects stored by content are shared by every test's version, and a good copy an earlier test left
// there would hide the broken object in R2 (which is what it is for: test/worker/edge-cache.test.ts).
const NO_MEMO = { POINTER_TTL_SECONDS: '0', EDGE_CACHE: 'off' };

function expectUnavailable(res: { status: number; json: any }, reason: string, file?: string) {
  expect(res.status).toBe(503);
  expect(res.json).toMatchObject({ status_code: 503, detail: { code: 'INDEX_UNAVAILABLE', reason } });
  expect(typeof res.json.message).toBe('string');
  if (file) expect(res.json.detail.file).toBe(file);
  expect(JSON.stringify(res.json)).not.toMatch(/\.(ts|js):\d+/); // no stack trace
}

describe('a missing shard', () => {
  it('fails only the requests that need it, and recovers once the shard is uploaded', async () => {
    const version = 'fault-missing-shard';
    const missing = shardFile('ZNHF', 2023);
    await uploadVersion(version, { missing: [missing] });

    expectUnavailable(await queryWith(ZNHF_2023, NO_MEMO), 'artifact_missing', missing);
    const other = await queryWith(QVLT, NO_MEMO);
    expect(other.status).toBe(200);
    expect(other.json.summary.evidence_count).toBeGreaterThan(0);
    // The failure is not cached: the same request fails again while the shard is missing...
    expectUnavailable(await queryWith(ZNHF_2023, NO_MEMO), 'artifact_missing', missing);

    // ...and succeeds on the next request once it is there, with no restart and no cache flush.
    await env.INDEX_BUCKET.put(keyOf(version, missing), SAMPLE.files.get(missing)!);
    const fixed = await queryWith(ZNHF_2023, NO_MEMO);
    expect(fixed.status).toBe(200);
    expect(fixed.json.summary.evidence_count).toBeGreaterThan(0);
  });
});

describe('a shard whose checksum fails', () => {
  it(`answers 503 artifact_checksum_mismatch for a flipped byte in its head or in a block a query reads, and for a \
truncated object, and recovers`, async () => {
    const version = 'fault-corrupt-shard';
    const file = shardFile('ZNHF', 2023);
    await uploadVersion(version);
    const good = SAMPLE.files.get(file)!;
    const places = decodeArtifactHead(good, 'shard').places;
    const flippedAt = (at: number) => {
      const bytes = good.slice();
      bytes[at]! ^= 0xff; // same size, wrong content
      return bytes;
    };

    // A head column and the binary codes after it: one range, read first and checked against the issuer table's CRC.
    for (const at of [places.source!.start + 1, places.codes!.start + Math.floor(places.codes!.bytes / 2)]) {
      await env.INDEX_BUCKET.put(keyOf(version, file), flippedAt(at));
      expectUnavailable(await queryWith(ZNHF_2023, NO_MEMO), 'artifact_checksum_mismatch', file);
      expect((await queryWith(QVLT, NO_MEMO)).status).toBe(200);
    }

    await env.INDEX_BUCKET.put(keyOf(version, file), good.slice(0, Math.floor(good.length / 2)));
    expectUnavailable(await queryWith(ZNHF_2023, NO_MEMO), 'artifact_checksum_mismatch', file);

    await env.INDEX_BUCKET.put(keyOf(version, file), good);
    expect((await queryWith(ZNHF_2023, NO_MEMO)).status).toBe(200);
  });

  it('with SHARD_READS=whole, checks the whole object by its seal (the slow twin)', async () => {
    const version = 'fault-corrupt-whole';
    const file = shardFile('ZNHF', 2023);
    await uploadVersion(version);
    const good = SAMPLE.files.get(file)!;
    const flipped = good.slice();
    flipped[flipped.length - 1]! ^= 0xff; // in the provenance section, which range reads never read
    await env.INDEX_BUCKET.put(keyOf(version, file), flipped);
    expectUnavailable(
      await queryWith(ZNHF_2023, { ...NO_MEMO, SHARD_READS: 'whole' }),
      'artifact_checksum_mismatch',
      file,
    );
    expect((await queryWith(ZNHF_2023, NO_MEMO)).status).toBe(200);
    await env.INDEX_BUCKET.put(keyOf(version, file), good);
  });
});

describe('a manifest pointing at a version that is not uploaded', () => {
  it('answers 503 manifest_missing on every route once the pointer is read', async () => {
    forgetPointerMemo();
    const good = 'fault-pointer-good';
    await uploadVersion(good);
    // Default memo (POINTER_TTL_SECONDS = 10 from wrangler.toml): a warm, memoized good version first.
    expect((await queryWith(QVLT)).status).toBe(200);

    const absent = 'fault-pointer-absent';
    await setPointer(absent);
    // Within the memo's TTL the isolate keeps serving the version it read: staleness is bounded by the TTL.
    expect((await queryWith(QVLT)).status).toBe(200);
    // Read afresh, the pointer leads nowhere: every route says so.
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'manifest_missing');
    const meta = await fetchWith('/metadata-filters', { method: 'GET' }, NO_MEMO);
    expectUnavailable(meta, 'manifest_missing');
    expect(meta.json.detail.version).toBe(absent);
  });

  it('forgets a memoized pointer whose version failed, so a repaired pointer is read on the next request', async () => {
    forgetPointerMemo();
    const good = 'fault-repair-good';
    await uploadVersion(good);
    await setPointer('fault-repair-absent');
    // Default TTL: this request memoizes the bad pointer, then fails on the missing manifest.
    expectUnavailable(await queryWith(QVLT), 'manifest_missing');
    await setPointer(good);
    // Without forgetting, the bad memo would answer 503 for 10 more seconds.
    expect((await queryWith(QVLT)).status).toBe(200);
  });

  it('drops a memoized pointer after its TTL, so a broken pointer shows up within POINTER_TTL_SECONDS', async () => {
    forgetPointerMemo();
    const good = 'fault-ttl-good';
    await uploadVersion(good);
    const ttl = { POINTER_TTL_SECONDS: '1' };
    expect((await queryWith(QVLT, ttl)).status).toBe(200);
    await setPointer('fault-ttl-absent');
    expect((await queryWith(QVLT, ttl)).status).toBe(200); // memo still fresh
    await new Promise((r) => setTimeout(r, 1_100));
    expectUnavailable(await queryWith(QVLT, ttl), 'manifest_missing');
    await setPointer(good);
    expect((await queryWith(QVLT, ttl)).status).toBe(200);
  });

  it('answers 503 artifact_invalid for a manifest that is not a manifest', async () => {
    const version = 'fault-bad-manifest';
    await uploadVersion(version);
    await env.INDEX_BUCKET.put(keyOf(version, 'manifest.json'), '{"format": "something else"}');
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_invalid', 'manifest.json');
  });
});

describe('a half-published version', () => {
  it(`keeps serving the previous version while a new version is half uploaded and the pointer not yet \
moved`, async () => {
    const live = 'fault-half-live';
    await uploadVersion(live);
    const before = await queryWith(QVLT, NO_MEMO);
    expect(before.status).toBe(200);

    // A publish that stopped after some shards: no catalog, no manifest, no pointer update (publish order).
    const next = 'fault-half-next';
    const notYet = [...SAMPLE.files.keys()].filter((f) => !f.startsWith('shards/Q'));
    await uploadVersion(next, { skip: notYet, pointer: false });
    const during = await queryWith(QVLT, NO_MEMO);
    expect(during.status).toBe(200);
    expect(during.json.evidence).toBe(before.json.evidence);
  });

  it(`fails with the missing artifact named when a pointer is moved to an incomplete upload, and recovers when it \
completes`, async () => {
    const version = 'fault-half-pointed';
    const table = 'issuers/QVLT.bin';
    await uploadVersion(version, { skip: ['directory.bin'], missing: [table, shardFile('QVLT', 2023)] });
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_missing', 'directory.bin');
    await env.INDEX_BUCKET.put(keyOf(version, 'directory.bin'), SAMPLE.files.get('directory.bin')!);
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_missing', table);
    expect((await queryWith(ZNHF_2023, NO_MEMO)).status).toBe(200); // another issuer's request never reads that table
    await env.INDEX_BUCKET.put(keyOf(version, table), SAMPLE.files.get(table)!);
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_missing', shardFile('QVLT', 2023));
    await env.INDEX_BUCKET.put(keyOf(version, shardFile('QVLT', 2023)), SAMPLE.files.get(shardFile('QVLT', 2023))!);
    expect((await queryWith(QVLT, NO_MEMO)).status).toBe(200);
  });
});

describe('a term block or issuer table that is missing or corrupt', () => {
  /** A term block the query reads: the block of one of its terms (index-format/views.ts). */
  const blockOf = (query: string) => {
    const { terms } = decodeDirectory(SAMPLE.files.get('directory.bin')!);
    return termBlockFile(termBlockOf(queryTerms(query)[0]!, terms.blocks));
  };

  it('answers 503 naming the block, only for queries whose terms live in it, and recovers', async () => {
    const version = 'fault-term-block';
    await uploadVersion(version);
    const block = blockOf(QVLT.query);
    const good = SAMPLE.files.get(block)!;
    const flipped = good.slice();
    flipped[flipped.length - 1]! ^= 0x01;
    await env.INDEX_BUCKET.put(keyOf(version, block), flipped);
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_checksum_mismatch', block);
    await env.INDEX_BUCKET.delete(keyOf(version, block));
    expectUnavailable(await queryWith(QVLT, NO_MEMO), 'artifact_missing', block);
    await env.INDEX_BUCKET.put(keyOf(version, block), good);
    expect((await queryWith(QVLT, NO_MEMO)).status).toBe(200);
  });

  it('answers 503 for a corrupt issuer table of the company asked about, and recovers', async () => {
    const version = 'fault-issuer-table';
    await uploadVersion(version);
    const table = 'issuers/ZNHF.bin';
    const good = SAMPLE.files.get(table)!;
    await env.INDEX_BUCKET.put(keyOf(version, table), good.slice(0, good.length - 1));
    expectUnavailable(await queryWith(ZNHF_2023, NO_MEMO), 'artifact_checksum_mismatch', table);
    expect((await queryWith(QVLT, NO_MEMO)).status).toBe(200);
    await env.INDEX_BUCKET.put(keyOf(version, table), good);
    expect((await queryWith(ZNHF_2023, NO_MEMO)).status).toBe(200);
  });
});
