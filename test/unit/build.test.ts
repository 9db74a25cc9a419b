import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesOf } from '../support/files';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFiling, type BuildResult, withMetricTerms } from '../../index-builder/build';
import { factText } from '../../index-builder/statements/table-facts';
import { tokenize } from '../../index-format/tokenize';
import { buildIndex } from '../../index-builder/pipeline';
import { readCorpus, type Filing } from '../../index-builder/segment/read-corpus';
import { decodeShard } from '../../index-format/codec';
import { statementKind } from '../../index-format/shard-layout';
import { openFileIndex, readFullCatalog } from '../support/file-index';

const SAMPLE = 'fixtures/sample-corpus/filings';
const dirs: string[] = [];
let filings: Filing[];
let first: BuildResult;

beforeAll(async () => {
  filings = await readCorpus(SAMPLE);
  dirs.push(mkdtempSync(join(tmpdir(), 'fers-build-')));
  first = await buildIndex(filings, { outDir: dirs[0]! });
});
afterAll(() =>
  dirs.forEach((d) => {
    rmSync(d, { recursive: true, force: true });
  }),
);

describe('a table row printed with its span once', () => {
  it("is indexed by every cell's period, as its cells state them, so its terms and rank are its cells'", () => {
    let shortened = 0;
    for (const f of filings)
      for (const s of analyzeFiling(f).statements) {
        if (!s.fact) continue;
        const full = factText(s.fact, false);
        if (full !== s.text) shortened++;
        expect(s.tokens).toEqual(withMetricTerms(tokenize(full), s.metrics));
      }
    // The sample's EDGAR 10-K prints "Year Ended December 31," over its years: its rows print the span once.
    expect(shortened).toBeGreaterThan(100);
  });
});

describe('buildIndex on the sample corpus', () => {
  it('reads the page-text filings and the EDGAR HTML 10-K', () => {
    expect(filings.map((f) => f.doc.doc_id)).toContain('EDGAR_9990303_10K_2021-12-31');
    expect(filings.find((f) => f.doc.doc_id === 'EDGAR_9990303_10K_2021-12-31')!.doc.company).toBe(
      'Quarrystone Energy',
    );
    expect(first.summary.filings).toBe(9);
  });

  it('is byte-identical for identical input (same version, same files)', async () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'fers-build-')));
    const second = await buildIndex(filings, { outDir: dirs[1]! });
    expect(second.version).toBe(first.version);
    const a = filesOf(first.dir);
    const b = filesOf(second.dir);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
  });

  it('keeps a cash-flow row as a statement with its item, page and sign', async () => {
    const catalog = readFullCatalog(first.dir);
    const shardIndex = catalog.shards.findIndex((s) => s.id === 'QVLT-FY2023');
    // sources numbered as the Worker numbers them
    const shard = await openFileIndex(first.dir, { shardReads: 'whole' }).shard(shardIndex);
    const i = shard.texts.findIndex((t) => t.startsWith('Purchases of property, plant and equipment:'));
    expect(shard.texts[i]).toBe(
      'Purchases of property, plant and equipment: (412) for fiscal year ended September 30, 2023 | (392) ' +
        'for fiscal year ended September 24, 2022 | (305) for fiscal year ended September 25, 2021 (USD ' +
        'millions)',
    );
    expect(statementKind(shard, i)).toBe('table_row');
    const source = catalog.sources[shard.source[i]!]!;
    expect(source.id).toBe('QVLT-10K-FY2023-I8');
    expect(shard.page[i]).toBe(10);
  });

  it('segments the EDGAR HTML document into items with the same table reader', () => {
    const catalog = readFullCatalog(first.dir);
    const tags = catalog.sources
      .filter((s) => s.doc_id === 'EDGAR_9990303_10K_2021-12-31')
      .map((s) => s.meta.sec_item_tag);
    expect(tags).toEqual(
      expect.arrayContaining(['10K-Item-1', '10K-Item-1A', '10K-Item-3', '10K-Item-7', '10K-Item-8']),
    );
    const shardIndex = catalog.shards.findIndex((s) => s.id === 'QSEP-FY2021');
    const shard = decodeShard(new Uint8Array(readFileSync(join(first.dir, catalog.shards[shardIndex]!.file))));
    expect(
      shard.texts.some((t) => t.startsWith('Purchases of property, plant and equipment') && t.includes('(905)')),
    ).toBe(true);
  });
});
