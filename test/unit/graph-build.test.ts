// HNSW graphs through the real builder path: a synthetic corpus of Filing objects -> buildIndex with a low
// graphMinStatements -> graph artifacts in the manifest -> loaded with the same hnswlib-wasm build the Worker uses
// -> recall vs a slow exact-scan twin, with and without filters, and retrieve() choosing per shard.
import { codeScorer } from '../../src/search/vector';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesOf } from '../support/files';
import { mulberry32 } from '../../index-builder/vectors/embeddings';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Filing } from '../../index-builder/segment/read-corpus';
import type { BuildResult } from '../../index-builder/build';
import type { HnswIndexHandle, IndexReader } from '../../index-format/index-reader';
import type { Condition } from '../../src/filters/parse';
import { ArtifactCache } from '../../src/adapters/artifact-cache';
import type { LoadStats } from '../../src/adapters/r2-index';
import { ArtifactFormatError, encodeArtifact } from '../../index-format/container';
import { manifestKey, pointerKey, storedKey } from '../../index-format/keys';
import { decodeFileList, decodeGraph, decodeManifest } from '../../index-format/codec';
import type { ArtifactRef, CatalogHeader, EmbeddingModel, Manifest, Shard } from '../../index-format/types';
import { openFileIndex, readFullCatalog } from '../support/file-index';
import { EFFORT_LIMITS } from '../../src/search/effort';
import { RANKING } from '../../src/search/ranking';
import { lexicalQuery } from '../../src/question/terms';
import { embedTokens, dotInt8 } from '../../index-format/embed';
import { tokenize } from '../../index-format/tokenize';

const GENERATED = new URL('../../generated/hnswlib/', import.meta.url).pathname;
const READY = existsSync(`${GENERATED}hnswlib.wasm`) && existsSync(`${GENERATED}hnswlib-glue.mjs`);
if (!READY) console.warn('graph build tests SKIPPED: generated/hnswlib is missing; run `npm install`.');

// Imported lazily: these modules import the generated glue, which may not exist.
type Build = typeof import('../../index-builder/pipeline');
type Graphs = typeof import('../../index-builder/vectors/graphs');
type Hnsw = typeof import('../../index-format/hnsw');
type Strategy = typeof import('../../src/search/vector-strategy');
type Retrieve = typeof import('../../src/search/retrieve');

const compileWasm = (bytes: Uint8Array): WebAssembly.Module =>
  new (
    globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
  ).WebAssembly.Module(bytes);

// The Worker's runtime module imports the .wasm as a CompiledWasm module, which only wrangler/workerd provide; in
// Node the same instance-per-process role is played by a lib compiled from the file.
vi.mock('../../src/adapters/hnsw-runtime', async () => {
  const { readFileSync: read } = await import('node:fs');
  const { loadHnswlib } = await import('../../index-format/hnsw');
  let lib: import('../../index-format/hnsw').HnswLib | undefined;
  const wasmPath = new URL('../../generated/hnswlib/hnswlib.wasm', import.meta.url).pathname;
  return {
    HNSW_ARENA: 'hnswlib-wasm-heap',
    HNSW_MIN_HEAP_BYTES: 16 * 1024 * 1024,
    hnswRuntime: async () => {
      const compile = (b: Uint8Array) =>
        new (
          globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => WebAssembly.Module } }
        ).WebAssembly.Module(b);
      lib ??= await loadHnswlib(compile(read(wasmPath)));
      return lib;
    },
  };
});

// ---------- synthetic corpus ----------

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tos',
  'vel',
  'dar',
  'qui',
  'bex',
  'nor',
  'sul',
  'fia',
  'gor',
  'pem',
  'tax',
  'wyn',
];
/** Distinct made-up words of 5+ letters (never a stopword or an abbreviation that blocks sentence splitting). */
function wordList(count: number, offset: number): string[] {
  const out: string[] = [];
  for (let i = offset; out.length < count; i++) {
    const a = SYLLABLES[i % 16]!,
      b = SYLLABLES[Math.floor(i / 16) % 16]!,
      c = SYLLABLES[Math.floor(i / 256) % 16]!;
    out.push(`${a}${b}${c}t`);
  }
  return out;
}

const ITEMS = [
  ['1', 'Business'],
  ['1A', 'Risk Factors'],
  ['2', 'Properties'],
  ['3', 'Legal Proceedings'],
  ['5', 'Market'],
  ['7', 'Management Discussion'],
  ['7A', 'Market Risk'],
  ['8', 'Financial Statements'],
  ['9A', 'Controls'],
  ['10', 'Directors'],
] as const;
const TOPIC_WORDS = ITEMS.map((_, t) => wordList(40, 300 + t * 40));
const COMMON = wordList(60, 1000);

/** A sentence mostly about `topic` (so embeddings cluster by item, like real filings), 10-16 words. */
function sentence(rnd: () => number, topic: number): string {
  const n = 10 + Math.floor(rnd() * 7);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const list = r < 0.6 ? TOPIC_WORDS[topic]! : r < 0.8 ? TOPIC_WORDS[Math.floor(rnd() * ITEMS.length)]! : COMMON;
    words.push(list[Math.floor(rnd() * list.length)]!);
  }
  const first = words[0]!;
  words[0] = first[0]!.toUpperCase() + first.slice(1);
  return `${words.join(' ')}.`;
}

function filing(ticker: string, items: number, perItem: number, seed: number): Filing {
  const rnd = mulberry32(seed);
  const pages: string[] = ['Cover page of the synthetic annual report'];
  ITEMS.slice(0, items).forEach(([code, title], t) => {
    const lines = [`Item ${code}. ${title}`];
    for (let s = 0; s < perItem; s += 4) {
      lines.push(Array.from({ length: Math.min(4, perItem - s) }, () => sentence(rnd, t)).join(' '));
      if (lines.length === 16) pages.push(lines.splice(0).join('\n'));
    }
    if (lines.length) pages.push(lines.join('\n'));
  });
  return {
    doc: {
      doc_id: `${ticker}_10K_2023`,
      collection: 'synthetic',
      ticker,
      cik: null,
      company: `${ticker} Synthetic Holdings`,
      form_type: '10-K',
      fiscal_year: 2023,
      fiscal_period: 'FY',
      period_of_report: '2023-12-31',
      fiscal_year_end: '12-31',
      filing_date: '2024-02-15',
      gics_sector: 'Industrials',
      gics_sub_industry: 'Machinery',
      num_pages: pages.length,
    },
    pages,
  };
}

// One shard of ~3,000 statements (10 items of 300) gets a graph; a 200-statement shard stays below the threshold.
const CORPUS: Filing[] = [filing('SYNA', 10, 300, 1), filing('SYNB', 2, 100, 2)];
const GRAPH_MIN = 1_000;
const BIG = 'SYNA-FY2023';
const SMALL = 'SYNB-FY2023';

// ---------- helpers ----------

const readBytes = (dir: string, file: string) => new Uint8Array(readFileSync(join(dir, file)));

/** The slow twin: every allowed statement scored by the int8 dot product, best first (no graph, no shortcuts). */
function exactTopK(shard: Shard, query: Float32Array, isAllowed: (local: number) => boolean, k: number) {
  const all: { local: number; score: number }[] = [];
  for (let local = 0; local < shard.texts.length; local++) {
    if (isAllowed(local)) all.push({ local, score: dotInt8(query, shard.vectors, local * shard.dim) });
  }
  return all
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.local - b.local)
    .slice(0, k);
}

/** Recall that counts ties at the cut-off as hits (two statements with the same score are equally right). */
function recallAtK(
  found: { local: number; score: number }[][],
  expected: { local: number; score: number }[][],
): number {
  let hit = 0,
    total = 0;
  found.forEach((list, i) => {
    const want = expected[i]!;
    const ids = new Set(want.map((x) => x.local));
    const cut = want.length ? want[want.length - 1]!.score - 1e-9 : Infinity;
    hit += list.slice(0, want.length).filter((x) => ids.has(x.local) || x.score >= cut).length;
    total += want.length;
  });
  return total ? hit / total : 1;
}

describe.skipIf(!READY)('HNSW graphs built by buildIndex', () => {
  let build: Build, graphs: Graphs, hnsw: Hnsw, strategy: Strategy, retrieveMod: Retrieve;
  let lib: import('../../index-format/hnsw').HnswLib;
  const dirs: string[] = [];
  let first: BuildResult;
  let buildMs = 0;
  let manifest: Manifest;
  let catalog: CatalogHeader;
  let files: ArtifactRef[];
  let model: EmbeddingModel;
  let bigIndex: number;
  let big: Shard;
  let graphIndex: import('../../index-format/hnsw').HnswIndex;
  let handle: HnswIndexHandle;
  const queries: Float32Array[] = [];

  beforeAll(async () => {
    [build, graphs, hnsw, strategy, retrieveMod] = await Promise.all([
      import('../../index-builder/pipeline'),
      import('../../index-builder/vectors/graphs'),
      import('../../index-format/hnsw'),
      import('../../src/search/vector-strategy'),
      import('../../src/search/retrieve'),
    ]);
    dirs.push(mkdtempSync(join(tmpdir(), 'fers-graph-')));
    const t0 = performance.now();
    first = await build.buildIndex(CORPUS, { outDir: dirs[0]!, graphMinStatements: GRAPH_MIN });
    buildMs = performance.now() - t0;
    manifest = decodeManifest(readFileSync(join(first.dir, 'manifest.json'), 'utf8'));
    files = decodeFileList(readFileSync(join(first.dir, manifest.files.file), 'utf8')).files;
    catalog = readFullCatalog(first.dir);
    bigIndex = catalog.shards.findIndex((s) => s.id === BIG);
    // global source numbers, as the Worker reads it
    big = await openFileIndex(first.dir, { shardReads: 'whole' }).shard(bigIndex);

    lib = await hnsw.loadHnswlib(compileWasm(readFileSync(`${GENERATED}hnswlib.wasm`)));
    const { hnsw: payload } = decodeGraph(
      readBytes(first.dir, catalog.shards[bigIndex]!.graph_file!),
      { shard: BIG, dim: big.dim, count: big.texts.length },
      hnsw.parseHnswHeader,
    );
    graphIndex = hnsw.readHnswIndex(lib, payload, { space: 'ip', dim: big.dim, maxElements: 0 });
    handle = strategy.hnswHandle(graphIndex);

    // Queries: fresh sentences from the same generator (not in the corpus), spread over all items.
    const rnd = mulberry32(99);
    const texts = Array.from({ length: 100 }, (_, i) => tokenize(sentence(rnd, i % ITEMS.length)));
    model = (await openFileIndex(first.dir).terms([...texts.flat(), ...tokenize(sentence(mulberry32(7), 5))])).model;
    for (const t of texts) queries.push(embedTokens(model, t));
  }, 120_000);

  afterAll(() => {
    if (graphIndex) hnsw.freeHnswIndex(graphIndex);
    dirs.forEach((d) => {
      rmSync(d, { recursive: true, force: true });
    });
  });

  it('writes a graph for the large shard only, listed in the catalog and the manifest', () => {
    const bigInfo = catalog.shards[bigIndex]!;
    const smallInfo = catalog.shards.find((s) => s.id === SMALL)!;
    expect(bigInfo.statement_count).toBeGreaterThanOrEqual(2_900);
    expect(bigInfo.graph_file).toBe(`graphs/${BIG}.bin`);
    expect(smallInfo.statement_count).toBeLessThan(GRAPH_MIN);
    expect(smallInfo.graph_file).toBeNull();
    const graphRefs = files.filter((f) => f.file.startsWith('graphs/'));
    expect(graphRefs.map((g) => g.file)).toEqual([`graphs/${BIG}.bin`]);
    const ref = graphRefs[0]!;
    expect(readBytes(first.dir, ref.file).byteLength).toBe(ref.bytes);
    expect(bigInfo.graph_bytes).toBe(ref.bytes);
    expect(manifest.totals.files).toBe(files.length);
    expect(manifest.totals.bytes).toBe(files.reduce((a, r) => a + r.bytes, 0));
    expect(first.summary.graphs).toBe(1);
    expect(first.summary.graphBytes).toBe(ref.bytes);
    console.info(
      `graph build: ${bigInfo.statement_count} vectors, ${ref.bytes} B ` +
        `(${(ref.bytes / bigInfo.statement_count).toFixed(0)} B/vector), ` +
        `graphs ${first.summary.graphMs.toFixed(0)} ms of a ${buildMs.toFixed(0)} ms build`,
    );
  });

  it('stores a graph artifact whose header matches the shard and the fixed build parameters', () => {
    const bytes = readBytes(first.dir, `graphs/${BIG}.bin`);
    const { header, hnsw: payload } = decodeGraph(
      bytes,
      { shard: BIG, dim: 128, count: big.texts.length },
      hnsw.parseHnswHeader,
    );
    expect(header).toEqual({
      shard: BIG,
      dim: 128,
      count: big.texts.length,
      space: 'ip',
      m: 16,
      ef_construction: 100,
      seed: graphs.GRAPH_PARAMS.seed,
    });
    expect(hnsw.parseHnswHeader(payload)).toMatchObject({
      count: big.texts.length,
      dim: 128,
      m: 16,
      efConstruction: 100,
    });
    expect(graphIndex.count).toBe(big.texts.length);
  });

  it('is byte-identical for identical input, graphs included', async () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'fers-graph-')));
    const second = await build.buildIndex(CORPUS, { outDir: dirs[1]!, graphMinStatements: GRAPH_MIN });
    expect(second.version).toBe(first.version);
    const a = filesOf(first.dir);
    const b = filesOf(second.dir);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    expect(a.has(`graphs/${BIG}.bin`)).toBe(true);
    for (const [name, bytes] of a) expect(bytes.equals(b.get(name)!), name).toBe(true);
  }, 120_000);

  it('changes the version (not just the files) when the threshold changes', async () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'fers-graph-')));
    const none = await build.buildIndex(CORPUS, { outDir: dirs[dirs.length - 1]!, graphMinStatements: Infinity });
    expect(
      decodeFileList(readFileSync(join(none.dir, none.manifest.files.file), 'utf8')).files.filter((f) =>
        f.file.startsWith('graphs/'),
      ),
    ).toEqual([]);
    expect(none.version).not.toBe(first.version);
    expect(existsSync(join(none.dir, 'graphs'))).toBe(false);
  }, 120_000);

  it('graph recall@10 >= 0.95 vs the exact scan, unfiltered and at 50% / 30% pass rates', () => {
    const limits = EFFORT_LIMITS.low; // the cheapest beam the product uses (efSearch 64)
    const bigSources = catalog.sources
      .map((s, i) => ({ s, i }))
      .filter((x) => x.s.shard === bigIndex)
      .map((x) => x.i);
    const cases: [string, ((local: number) => boolean) | undefined][] = [
      ['unfiltered', undefined],
      [
        '5 of 10 items',
        (
          (allowed) => (local: number) =>
            allowed.has(big.source[local]!)
        )(new Set(bigSources.slice(5))),
      ],
      [
        '3 of 10 items',
        (
          (allowed) => (local: number) =>
            allowed.has(big.source[local]!)
        )(new Set(bigSources.slice(2, 5))),
      ],
    ];
    expect(bigSources).toHaveLength(ITEMS.length); // one source per item
    for (const [name, isAllowed] of cases) {
      const allowedShare = isAllowed ? strategy.countAllowed(big, isAllowed) / big.texts.length : 1;
      // A share the product sends to the graph.
      expect(allowedShare, name).toBeGreaterThanOrEqual(RANKING.graphMinPassRate);
      // The graph's own neighbours (by the exact inner product, best first) against the exact scan.
      const found = queries.map((q) => {
        const r = handle.search(q, limits.depth, limits.efSearch, isAllowed)!;
        return r.labels.map((local) => ({ local, score: dotInt8(q, big.vectors, local * big.dim) }));
      });
      const expected = queries.map((q) => exactTopK(big, q, isAllowed ?? (() => true), 10));
      for (const list of found)
        if (isAllowed)
          expect(
            list.every((h) => isAllowed(h.local)),
            name,
          ).toBe(true);
      // The vector leg rescores the graph's labels by their binary codes, as the code scan scores every statement,
      // so the legs fuse on one scale.
      for (const q of queries) {
        const scorer = codeScorer(big, q);
        for (const h of strategy.searchVectorGraph(big, handle, q, isAllowed, limits.depth, limits.efSearch)!)
          expect(h.score).toBe(scorer.score(h.local));
      }
      const recall = recallAtK(found, expected);
      console.info(`recall@10 ${name} (pass ${(allowedShare * 100).toFixed(0)}%): ${recall.toFixed(3)}`);
      expect(recall, name).toBeGreaterThanOrEqual(0.95);
    }
  });

  describe('retrieve() chooses per shard and records it in the trace', () => {
    /** The built directory as an IndexReader; `graphs` decides what graph() does. */
    function fileReader(mode: 'graphs' | 'no-graph-method' | 'graph-null'): IndexReader {
      const files = openFileIndex(first.dir);
      const reader: IndexReader = {
        ...files,
        shard: async (i) => (i === bigIndex ? big : files.shard(i)),
        shardParts: async (i, need) => (i === bigIndex ? big : files.shardParts(i, need)),
      };
      if (mode === 'graphs') reader.graph = async (i) => (catalog.shards[i]!.graph_file ? handle : null);
      if (mode === 'graph-null') reader.graph = async () => null;
      return reader;
    }
    const query = () => {
      const rnd = mulberry32(7);
      return sentence(rnd, 5).replace(/\.$/, '');
    };
    const itemTags = (n: number) => ITEMS.slice(0, n).map(([code]) => `10K-Item-${code}`);
    const strategies = async (reader: IndexReader, conditions: Condition[]) =>
      Object.fromEntries(
        (
          await retrieveMod.retrieve(reader, catalog, lexicalQuery(query()), conditions, EFFORT_LIMITS.medium)
        ).trace.vectorStrategy.map((v) => [v.shard, v]),
      );

    it('unfiltered: graph for the large shard, exact scan for the shard without one', async () => {
      const s = await strategies(fileReader('graphs'), []);
      expect(s[BIG]).toMatchObject({
        strategy: 'hnsw',
        reason: 'graph',
        allowed: big.texts.length,
        statements: big.texts.length,
      });
      expect(s[SMALL]).toMatchObject({ strategy: 'exact_scan', reason: 'no_graph' });
    });

    it('a filter leaving 30% uses the graph, one leaving 10% scans', async () => {
      const wide = await strategies(fileReader('graphs'), [{ field: 'sec_item_tag', op: 'in', values: itemTags(3) }]);
      expect(wide[BIG]).toMatchObject({ strategy: 'hnsw', reason: 'graph' });
      expect(wide[BIG]!.allowed / wide[BIG]!.statements).toBeCloseTo(0.3, 1);
      const narrow = await strategies(fileReader('graphs'), [{ field: 'sec_item_tag', op: 'in', values: itemTags(1) }]);
      expect(narrow[BIG]).toMatchObject({ strategy: 'exact_scan', reason: 'selective_filter' });
      expect(narrow[BIG]!.allowed / narrow[BIG]!.statements).toBeCloseTo(0.1, 1);
    });

    it('falls back to the exact scan when the reader has no graph to give', async () => {
      expect((await strategies(fileReader('no-graph-method'), []))[BIG]).toMatchObject({
        strategy: 'exact_scan',
        reason: 'no_graph',
      });
      expect((await strategies(fileReader('graph-null'), []))[BIG]).toMatchObject({
        strategy: 'exact_scan',
        reason: 'graph_unavailable',
      });
    });

    it('graph and code scan give mostly the same fused hits, both scored by their codes', async () => {
      const withGraph = await retrieveMod.retrieve(
        fileReader('graphs'),
        catalog,
        lexicalQuery(query()),
        [],
        EFFORT_LIMITS.medium,
      );
      const scan = await retrieveMod.retrieve(
        fileReader('no-graph-method'),
        catalog,
        lexicalQuery(query()),
        [],
        EFFORT_LIMITS.medium,
      );
      const scorer = codeScorer(big, embedTokens(model, tokenize(query())));
      for (const h of withGraph.hits.filter((x) => x.shard === bigIndex && x.cosine > 0))
        expect(h.cosine).toBe(scorer.score(h.local));
      // Two approximations of the exact leg: the graph's exact neighbours rescored by code, and the code scan's own
      // ranking; the lexical leg is shared. Measured 13 of the top 20 (the graph's own recall is tested above).
      const top = (hits: typeof scan.hits) => hits.slice(0, 20).map((h) => `${h.shard}:${h.local}`);
      const overlap = top(withGraph.hits).filter((k) => top(scan.hits).includes(k)).length;
      expect(overlap).toBeGreaterThanOrEqual(12);
    });
  });

  describe('the Worker reader (r2-index) serves graphs', () => {
    /** R2/KV stand-ins holding the built version; `tamper` changes one stored object. */
    function storage(tamper?: { file: string; bytes: Uint8Array }) {
      const objects = new Map<string, Uint8Array>();
      for (const ref of files) {
        objects.set(
          storedKey(manifest.domain, manifest.version, ref),
          tamper?.file === ref.file ? tamper.bytes : readBytes(first.dir, ref.file),
        );
      }
      objects.set(
        manifestKey(manifest.domain, manifest.version),
        new Uint8Array(readFileSync(join(first.dir, 'manifest.json'))),
      );
      const bucket = {
        get: async (key: string) => {
          const data = objects.get(key);
          return data
            ? { arrayBuffer: async () => data.slice().buffer, text: async () => new TextDecoder().decode(data) }
            : null;
        },
      } as unknown as R2Bucket;
      const kv = {
        get: async (key: string) => (key === pointerKey(manifest.domain) ? manifest.version : null),
      } as unknown as KVNamespace;
      return { bucket, kv };
    }
    const open = async (cache: ArtifactCache, stats: LoadStats, tamper?: { file: string; bytes: Uint8Array }) => {
      const { openR2Index } = await import('../../src/adapters/r2-index');
      const { bucket, kv } = storage(tamper);
      return openR2Index(bucket, kv, manifest.domain, cache, { stats });
    };
    const MiB = 1024 * 1024;

    it('loads a verified graph once, accounts the wasm heap, and answers searches', async () => {
      const cache = new ArtifactCache(64 * MiB);
      const stats: LoadStats = { loaded: [], cacheHits: 0 };
      const reader = await open(cache, stats);
      const smallIndex = catalog.shards.findIndex((s) => s.id === SMALL);
      expect(await reader.graph!(smallIndex)).toBeNull();
      const g = (await reader.graph!(bigIndex))!;
      expect(g.count).toBe(big.texts.length);
      expect(stats.loaded).toContain(`graphs/${BIG}.bin`);
      expect(await reader.graph!(bigIndex)).toBe(g); // cached
      const heap = cache.stats().arenaBytes;
      expect(heap).toBeGreaterThanOrEqual(16 * MiB); // the one-time heap is in the budget
      expect(cache.stats().bytes).toBeGreaterThanOrEqual(heap);
      const labels = g.search(queries[0]!, 10, 64)!.labels;
      expect(new Set(labels)).toEqual(new Set(exactTopK(big, queries[0]!, () => true, 10).map((h) => h.local)));

      // Eviction frees the native graph: the old handle answers null and the next call reloads it.
      cache.evictFromArena('hnswlib-wasm-heap', Infinity);
      expect(g.search(queries[0]!, 10, 64)).toBeNull();
      const again = (await reader.graph!(bigIndex))!;
      expect(again).not.toBe(g);
      expect(again.search(queries[0]!, 10, 64)!.labels).toHaveLength(10);
      expect(stats.loaded.filter((f) => f === `graphs/${BIG}.bin`)).toHaveLength(2);
    });

    it('a graph that does not match its checksum is a 503 like any artifact', async () => {
      const file = `graphs/${BIG}.bin`;
      const bytes = readBytes(first.dir, file);
      bytes[bytes.length - 1]! ^= 1;
      const reader = await open(new ArtifactCache(64 * MiB), { loaded: [], cacheHits: 0 }, { file, bytes });
      await expect(reader.graph!(bigIndex)).rejects.toMatchObject({
        code: 'INDEX_UNAVAILABLE',
        extra: { reason: 'artifact_checksum_mismatch' },
      });
    });

    it('no graph (exact scan) when the budget cannot hold the wasm heap', async () => {
      const cache = new ArtifactCache(8 * MiB);
      const reader = await open(cache, { loaded: [], cacheHits: 0 });
      expect(await reader.graph!(bigIndex)).toBeNull();
      expect(cache.stats().arenaBytes).toBe(0);
    });
  });

  describe('validation', () => {
    it('decodeGraph rejects a graph that does not match its shard', () => {
      const bytes = readBytes(first.dir, `graphs/${BIG}.bin`);
      const n = big.texts.length;
      const decode = (expected: { shard: string; dim: number; count: number }) => () =>
        decodeGraph(bytes, expected, hnsw.parseHnswHeader);
      expect(decode({ shard: SMALL, dim: 128, count: n })).toThrow(/graph is for shard SYNA-FY2023/);
      expect(decode({ shard: BIG, dim: 64, count: n })).toThrow(/dim 128/);
      expect(decode({ shard: BIG, dim: 128, count: n + 1 })).toThrow(ArtifactFormatError);
      // A header that lies about the payload.
      const { header, hnsw: payload } = decodeGraph(bytes, { shard: BIG, dim: 128, count: n }, hnsw.parseHnswHeader);
      const lying = encodeArtifact('graph', { ...header, m: 32 }, { hnsw: payload });
      expect(() => decodeGraph(lying, { shard: BIG, dim: 128, count: n }, hnsw.parseHnswHeader)).toThrow(
        /disagrees with its header/,
      );
      const truncated = encodeArtifact('graph', header, { hnsw: payload.subarray(0, 1000) });
      expect(() => decodeGraph(truncated, { shard: BIG, dim: 128, count: n }, hnsw.parseHnswHeader)).toThrow(
        /graph payload invalid/,
      );
      expect(() =>
        decodeGraph(
          readBytes(first.dir, catalog.shards[bigIndex]!.file),
          { shard: BIG, dim: 128, count: n },
          hnsw.parseHnswHeader,
        ),
      ).toThrow(/not a graph/);
    });

    it('the builder says "run npm install" when the generated hnswlib build is missing', async () => {
      await expect(graphs.openGraphBuilder('/nonexistent/generated/hnswlib/')).rejects.toThrow(/run npm install/i);
    });

    it('rejects an invalid threshold', async () => {
      await expect(build.buildIndex(CORPUS, { outDir: dirs[0]!, graphMinStatements: 0 })).rejects.toThrow(
        /positive integer/,
      );
      await expect(build.buildIndex(CORPUS, { outDir: dirs[0]!, graphMinStatements: 2.5 })).rejects.toThrow(
        /positive integer/,
      );
    });
  });
});
