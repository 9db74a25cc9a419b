// The streaming builder (index-builder/build.ts) against its slow twin, the whole-corpus-in-memory builder it
// replaced (test/support/build-in-memory.ts): the same artifacts byte for byte, whatever order filings arrive in.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../index-builder/build';
import { buildIndex } from '../../index-builder/pipeline';
import { readCorpus, streamCorpus, type Filing } from '../../index-builder/segment/read-corpus';
import { buildPartition, learnModelFromCorpus, mergePartitions } from '../../index-builder/partition';
import { mapPartitions, parsePartition, partitionOf } from '../../index-builder/partition-map';
import { buildIndexInMemory } from '../support/build-in-memory';
import { expectSameArtifacts, filesOf } from '../support/files';
import { tempDirs } from '../support/temp-dirs';

const SAMPLE = 'fixtures/sample-corpus/filings';
const tmp = tempDirs('fers-stream-');
let filings: Filing[];
let twin: BuildResult;

beforeAll(async () => {
  filings = await readCorpus(SAMPLE);
  twin = await buildIndexInMemory(filings, { outDir: tmp(), graphMinStatements: 200 });
}, 120_000);

describe('streaming build vs the in-memory twin', () => {
  it('gives byte-identical artifacts (graphs included) from the corpus streamed one filing at a time', async () => {
    expect(twin.summary.graphs).toBeGreaterThan(0);
    const streamed = await buildIndex(streamCorpus(SAMPLE), { outDir: tmp(), graphMinStatements: 200 });
    expectSameArtifacts(streamed, twin);
    expect(streamed.summary).toMatchObject({
      filings: twin.summary.filings,
      statements: twin.summary.statements,
      edges: twin.summary.edges,
    });
    expect(streamed.summary.mergedTableRows).toBe(twin.summary.mergedTableRows);
  });

  it('gives the same artifacts whatever order the filings arrive in', async () => {
    const reversed = await buildIndex([...filings].reverse(), { outDir: tmp(), graphMinStatements: 200 });
    expectSameArtifacts(reversed, twin);
  });

  it('leaves only the version directory and LATEST behind (no spill or staging files)', async () => {
    const out = tmp();
    const result = await buildIndex(filings, { outDir: out, graphMinStatements: 200 });
    expect(
      [...filesOf(join(out, 'sp500')).keys()].every(
        (f) =>
          f === 'LATEST' || f.startsWith(`${result.version}/`) || f === `models/${result.manifest.embedding_model}.bin`,
      ),
    ).toBe(true);
  });
});

describe('streamCorpus', () => {
  it('yields the filings readCorpus reads (same documents, pages and metadata)', async () => {
    const streamed: Filing[] = [];
    for await (const f of streamCorpus(SAMPLE)) streamed.push(f);
    const byId = (list: Filing[]) => [...list].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : 1));
    expect(byId(streamed)).toEqual(filings);
  });

  it('refuses a pages file whose documents are not contiguous', async () => {
    const dir = tmp();
    mkdirSync(dir, { recursive: true });
    const doc = (id: string) => ({
      doc_id: id,
      collection: 't',
      ticker: id,
      cik: null,
      company: id,
      form_type: '10-K',
      fiscal_year: 2023,
      fiscal_period: 'FY',
      period_of_report: '2023-12-31',
      fiscal_year_end: '12-31',
      filing_date: null,
      gics_sector: null,
      gics_sub_industry: null,
      num_pages: 1,
    });
    writeFileSync(join(dir, 'documents.jsonl'), [doc('A'), doc('B')].map((d) => JSON.stringify(d)).join('\n'));
    const page = (id: string, n: number) => JSON.stringify({ doc_id: id, page: n, text: 'Item 1. Business' });
    writeFileSync(join(dir, 'pages.jsonl'), [page('A', 0), page('B', 0), page('A', 1)].join('\n'));
    const drain = async () => {
      for await (const _ of streamCorpus(dir)) void _;
    };
    await expect(drain()).rejects.toThrow(/pages of A are not contiguous/);
  });
});

describe('partitioned build (--learn-model, --partition i/n, then --merge)', () => {
  let model: Awaited<ReturnType<typeof learnModelFromCorpus>>;
  let modelDir: string;
  beforeAll(async () => {
    modelDir = tmp();
    model = await learnModelFromCorpus(() => streamCorpus(SAMPLE), modelDir);
  }, 60_000);

  it('the model job learns the model a single build learns', () => {
    expect(model.id).toBe(twin.summary.embeddingModel);
  });

  it.each([1, 2, 4])('merges %i partitions to the single build, byte for byte', async (count) => {
    const tickers = [...new Set(filings.map((f) => f.doc.ticker))];
    const parts = Array.from({ length: count }, (_, i) => tickers.filter((t) => partitionOf(t, count) === i + 1));
    expect(parts.filter((p) => p.length > 0).length).toBeGreaterThan(count > 1 ? 1 : 0); // real splits
    const out = tmp();
    const partials = [];
    // Partitions in any order; each a fresh stream of the whole corpus, as a job runner's matrix gives them.
    for (let index = count; index >= 1; index--) {
      partials.push(
        await buildPartition(streamCorpus(SAMPLE), { index, count }, join(out, `part-${index}`), {
          embeddingModel: model,
          graphMinStatements: 200,
        }),
      );
    }
    expect(partials.reduce((n, p) => n + p.filings, 0)).toBe(filings.length);
    // The merge finds the model by id under its output folder, as the workflow's merge job does.
    cpSync(join(modelDir, 'sp500/models'), join(out, 'merged/sp500/models'), { recursive: true });
    const merged = await mergePartitions(
      partials.map((p) => p.dir),
      { outDir: join(out, 'merged') },
    );
    expectSameArtifacts(merged, twin);
    expect(merged.summary).toMatchObject({
      filings: twin.summary.filings,
      statements: twin.summary.statements,
      edges: twin.summary.edges,
      entities: twin.summary.entities,
      graphs: twin.summary.graphs,
    });
  });

  it('refuses a merge that misses or repeats a partition, mixes models, and malformed specs', async () => {
    const out = tmp();
    const opts = { embeddingModel: model };
    const one = await buildPartition(filings, { index: 1, count: 3 }, join(out, 'p1'), opts);
    const two = await buildPartition(filings, { index: 2, count: 3 }, join(out, 'p2'), opts);
    const m = { outDir: join(out, 'm'), embeddingModel: model };
    await expect(mergePartitions([one.dir, two.dir], m)).rejects.toThrow(
      /every partition of one split exactly once \(1\.\.3 of 3\); got 1\/3, 2\/3/,
    );
    await expect(mergePartitions([one.dir, one.dir], m)).rejects.toThrow(/exactly once/);
    await expect(mergePartitions([out], m)).rejects.toThrow(/not a partial build output/);
    // A partition whose issuers a partition map chose is not merged with partitions the ticker hash split.
    const counts = new Map<string, number>();
    for (const f of filings) counts.set(f.doc.ticker, (counts.get(f.doc.ticker) ?? 0) + 1);
    const mapped = await buildPartition(filings, { index: 3, count: 3 }, join(out, 'p3-mapped'), {
      ...opts,
      map: mapPartitions(counts, 3),
    });
    await expect(mergePartitions([one.dir, two.dir, mapped.dir], m)).rejects.toThrow(
      /split by different partition maps \(the ticker hash, [0-9a-f]{16}\)/,
    );
    const three = await buildPartition(filings, { index: 3, count: 3 }, join(out, 'p3'), opts);
    const other = { ...model, id: 'ffffffffffffffff' };
    await expect(
      mergePartitions([one.dir, two.dir, three.dir], { outDir: join(out, 'm'), embeddingModel: other }),
    ).rejects.toThrow(/embedded with model .*, not ffffffffffffffff/);
    // A partition an older builder segmented (before cover pages: no extraction version) is not merged.
    const manifest = join(three.dir, 'partial.bin');
    const written = readFileSync(manifest);
    writeFileSync(
      manifest,
      serialize({ ...(deserialize(readFileSync(manifest)) as object), extraction_version: undefined }),
    );
    await expect(mergePartitions([one.dir, two.dir, three.dir], m)).rejects.toThrow(
      /extraction version 1, .*rebuild the partition/,
    );
    // Term bounds a job left cut short or never wrote are refused, naming the file.
    writeFileSync(manifest, written);
    const postings = join(three.dir, 'bounds', 'postings.bin');
    writeFileSync(postings, readFileSync(postings).subarray(0, 100));
    await expect(mergePartitions([one.dir, two.dir, three.dir], m)).rejects.toThrow(
      /postings\.bin ends in the middle of a record: rebuild the partition/,
    );
    rmSync(postings);
    await expect(mergePartitions([one.dir, two.dir, three.dir], m)).rejects.toThrow(
      /has no term bounds \(bounds\/postings\.bin\).*rebuild the partition/,
    );
    expect(parsePartition('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', '1', 'a/b']) expect(() => parsePartition(bad)).toThrow(/i\/n/);
  });
});
