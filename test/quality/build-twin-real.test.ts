/**
 * The streaming builder against its in-memory twin on real filings: two issuers' 10-Ks from ../shared (Activision
 * Blizzard, whose customer sentences exercise the entity collector's "latest wording" rule, and 3M), byte for byte.
 * The sample corpus is too small to exercise every ordering rule. Skipped without ../shared (or SHARED_DIR).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../index-builder/pipeline';
import { readCorpus, streamCorpus } from '../../index-builder/segment/read-corpus';
import { buildIndexInMemory } from '../support/build-in-memory';
import { filesOf } from '../support/files';
import { sharedFilingsAvailable, writeSubsetCorpus } from '../support/shared-subset';

const AVAILABLE = sharedFilingsAvailable();
if (!AVAILABLE) console.warn('real-filings build twin SKIPPED: no shared corpus (set SHARED_DIR)');
const FILINGS = ['ACTIVISIONBLIZZARD_2017_10K', 'ACTIVISIONBLIZZARD_2018_10K', '3M_2018_10K', '3M_2022_10K'];

describe.skipIf(!AVAILABLE)('streaming build vs in-memory twin on real filings', () => {
  const work = mkdtempSync(join(tmpdir(), 'fers-twin-real-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('gives byte-identical artifacts', async () => {
    await writeSubsetCorpus(work, new Set(FILINGS));
    const streamed = await buildIndex(streamCorpus(work), {
      outDir: join(work, 'streamed'),
      graphMinStatements: Infinity,
    });
    const twin = await buildIndexInMemory(await readCorpus(work), {
      outDir: join(work, 'twin'),
      graphMinStatements: Infinity,
    });
    expect(streamed.summary.filings).toBe(FILINGS.length);
    expect(streamed.version).toBe(twin.version);
    const a = filesOf(streamed.dir);
    const b = filesOf(twin.dir);
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
  }, 120_000);
});
