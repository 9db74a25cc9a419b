import { shardHead } from '../../index-format/shard-layout';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EDGE_KINDS, type ArtifactRef, type CatalogSource, type ShardInfo } from '../../index-format/types';
import { companyAliases } from '../../index-builder/entities/aliases';
import {
  analyzeFiling,
  buildCatalog,
  catalogSources,
  DOMAIN,
  numberSources,
  encodeShardStatements,
  filingHash,
  MAX_DOC_LEN,
  MAX_TF,
  writeBuildState,
  observeEntities,
  planShards,
  postedTerms,
  seal,
  sha256,
  shardKeyOf,
  versionOf,
  type BuildOptions,
  type BuildResult,
  type Statement,
} from '../../index-builder/build';
import { buildConsensus } from '../../index-builder/statements/consensus';
import { bm25Idf, bm25TermScore } from '../../index-format/bm25';
import { learnsMeaning } from '../../index-builder/segment/cover';
import { partitionedArtifacts, storedByContent } from '../../index-builder/shards/partitioned';
import { contentIdOf, FILE_LIST } from '../../index-format/keys';
import { EmbeddingLearner } from '../../index-builder/vectors/embeddings';
import { embeddingSample, encodeModel, modelId } from '../../index-builder/vectors/model-store';
import { EntityCollector } from '../../index-builder/entities/collect';
import {
  checkGraphMinStatements,
  DEFAULT_GRAPH_MIN_STATEMENTS,
  openGraphBuilder,
  type GraphBuilder,
} from '../../index-builder/vectors/graphs';
import type { Filing } from '../../index-builder/segment/read-corpus';

/*
 * The builder as it was before it streamed: every filing and statement in memory at once, consensus, word vectors and
 * entities over the whole corpus in one go, the lexicon's impact bounds in one map of maps, every artifact held until
 * the version is written. It shares the per-filing (segmentation) and per-shard (encoding) steps with
 * index-builder/build.ts and differs in everything the streaming build reorganised, which is what the twin tests
 * check: the streaming build must give byte-identical artifacts (test/unit/build-streaming.test.ts,
 * test/quality/build-twin-real.test.ts).
 */
export async function buildIndexInMemory(input: readonly Filing[], options: BuildOptions): Promise<BuildResult> {
  const graphMinStatements = checkGraphMinStatements(options.graphMinStatements ?? DEFAULT_GRAPH_MIN_STATEMENTS);
  const filings = [...input].sort((a, b) => (a.doc.doc_id < b.doc.doc_id ? -1 : a.doc.doc_id > b.doc.doc_id ? 1 : 0));
  const records = filings.map(analyzeFiling);
  const { keys: shardKeys, byKey: shardByKey } = planShards(records.map((r) => r.doc));
  const sources: CatalogSource[] = [];
  const statements: Statement[] = [];
  const collector = new EntityCollector();
  const { first: firstSource, base: sourceBase } = numberSources(
    records.map((r) => ({ ticker: r.doc.ticker, sources: r.sources.length })),
  );
  records.forEach((r, fi) => {
    catalogSources(r, shardByKey.get(shardKeyOf(r.doc))!).forEach((src, k) => {
      sources[firstSource[fi]! + k] = src;
    });
    observeEntities(collector, r, fi, r.statements);
    for (const s of r.statements)
      statements.push({ ...s, source: firstSource[fi]! + s.localSource, filing: fi, ticker: r.doc.ticker });
  });

  const consensus = buildConsensus(statements);
  // Vocabulary, weights and co-occurrences from the sampled filings' statements but the cover pages'.
  const learner = new EmbeddingLearner(options.embedding);
  const sample = embeddingSample(
    records.map((r) => r.doc.doc_id),
    learner.options.sampleFilings,
  );
  const learnt = statements.filter((s) => learnsMeaning(s.itemTag) && sample.has(records[s.filing]!.doc.doc_id));
  for (const s of learnt) learner.count(s.tokens);
  learner.fixVocabulary();
  for (const s of learnt) learner.cooccur(s.tokens);
  const model = learner.finish();
  const embeddingModel = modelId(encodeModel(model));
  const df = new Map<string, number>();
  let totalLen = 0;
  for (const s of statements) {
    totalLen += Math.min(MAX_DOC_LEN, s.tokens.length);
    for (const t of new Set(postedTerms(s))) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const N = statements.length;
  const avgLen = N ? totalLen / N : 0;

  const members: number[][] = shardKeys.map(() => []);
  statements.forEach((s, i) => {
    members[sources[s.source]!.shard]!.push(i);
  });
  const shardFiles: {
    info: Omit<ShardInfo, 'content_id' | 'head_bytes' | 'head_crc'>;
    bytes: Uint8Array;
    vectors: Int8Array;
  }[] = [];
  const impacts = new Map<string, Map<number, number>>(); // term -> shard -> max BM25 contribution
  const edges: Record<string, number> = Object.fromEntries(EDGE_KINDS.map((k) => [k, 0]));
  members.forEach((ids, shardIndex) => {
    const shardId = shardKeys[shardIndex]!;
    const encoded = encodeShardStatements(
      shardId,
      ids.map((i) => statements[i]!),
      { agree: (k) => consensus.agree.get(ids[k]!) ?? [], disagree: (k) => consensus.disagree.get(ids[k]!) ?? [] },
      model,
      sourceBase.get(sources.find((s) => s.shard === shardIndex)!.meta.sec_ticker!)!,
    );
    for (const list of encoded.edges) for (const e of list) edges[e.kind]!++;
    // Each term's best BM25 contribution in the shard, over every statement of it.
    for (const i of ids) {
      const len = Math.min(MAX_DOC_LEN, statements[i]!.tokens.length);
      const tf = new Map<string, number>();
      for (const t of postedTerms(statements[i]!)) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, count] of tf) {
        const impact = bm25TermScore(bm25Idf(N, df.get(t)!), Math.min(MAX_TF, count), len, avgLen);
        let perShard = impacts.get(t);
        if (!perShard) impacts.set(t, (perShard = new Map()));
        if (impact > (perShard.get(shardIndex) ?? 0)) perShard.set(shardIndex, impact);
      }
    }
    const shardSources = sources.filter((s) => s.shard === shardIndex);
    const distinct = (f: (s: CatalogSource) => string | null) =>
      [...new Set(shardSources.map(f).filter((v): v is string => !!v))].sort();
    shardFiles.push({
      bytes: encoded.bytes,
      vectors: encoded.vectors,
      info: {
        id: shardId,
        file: `shards/${shardId}.bin`,
        statement_count: ids.length,
        tickers: distinct((s) => s.meta.sec_ticker),
        fiscal_years: distinct((s) => s.meta.sec_fiscal_year),
        form_types: distinct((s) => s.meta.sec_form_type),
        graph_file: null,
      },
    });
  });

  const graphFiles: { file: string; bytes: Uint8Array }[] = [];
  let graphBuilder: GraphBuilder | null = null;
  for (const s of shardFiles) {
    if (!s.info.statement_count || s.info.statement_count < graphMinStatements) continue;
    graphBuilder ??= await openGraphBuilder();
    s.info.graph_file = `graphs/${s.info.id}.bin`;
    const bytes = graphBuilder.build(s.info.id, s.vectors, model.dim);
    s.info.graph_bytes = bytes.byteLength;
    graphFiles.push({ file: s.info.graph_file, bytes });
  }

  const contentId = (bytes: Uint8Array) => contentIdOf(sha256(seal(bytes)));
  const shards: ShardInfo[] = shardFiles.map(({ info, bytes }) => {
    const graph = graphFiles.find((g) => g.file === info.graph_file);
    const id = contentId(bytes); // seals the shard, which its head includes
    return {
      ...info,
      content_id: id,
      ...(graph ? { graph_content_id: contentId(graph.bytes) } : {}),
      ...shardHead(bytes),
    };
  });

  const lexTerms = [...impacts.keys()].sort();
  let maxImpact = 0;
  for (const m of impacts.values()) for (const v of m.values()) maxImpact = Math.max(maxImpact, v);
  const impactScale = maxImpact / 255 || 1;
  const shardOffsets = new Uint32Array(lexTerms.length + 1);
  const shardIds: number[] = [];
  const shardImpact: number[] = [];
  lexTerms.forEach((t, i) => {
    shardOffsets[i] = shardIds.length;
    for (const [shard, impact] of [...impacts.get(t)!.entries()].sort((a, b) => a[0] - b[0])) {
      shardIds.push(shard);
      shardImpact.push(Math.max(1, Math.min(255, Math.ceil(impact / impactScale))));
    }
  });
  shardOffsets[lexTerms.length] = shardIds.length;
  const lexicon = {
    terms: lexTerms,
    df: Uint32Array.from(lexTerms.map((t) => df.get(t)!)),
    shardOffsets,
    shardIds: Uint16Array.from(shardIds),
    shardImpact: Uint8Array.from(shardImpact),
    impactScale,
    totalStatements: N,
    avgLen,
  };

  const statementsPerSource = new Uint32Array(sources.length);
  for (const s of statements) statementsPerSource[s.source]!++;
  const companies = new Map<string, { ticker: string; company: string; aliases: string[] }>();
  for (const f of filings)
    if (!companies.has(f.doc.ticker))
      companies.set(f.doc.ticker, {
        ticker: f.doc.ticker,
        company: f.doc.company,
        aliases: companyAliases(f.doc.company, f.doc.ticker),
      });
  const textsByTicker = new Map<string, string[]>();
  for (const s of statements) {
    const list = textsByTicker.get(s.ticker);
    if (list) list.push(s.text);
    else textsByTicker.set(s.ticker, [s.text]);
  }
  const catalog = buildCatalog({
    docs: filings.map((f) => f.doc),
    pages: filings.reduce((a, f) => a + f.pages.length, 0),
    sources,
    statementsPerSource,
    statements: N,
    shards,
    dim: model.dim,
    avgLen,
    entities: collector.finish([...companies.values()], (ticker) => textsByTicker.get(ticker) ?? []),
  });

  const files = new Map<string, Uint8Array>([
    ...shardFiles.map((s) => [s.info.file, s.bytes] as [string, Uint8Array]),
    ...graphFiles.map((g) => [g.file, g.bytes] as [string, Uint8Array]),
    ...partitionedArtifacts(catalog, statementsPerSource, lexicon, model),
  ]);
  const refs: ArtifactRef[] = [];
  for (const [file, bytes] of files) {
    const hash = sha256(seal(bytes));
    refs.push({
      file,
      bytes: bytes.byteLength,
      sha256: hash,
      ...(storedByContent(file) ? { content_id: contentIdOf(hash) } : {}),
    });
  }
  const { version, manifest, fileList } = versionOf(refs, N, embeddingModel);
  const dir = join(options.outDir, DOMAIN, version);
  for (const [file, bytes] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), bytes);
  }
  writeFileSync(join(dir, FILE_LIST), fileList);
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeBuildState(
    dir,
    filings.map((f) => ({ doc: f.doc, hash: filingHash(f), pageCount: f.pages.length })),
  );

  const byStatus: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  for (const s of statements) {
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
  }
  const entityCounts: Record<string, number> = { segment: 0, product: 0, counterparty: 0 };
  for (const c of catalog.companies) for (const e of c.entities ?? []) entityCounts[e.kind]!++;
  return {
    version,
    dir,
    manifest,
    summary: {
      filings: filings.length,
      pages: filings.reduce((a, f) => a + f.pages.length, 0),
      sources: sources.length,
      statements: N,
      byStatus,
      byKind,
      shards: shardFiles.length,
      mergedSentenceGroups: consensus.mergedSentenceGroups,
      mergedTableRows: consensus.mergedTableRows,
      disagreeingRows: consensus.disagreeingRows,
      edges,
      largestShardBytes: Math.max(0, ...shardFiles.map((f) => f.bytes.byteLength)),
      graphs: graphFiles.length,
      reusedIssuers: 0,
      reusedBytes: 0,
      embeddingModel,
      embeddingSampleFilings: sample.size,
      graphBytes: graphFiles.reduce((a, g) => a + g.bytes.byteLength, 0),
      graphMs: 0,
      embeddingMs: 0,
      entities: entityCounts,
      bytes: manifest.totals.bytes,
    },
  };
}
