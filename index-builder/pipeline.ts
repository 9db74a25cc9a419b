import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { decodeShard } from '../index-format/codec';
import { shardHead, statementKind, statementStatus } from '../index-format/shard-layout';
import {
  EDGE_KINDS,
  type ArtifactRef,
  type CatalogSource,
  type DirectoryCompany,
  type IssuerTable,
  type ShardInfo,
} from '../index-format/types';
import { itemSource } from '../index-format/views';
import { FILTER_FIELDS } from '../index-format/fields';
import { companyAliases } from './entities/aliases';
import {
  ArtifactWriter,
  buildCatalog,
  catalogSources,
  DOMAIN,
  encodeShardStatements,
  type BuildOptions,
  type BuildResult,
  type FilingEntry,
  type FilingRecord,
  numberSources,
  observeEntities,
  planShards,
  type SegmentedCorpus,
  segmentCorpus,
  shardKeyOf,
  type Statement,
} from './build';
import { buildConsensus } from './statements/consensus';
import { learnsMeaning } from './segment/cover';
import { EmbeddingLearner, type LearnedModel } from './vectors/embeddings';
import { EntityCollector, type CompanyEntities } from './entities/collect';
import {
  checkGraphMinStatements,
  DEFAULT_GRAPH_MIN_STATEMENTS,
  openGraphBuilder,
  type GraphBuilder,
} from './vectors/graphs';
import { shardTermBounds, type TermBounds } from './impact-bounds';
import { mergeSummaries, partitionLayout } from './merge';
import { embeddingSample, saveModel } from './vectors/model-store';
import { issuerArtifacts } from './shards/partitioned';
import { writeTermMajorBounds } from './shards/term-bounds-file';
import type { Filing } from './segment/read-corpus';

/**
 * A full garbage collection when the process runs with --expose-gc (npm run index:build does): V8 sizes its heap by
 * how much a run has allocated, not by what is live, so without it a 4x corpus ends with a larger heap than 1x
 * although every issuer's working set is the same. Called between issuers and passes (a few ms each); a no-op
 * otherwise.
 */
export const releaseMemory = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** The spilled filings sorted by doc_id, whatever order they arrived in; a filing given twice is an error. */
export function inCorpusOrder(spilled: readonly FilingEntry[]): FilingEntry[] {
  const entries = [...spilled].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : a.doc.doc_id > b.doc.doc_id ? 1 : 0));
  for (let i = 1; i < entries.length; i++) {
    if (entries[i]!.doc.doc_id === entries[i - 1]!.doc.doc_id)
      throw new Error(`filing ${entries[i]!.doc.doc_id} appears twice in the input`);
  }
  return entries;
}

const readRecord = (e: FilingEntry) => deserialize(readFileSync(e.file)) as FilingRecord;

/** A model as a build uses it: its id, and how it was made (sample size and time; null and 0 when reused). */
export interface FrozenModel {
  id: string;
  model: LearnedModel;
  sampleFilings: number | null;
  ms: number;
}

/**
 * The word-vector model, learned from a fixed sample of the corpus (embeddingSample: every filing up to
 * `sampleFilings`, else that many chosen by the hash of their doc_id): vocabulary and pooling weights counted from
 * the sample's statements, then their co-occurrences, both in corpus order. It depends on the sample alone, so a
 * separate job learns it once and every partition job embeds with it (`index:build -- --learn-model`).
 */
export function learnModel(
  spilled: readonly FilingEntry[],
  outDir: string,
  options: Pick<BuildOptions, 'embedding' | 'onStage'> = {},
): FrozenModel {
  const stage = options.onStage ?? (() => {});
  const started = performance.now();
  const learner = new EmbeddingLearner(options.embedding);
  const entries = inCorpusOrder(spilled);
  const sample = embeddingSample(
    entries.map((e) => e.doc.doc_id),
    learner.options.sampleFilings,
  );
  const chosen = entries.filter((e) => sample.has(e.doc.doc_id));
  for (const e of chosen)
    for (const s of readRecord(e).statements) if (learnsMeaning(s.itemTag)) learner.count(s.tokens);
  learner.fixVocabulary();
  chosen.forEach((e, i) => {
    stage('model', i + 1, chosen.length);
    for (const s of readRecord(e).statements) if (learnsMeaning(s.itemTag)) learner.cooccur(s.tokens);
  });
  const model = learner.finish();
  const id = saveModel(join(outDir, DOMAIN), model);
  return { id, model, sampleFilings: chosen.length, ms: performance.now() - started };
}

/** The catalog sources of one filing of a reused issuer table, as catalogSources made them from its record. */
function reusedSources(table: IssuerTable, docId: string, shard: number): CatalogSource[] {
  const filing = table.filings.findIndex((f) => f.doc_id === docId);
  return table.items.filter((item) => item.filing === filing).map((item) => itemSource(table, item, shard));
}

/** The catalog's sources, numbered issuer by issuer (numberSources); a reused issuer's come from its table. */
function numberCatalogSources(
  corpus: SegmentedCorpus,
  entries: readonly FilingEntry[],
  shardByKey: ReadonlyMap<string, number>,
): { sources: CatalogSource[]; firstSource: Uint32Array; sourceBase: Map<string, number> } {
  const filingSources = entries.map((e) => {
    const shard = shardByKey.get(shardKeyOf(e.doc))!;
    const reusedTable = corpus.reuse?.tables.get(e.doc.ticker);
    return reusedTable ? reusedSources(reusedTable, e.doc.doc_id, shard) : catalogSources(readRecord(e), shard);
  });
  const { first: firstSource, base: sourceBase } = numberSources(
    entries.map((e, fi) => ({ ticker: e.doc.ticker, sources: filingSources[fi]!.length })),
  );
  const sources: CatalogSource[] = [];
  filingSources.forEach((list, fi) => {
    list.forEach((src, k) => {
      sources[firstSource[fi]! + k] = src;
    });
  });
  return { sources, firstSource, sourceBase };
}

/** What the issuer pass reads: the filings in corpus order, their shard and source numbering, the model. */
interface PlacedCorpus {
  entries: readonly FilingEntry[];
  shardKeys: readonly string[];
  shardByKey: ReadonlyMap<string, number>;
  sources: readonly CatalogSource[];
  firstSource: Uint32Array;
  sourceBase: ReadonlyMap<string, number>;
  model: LearnedModel;
}

/** Sums a partition reports for the build summary. */
export interface PartitionCounts {
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  edges: Record<string, number>;
  merged: { sentences: number; rows: number; disagreeing: number };
  entities: Record<string, number>;
  largestShardBytes: number;
  graphBytes: number;
  graphMs: number;
  reusedIssuers: number;
  reusedBytes: number;
}

/**
 * Issuer by issuer: an unchanged issuer's shards and graphs are copied from the previous version
 * (copyReusedIssuer), any other issuer's are built from its filings (rebuildIssuer). Either way it leaves the same
 * per-shard and per-issuer summaries, and for each shard its term bounds (impact-bounds.ts) in `boundsDir`.
 */
class IssuerPass {
  /** By shard number: the catalog's shard entries, graph files (null without a graph), term bounds files. */
  readonly shardInfos: ShardInfo[];
  readonly graphFiles: (string | null)[];
  readonly boundsFiles: string[];
  /** By source number. */
  readonly statementsPerSource: Uint32Array;
  readonly entities = new Map<string, CompanyEntities>();
  readonly counts: PartitionCounts = {
    byStatus: {},
    byKind: {},
    edges: Object.fromEntries(EDGE_KINDS.map((k) => [k, 0])),
    merged: { sentences: 0, rows: 0, disagreeing: 0 },
    entities: { segment: 0, product: 0, counterparty: 0 },
    largestShardBytes: 0,
    graphBytes: 0,
    graphMs: 0,
    reusedIssuers: 0,
    reusedBytes: 0,
  };
  private graphBuilder: GraphBuilder | null = null;

  constructor(
    readonly corpus: PlacedCorpus,
    private readonly writer: ArtifactWriter,
    private readonly graphMinStatements: number,
    private readonly boundsDir: string,
  ) {
    this.shardInfos = new Array(corpus.shardKeys.length);
    this.graphFiles = new Array(corpus.shardKeys.length).fill(null);
    this.boundsFiles = new Array(corpus.shardKeys.length);
    this.statementsPerSource = new Uint32Array(corpus.sources.length);
    mkdirSync(boundsDir, { recursive: true });
  }

  private spillBounds(shardIndex: number, shardId: string, bounds: TermBounds): void {
    const file = `${shardId}.bin`;
    writeFileSync(join(this.boundsDir, file), serialize(bounds));
    this.boundsFiles[shardIndex] = file;
  }

  /** An unchanged issuer: its shards and graphs byte for byte, their term bounds read from their postings. */
  copyReusedIssuer(ticker: string, table: IssuerTable, previousDir: string): void {
    const { counts } = this;
    counts.reusedIssuers++;
    for (const info of table.shards) {
      const shardIndex = this.corpus.shardByKey.get(info.id)!;
      const bytes = new Uint8Array(readFileSync(join(previousDir, info.file)));
      if (this.writer.write(info.file, bytes).content_id !== info.content_id)
        throw new Error(`${info.file} in ${previousDir} does not match its issuer table`);
      counts.reusedBytes += bytes.byteLength;
      const shard = decodeShard(bytes);
      this.spillBounds(shardIndex, info.id, shardTermBounds(shard));
      // The summary counts every statement and edge, reused or rebuilt.
      for (let i = 0; i < shard.count; i++) {
        const k = statementKind(shard, i);
        const st = statementStatus(shard, i);
        counts.byKind[k] = (counts.byKind[k] ?? 0) + 1;
        counts.byStatus[st] = (counts.byStatus[st] ?? 0) + 1;
      }
      for (const k of shard.edges.kind) counts.edges[EDGE_KINDS[k]!]!++;
      counts.largestShardBytes = Math.max(counts.largestShardBytes, bytes.byteLength);
      if (info.graph_file) {
        const graph = new Uint8Array(readFileSync(join(previousDir, info.graph_file)));
        if (this.writer.write(info.graph_file, graph).content_id !== info.graph_content_id)
          throw new Error(`${info.graph_file} in ${previousDir} does not match its issuer table`);
        counts.reusedBytes += graph.byteLength;
      }
      this.graphFiles[shardIndex] = info.graph_file;
      this.shardInfos[shardIndex] = info;
    }
    const base = this.corpus.sourceBase.get(ticker)!;
    table.items.forEach((item, k) => {
      this.statementsPerSource[base + k] = item.statements;
    });
    this.entities.set(ticker, { segments: table.segments ?? [], entities: table.entities ?? [] });
  }

  /** A new or changed issuer: its filings read back together for consensus and entities, then its shards written. */
  async rebuildIssuer(ticker: string, filingIndexes: readonly number[]): Promise<void> {
    const { entries, firstSource, shardByKey, sources } = this.corpus;
    const { counts } = this;
    const collector = new EntityCollector();
    const statements: Statement[] = [];
    for (const fi of filingIndexes) {
      const record = readRecord(entries[fi]!);
      observeEntities(collector, record, fi, record.statements);
      for (const s of record.statements) {
        const source = firstSource[fi]! + s.localSource;
        statements.push({ ...s, source, filing: fi, ticker });
        this.statementsPerSource[source]!++;
        counts.byStatus[s.status] = (counts.byStatus[s.status] ?? 0) + 1;
        counts.byKind[s.kind] = (counts.byKind[s.kind] ?? 0) + 1;
      }
    }
    const consensus = buildConsensus(statements);
    counts.merged.sentences += consensus.mergedSentenceGroups;
    counts.merged.rows += consensus.mergedTableRows;
    counts.merged.disagreeing += consensus.disagreeingRows;
    const company = entries[filingIndexes[0]!]!.doc;
    for (const [t, found] of collector.finish(
      [{ ticker, company: company.company, aliases: companyAliases(company.company, ticker) }],
      () => statements.map((s) => s.text),
    )) {
      this.entities.set(t, found);
    }

    // This issuer's shards, in shard order; each takes its statements in corpus order.
    const members = new Map<number, number[]>();
    for (const fi of filingIndexes) {
      const shard = shardByKey.get(shardKeyOf(entries[fi]!.doc))!;
      if (!members.has(shard)) members.set(shard, []);
    }
    statements.forEach((s, i) => {
      members.get(sources[s.source]!.shard)!.push(i);
    });
    const base = this.corpus.sourceBase.get(ticker)!;
    const issuerSources = sources.slice(base, base + (this.sourceCounts.get(ticker) ?? 0));
    for (const [shardIndex, ids] of [...members].sort((a, b) => a[0] - b[0])) {
      const shardConsensus = {
        agree: (k: number) => consensus.agree.get(ids[k]!) ?? [],
        disagree: (k: number) => consensus.disagree.get(ids[k]!) ?? [],
      };
      await this.writeShard(
        shardIndex,
        ids.map((i) => statements[i]!),
        shardConsensus,
        ticker,
        issuerSources.filter((s) => s.shard === shardIndex),
      );
    }
  }

  /** Sources per issuer (contiguous from its base). */
  private readonly sourceCounts = new Map<string, number>();
  countSources(): void {
    for (const s of this.corpus.sources) {
      const t = s.meta.sec_ticker ?? '';
      this.sourceCounts.set(t, (this.sourceCounts.get(t) ?? 0) + 1);
    }
  }

  /** One rebuilt shard: encoded and written, its graph when it is large enough, and its catalog entry. */
  private async writeShard(
    shardIndex: number,
    shardStatements: readonly Statement[],
    consensus: Parameters<typeof encodeShardStatements>[2],
    ticker: string,
    shardSources: readonly CatalogSource[],
  ): Promise<void> {
    const { model } = this.corpus;
    const { counts } = this;
    const shardId = this.corpus.shardKeys[shardIndex]!;
    const encoded = encodeShardStatements(
      shardId,
      shardStatements,
      consensus,
      model,
      this.corpus.sourceBase.get(ticker)!,
    );
    for (const list of encoded.edges) for (const e of list) counts.edges[e.kind]!++;
    this.spillBounds(shardIndex, shardId, encoded.bounds);
    const file = `shards/${shardId}.bin`;
    const contentId = this.writer.write(file, encoded.bytes).content_id!;
    const head = shardHead(encoded.bytes); // after the write: the head includes the seal
    counts.largestShardBytes = Math.max(counts.largestShardBytes, encoded.bytes.byteLength);
    const distinct = (f: (s: CatalogSource) => string | null) =>
      [...new Set(shardSources.map(f).filter((v): v is string => !!v))].sort();
    let graphFile: string | null = null;
    let graphContentId: string | undefined;
    let shardGraphBytes = 0;
    // HNSW graphs for the large shards; the wasm is only loaded when some shard needs one.
    const count = shardStatements.length;
    if (count > 0 && count >= this.graphMinStatements) {
      const started = performance.now();
      this.graphBuilder ??= await openGraphBuilder();
      graphFile = `graphs/${shardId}.bin`;
      const graphRef = this.writer.write(graphFile, this.graphBuilder.build(shardId, encoded.vectors, model.dim));
      shardGraphBytes = graphRef.bytes;
      graphContentId = graphRef.content_id;
      counts.graphBytes += shardGraphBytes;
      counts.graphMs += performance.now() - started;
    }
    this.graphFiles[shardIndex] = graphFile;
    this.shardInfos[shardIndex] = {
      id: shardId,
      file,
      statement_count: count,
      tickers: distinct((s) => s.meta.sec_ticker),
      fiscal_years: distinct((s) => s.meta.sec_fiscal_year),
      form_types: distinct((s) => s.meta.sec_form_type),
      graph_file: graphFile,
      ...(graphFile ? { graph_bytes: shardGraphBytes } : {}),
      content_id: contentId,
      ...(graphContentId ? { graph_content_id: graphContentId } : {}),
      ...head,
    };
  }
}

/** What the merge needs of one issuer: nothing that grows with its statements. */
export interface IssuerSummary {
  ticker: string;
  /** Its directory entry with shards and sources numbered from 0 (the merge places them) and every alias kept. */
  company: DirectoryCompany;
  /** The doc_id of its first filing in corpus order: the merge numbers issuers in that order, as one build does. */
  firstDocId: string;
  /** Its shards in order: the shard and graph files. */
  shards: { file: string; graph: string | null }[];
  /** Statements per filter value, values in the order its sources first give them (the directory keeps it). */
  fieldValues: Record<string, [string, number][]>;
  /** Fiscal years and filing dates (YYYYMMDD) of its sources, min and max; null without any. */
  years: [number, number] | null;
  dates: [number, number] | null;
}

/** What a partition job leaves for the merge, besides its objects and term bounds. */
export interface PartitionSummary {
  embeddingModel: string;
  /** Every filing, in corpus order (the build state and the summary's counts). */
  filings: Pick<FilingEntry, 'doc' | 'hash' | 'pageCount'>[];
  /** Statements, and their lengths summed (as TermStats caps them): the corpus's average length is the merge's. */
  stats: { statements: number; totalLen: number };
  issuers: IssuerSummary[];
  /** The shards, graphs and issuer tables it wrote, under its objects/. */
  objects: ArtifactRef[];
  sources: number;
  counts: PartitionCounts;
}

const minMax = (xs: readonly number[]): [number, number] | null => {
  if (!xs.length) return null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return [lo, hi];
};

/** One issuer's filter values and bounds, from its sources (as buildCatalog counts them over the corpus). */
function issuerFilterSummary(
  sources: readonly CatalogSource[],
  statements: (i: number) => number,
): Pick<IssuerSummary, 'fieldValues' | 'years' | 'dates'> {
  const fieldValues: Record<string, Map<string, number>> = {};
  for (const field of FILTER_FIELDS) if (field !== 'report_filing_date') fieldValues[field] = new Map();
  sources.forEach((src, i) => {
    for (const [field, values] of Object.entries(fieldValues)) {
      const v = src.meta[field as keyof typeof src.meta];
      if (v) values.set(v, (values.get(v) ?? 0) + statements(i));
    }
  });
  return {
    fieldValues: Object.fromEntries(Object.entries(fieldValues).map(([f, m]) => [f, [...m]])),
    years: minMax(sources.map((s) => Number(s.meta.sec_fiscal_year!.slice(3)))),
    dates: minMax(
      sources
        .map((s) => s.date)
        .filter((d): d is string => !!d)
        .map((d) => Number(d.replace(/-/g, ''))),
    ),
  };
}

/**
 * Everything of a set of whole issuers that grows with their statements: consensus, entities, shards and graphs
 * embedded with the frozen model, issuer tables, and each shard's term bounds, written under `dir`
 * (partitionLayout); returns the summary the merge combines (index-builder/merge.ts).
 */
export async function assemblePartition(
  corpus: SegmentedCorpus,
  model: Pick<FrozenModel, 'id' | 'model'>,
  dir: string,
  options: Pick<BuildOptions, 'graphMinStatements' | 'onStage'> = {},
): Promise<PartitionSummary> {
  const stage = options.onStage ?? (() => {});
  const graphMinStatements = checkGraphMinStatements(options.graphMinStatements ?? DEFAULT_GRAPH_MIN_STATEMENTS);
  const layout = partitionLayout(dir);
  rmSync(layout.objects, { recursive: true, force: true });
  rmSync(layout.bounds, { recursive: true, force: true });
  const writer = new ArtifactWriter(layout.objects);
  const entries = inCorpusOrder(corpus.entries);
  const { keys: shardKeys, byKey: shardByKey } = planShards(entries.map((e) => e.doc));
  const numbered = numberCatalogSources(corpus, entries, shardByKey);
  const shardBoundsDir = join(layout.bounds, '.shards');
  const issuers = new IssuerPass(
    { entries, shardKeys, shardByKey, ...numbered, model: model.model },
    writer,
    graphMinStatements,
    shardBoundsDir,
  );
  issuers.countSources();
  const byIssuer = new Map<string, number[]>();
  entries.forEach((e, fi) => {
    const list = byIssuer.get(e.doc.ticker);
    if (list) list.push(fi);
    else byIssuer.set(e.doc.ticker, [fi]);
  });
  let issuersDone = 0;
  for (const [ticker, filingIndexes] of byIssuer) {
    if (issuersDone) releaseMemory(); // the previous issuer's statements, consensus and shards
    stage('shards', ++issuersDone, byIssuer.size);
    const reusedTable = corpus.reuse?.tables.get(ticker);
    if (reusedTable) issuers.copyReusedIssuer(ticker, reusedTable, corpus.reuse!.dir);
    else await issuers.rebuildIssuer(ticker, filingIndexes);
  }
  const { summary, shardOrder } = summarizePartition(corpus, entries, issuers, writer, model.id);
  // The shards' bounds, term-major for the merge; the per-shard files were only this job's spill.
  const readBounds = (p: number) =>
    deserialize(readFileSync(join(shardBoundsDir, issuers.boundsFiles[shardOrder[p]!]!))) as TermBounds;
  writeTermMajorBounds(layout.bounds, shardOrder.length, readBounds, corpus.stats.df);
  rmSync(shardBoundsDir, { recursive: true, force: true });
  return summary;
}

/** The partition's issuer tables, written, and its summary: directory rows, filter values, shard files. */
function summarizePartition(
  corpus: SegmentedCorpus,
  entries: readonly FilingEntry[],
  issuers: IssuerPass,
  writer: ArtifactWriter,
  embeddingModel: string,
): { summary: PartitionSummary; shardOrder: number[] } {
  const { sources, sourceBase } = issuers.corpus;
  const { stats } = corpus;
  const catalog = buildCatalog({
    docs: entries.map((e) => e.doc),
    pages: 0,
    sources,
    statementsPerSource: issuers.statementsPerSource,
    statements: stats.statements,
    shards: issuers.shardInfos,
    dim: issuers.corpus.model.dim,
    avgLen: stats.avgLen,
    entities: issuers.entities,
  });
  const terms = { blocks: 0, total_statements: 0, avg_len: 0, impact_scale: 0 };
  const { directory, files } = issuerArtifacts(catalog, terms, issuers.statementsPerSource);
  for (const [file, bytes] of files) writer.write(file, bytes);
  for (const c of catalog.companies) for (const e of c.entities ?? []) issuers.counts.entities[e.kind]!++;
  const rows = new Map(directory.companies.map((c) => [c.ticker, c]));
  const firstDoc = new Map<string, string>();
  for (const e of entries) if (!firstDoc.has(e.doc.ticker)) firstDoc.set(e.doc.ticker, e.doc.doc_id);
  /** The partition's shard numbers in the order the summary lists them (its issuers', each issuer's in order). */
  const shardOrder: number[] = [];
  const summaries: IssuerSummary[] = [...firstDoc].map(([ticker, firstDocId]) => {
    const row = rows.get(ticker)!;
    const base = sourceBase.get(ticker)!;
    const own = sources.slice(base, base + row.sources.count);
    const shardNumbers = row.shards.fiscal_years.map((_, k) => row.shards.first + k);
    shardOrder.push(...shardNumbers);
    return {
      ticker,
      company: { ...row, aliases: companyAliases(row.company, ticker) },
      firstDocId,
      shards: shardNumbers.map((s) => ({ file: issuers.shardInfos[s]!.file, graph: issuers.graphFiles[s] ?? null })),
      ...issuerFilterSummary(own, (i) => issuers.statementsPerSource[base + i]!),
    };
  });
  const summary: PartitionSummary = {
    embeddingModel,
    filings: entries.map(({ doc, hash, pageCount }) => ({ doc, hash, pageCount })),
    stats: { statements: stats.statements, totalLen: stats.totalLen },
    issuers: summaries,
    objects: writer.written(),
    sources: sources.length,
    counts: issuers.counts,
  };
  return { summary, shardOrder };
}

/**
 * The whole offline pipeline, streaming: filings are segmented one at a time and spilled to disk (pass 1, which
 * also sums term statistics); the word-vector model is learned from a fixed sample of them (learnModel) unless one
 * is given; then each issuer's filings are read back together for what needs them together (consensus across its
 * filings, its entities, its shards), one issuer at a time, as one partition holding every issuer
 * (assemblePartition); the corpus-wide tables (lexicon, term blocks, directory) come from its summary, as a
 * partitioned build's merge makes them from several (mergeSummaries). Memory is bounded by the largest issuer plus
 * fixed-size state (the co-occurrence matrix, the term dictionary), not by the corpus. Filings are ordered by doc_id
 * whatever order they arrive in, and no clock or randomness beyond fixed seeds enters the output: identical input
 * gives byte-identical artifacts (test/support/build-in-memory.ts is the in-memory twin it is tested against).
 */
export async function buildIndex(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  options: BuildOptions,
): Promise<BuildResult> {
  mkdirSync(join(options.outDir, DOMAIN), { recursive: true });
  const spill = join(options.outDir, DOMAIN, `.spill-${process.pid}`);
  rmSync(spill, { recursive: true, force: true });
  try {
    return await assembleIndex(await segmentCorpus(filings, spill, options), options);
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}

/** The model, then the issuers and the corpus-wide tables, over a segmented corpus (one partition of every issuer). */
export async function assembleIndex(corpus: SegmentedCorpus, options: BuildOptions): Promise<BuildResult> {
  const given = options.embeddingModel;
  const model: FrozenModel = given
    ? { ...given, sampleFilings: null, ms: 0 }
    : learnModel(corpus.entries, options.outDir, options);
  releaseMemory(); // the co-occurrence matrix and the records read to learn the model
  const part = join(options.outDir, DOMAIN, `.part-${process.pid}`);
  try {
    const summary = await assemblePartition(corpus, model, part, options);
    return mergeSummaries([{ dir: part, summary }], model, options);
  } finally {
    rmSync(part, { recursive: true, force: true });
  }
}
