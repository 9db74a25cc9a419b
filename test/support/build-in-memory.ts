import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCatalog, encodeEmbedding, encodeLexicon, encodeShard, MANIFEST_FORMAT } from '../../src/format/codec';
import { FORMAT_VERSION } from '../../src/format/container';
import type { ArtifactRef, CatalogSource, Manifest, ShardInfo } from '../../src/format/types';
import { embedTokens, quantizeUnit } from '../../src/text/embed';
import { ANALYZER_VERSION, tokenize } from '../../src/text/tokenize';
import { bm25Idf, bm25TermScore } from '../../src/search/bm25';
import { companyAliases } from '../../index-builder/aliases';
import { buildCatalog, DOMAIN, sha256, sourceId, withMetricTerms, type BuildOptions, type BuildResult, type Statement } from '../../index-builder/build';
import { learnEmbeddings } from '../../index-builder/embeddings';
import { checkGraphMinStatements, DEFAULT_GRAPH_MIN_STATEMENTS, openGraphBuilder, type GraphBuilder } from '../../index-builder/graphs';
import type { Filing } from '../../index-builder/read-corpus';
import { segmentFiling } from '../../index-builder/segment';
import { buildConsensus } from '../../index-builder/consensus';
import { buildShardEdges } from '../../index-builder/evidence-graph';
import { EntityCollector } from '../../index-builder/entities/collect';
import { extractStatements } from '../../index-builder/statements';

/*
 * The builder as it was before it streamed: every filing, statement and statistic in memory at once, consensus and
 * word vectors over the whole corpus in one go. Kept as the slow twin of index-builder/build.ts: the streaming build
 * must give byte-identical artifacts (test/unit/build-streaming.test.ts).
 */

/**
 * The whole offline pipeline: filings -> items -> statements -> embeddings -> shards, lexicon, catalog ->
 * a content-addressed version directory with a manifest of checksums. No clock or randomness beyond fixed seeds
 * enters the output, so identical input gives byte-identical artifacts.
 */
export async function buildIndexInMemory(filings: readonly Filing[], options: BuildOptions): Promise<BuildResult> {
  const stage = options.onStage ?? (() => {});
  const graphMinStatements = checkGraphMinStatements(options.graphMinStatements ?? DEFAULT_GRAPH_MIN_STATEMENTS);
  const sources: CatalogSource[] = [];
  const statements: Omit<Statement, 'localSource'>[] = [];
  const shardKeys: string[] = [];
  const shardByKey = new Map<string, number>();

  const entityCollector = new EntityCollector(); // segments, products, counterparties named by the sentences
  filings.forEach((filing, fi) => {
    stage('segment', fi + 1, filings.length);
    const d = filing.doc;
    const shardKey = `${d.ticker}-FY${d.fiscal_year}`;
    if (!shardByKey.has(shardKey)) {
      shardByKey.set(shardKey, shardKeys.length);
      shardKeys.push(shardKey);
    }
    const seenIds = new Map<string, number>();
    // Start of each page in the filing's text joined by '\n': statement lengths are measured there.
    const pageStarts: number[] = [];
    let at = 0;
    for (const p of filing.pages) {
      pageStarts.push(at);
      at += p.length + 1;
    }
    for (const section of segmentFiling(d.form_type, filing.pages)) {
      let id = sourceId(d, section.itemCode);
      // Two sections with one tag in one filing (a restarted numbering) stay apart with a suffix.
      const dup = seenIds.get(id) ?? 0;
      seenIds.set(id, dup + 1);
      if (dup) id = `${id}-${dup + 1}`;
      const raw = extractStatements(section, d.form_type);
      if (!raw.length) continue;
      const sourceIndex = sources.length;
      sources.push({
        id,
        type: 'sec_filing_item',
        date: d.filing_date,
        doc_id: d.doc_id,
        company: d.company,
        period_of_report: d.period_of_report,
        fiscal_period: d.fiscal_period,
        item_title: section.title,
        page_start: section.lines[0]!.page,
        page_end: section.lines[section.lines.length - 1]!.page,
        shard: shardByKey.get(shardKey)!,
        meta: {
          report_filing_date: d.filing_date,
          sec_fiscal_year: `FY-${d.fiscal_year}`,
          sec_fiscal_year_end: d.fiscal_year_end,
          sec_form_type: d.form_type,
          sec_gics_sector: d.gics_sector,
          sec_gics_sub_industry: d.gics_sub_industry,
          sec_item_tag: section.itemTag,
          sec_ticker: d.ticker,
        },
      });
      const entityRef = { id, filing: fi, period: d.period_of_report, label: d.form_type === '10-Q' ? `FY${d.fiscal_year} ${d.fiscal_period} 10-Q` : `FY${d.fiscal_year} ${d.form_type}` };
      for (const s of raw) {
        if (s.kind === 'sentence') entityCollector.observeSentence(d.ticker, s.text, entityRef);
        else if (s.fact) entityCollector.observeTableRow(d.ticker, s.fact.label, entityRef);
        statements.push({
          text: s.text,
          page: s.page,
          offset: s.offset,
          length: Math.max(0, pageStarts[s.endPage]! + s.endOffset - (pageStarts[s.page]! + s.offset)),
          kind: s.kind,
          status: s.status,
          source: sourceIndex,
          filing: fi,
          ticker: d.ticker,
          itemTag: section.itemTag,
          metrics: s.metrics,
          ...(s.fact ? { fact: s.fact } : {}),
          tokens: withMetricTerms(tokenize(s.text), s.metrics),
        });
      }
    }
  });

  stage('consensus', 0, 1);
  const consensus = buildConsensus(statements);
  stage('consensus', 1, 1);
  const edgeCounts: Record<string, number> = { explains: 0, outlook: 0, period: 0 };

  stage('embed', 0, 1);
  const model = learnEmbeddings(statements.map((s) => s.tokens), options.embedding);
  stage('embed', 1, 1);

  // Global statistics: document frequency and average length over every statement.
  const df = new Map<string, number>();
  let totalLen = 0;
  for (const s of statements) {
    totalLen += s.tokens.length;
    for (const t of new Set(s.tokens)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const N = statements.length;
  const avgLen = N ? totalLen / N : 0;

  // Shards: one per issuer and fiscal year, so company and period filters select shards from the catalog alone.
  const members: number[][] = shardKeys.map(() => []);
  statements.forEach((s, i) => members[sources[s.source]!.shard]!.push(i));
  const shardFiles: { info: ShardInfo; bytes: Uint8Array }[] = [];
  // Vectors of the shards that get a graph, kept until the graph stage (the others are dropped with the loop).
  const graphInputs: { info: ShardInfo; vectors: Int8Array }[] = [];
  const impacts = new Map<string, Map<number, number>>(); // term -> shard -> max BM25 contribution
  members.forEach((ids, shardIndex) => {
    stage('shards', shardIndex + 1, members.length);
    const shardId = shardKeys[shardIndex]!;
    const termPostings = new Map<string, { docs: number[]; tfs: number[] }>();
    const docLen = new Uint16Array(ids.length);
    const vectors = new Int8Array(ids.length * model.dim);
    ids.forEach((statementIndex, local) => {
      const s = statements[statementIndex]!;
      docLen[local] = Math.min(65535, s.tokens.length);
      const tf = new Map<string, number>();
      for (const t of s.tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let p = termPostings.get(t);
        if (!p) termPostings.set(t, (p = { docs: [], tfs: [] }));
        p.docs.push(local);
        p.tfs.push(Math.min(255, n));
        const impact = bm25TermScore(bm25Idf(N, df.get(t)!), n, s.tokens.length, avgLen);
        let perShard = impacts.get(t);
        if (!perShard) impacts.set(t, (perShard = new Map()));
        if (impact > (perShard.get(shardIndex) ?? 0)) perShard.set(shardIndex, impact);
      }
      quantizeUnit(embedTokens(model, s.tokens), vectors, local * model.dim);
    });
    const terms = [...termPostings.keys()].sort();
    const postOffsets = new Uint32Array(terms.length + 1);
    let total = 0;
    terms.forEach((t, i) => {
      postOffsets[i] = total;
      total += termPostings.get(t)!.docs.length;
    });
    postOffsets[terms.length] = total;
    const postDocs = new Uint32Array(total);
    const postTfs = new Uint8Array(total);
    terms.forEach((t, i) => {
      const p = termPostings.get(t)!;
      postDocs.set(p.docs, postOffsets[i]);
      postTfs.set(p.tfs, postOffsets[i]);
    });
    const file = `shards/${shardId}.bin`;
    const shardStatements = ids.map((i) => statements[i]!);
    const edges = buildShardEdges(shardStatements);
    for (const list of edges) for (const e of list) edgeCounts[e.kind]!++;
    const bytes = encodeShard({
      id: shardId,
      texts: shardStatements.map((s) => s.text),
      source: shardStatements.map((s) => s.source),
      page: shardStatements.map((s) => s.page),
      kind: shardStatements.map((s) => s.kind),
      status: shardStatements.map((s) => s.status),
      offset: Uint32Array.from(shardStatements, (s) => s.offset),
      length: Uint32Array.from(shardStatements, (s) => s.length),
      metric: Uint8Array.from(shardStatements, (s) => s.metrics[0] ?? 0),
      agree: ids.map((i) => consensus.agree.get(i) ?? []),
      disagree: ids.map((i) => consensus.disagree.get(i) ?? []),
      edges,
      terms,
      postOffsets,
      postDocs,
      postTfs,
      termDf: Uint32Array.from(terms.map((t) => df.get(t)!)),
      totalStatements: N,
      avgLen,
      docLen,
      dim: model.dim,
      vectors,
    });
    const shardSources = sources.filter((s) => s.shard === shardIndex);
    const distinct = (f: (s: CatalogSource) => string | null) =>
      [...new Set(shardSources.map(f).filter((v): v is string => !!v))].sort();
    const info: ShardInfo = {
      id: shardId,
      file,
      statement_count: ids.length,
      tickers: distinct((s) => s.meta.sec_ticker),
      fiscal_years: distinct((s) => s.meta.sec_fiscal_year),
      form_types: distinct((s) => s.meta.sec_form_type),
      graph_file: null, // set by the graph stage below
    };
    shardFiles.push({ bytes, info });
    if (ids.length > 0 && ids.length >= graphMinStatements) graphInputs.push({ info, vectors });
  });

  // HNSW graphs for the large shards (shard order, so the output does not depend on timing). The wasm is only
  // loaded when some shard needs a graph; a missing generated/ build then fails here with "run npm install".
  const graphFiles: { file: string; bytes: Uint8Array }[] = [];
  const graphStarted = performance.now();
  let graphBuilder: GraphBuilder | null = null;
  for (const [i, input] of graphInputs.entries()) {
    stage('graphs', i, graphInputs.length);
    graphBuilder ??= await openGraphBuilder();
    const file = `graphs/${input.info.id}.bin`;
    graphFiles.push({ file, bytes: graphBuilder.build(input.info.id, input.vectors, model.dim) });
    input.info.graph_file = file;
    stage('graphs', i + 1, graphInputs.length);
  }
  const graphMs = performance.now() - graphStarted;
  graphInputs.length = 0;

  stage('lexicon', 0, 1);
  const lexTerms = [...impacts.keys()].sort();
  let maxImpact = 0;
  for (const m of impacts.values()) for (const v of m.values()) maxImpact = Math.max(maxImpact, v);
  const impactScale = maxImpact / 255 || 1;
  const shardOffsets = new Uint32Array(lexTerms.length + 1);
  const shardIdsArr: number[] = [];
  const shardImpactArr: number[] = [];
  lexTerms.forEach((t, i) => {
    shardOffsets[i] = shardIdsArr.length;
    for (const [shard, impact] of [...impacts.get(t)!.entries()].sort((a, b) => a[0] - b[0])) {
      shardIdsArr.push(shard);
      shardImpactArr.push(Math.max(1, Math.min(255, Math.ceil(impact / impactScale))));
    }
  });
  shardOffsets[lexTerms.length] = shardIdsArr.length;
  const lexiconBytes = encodeLexicon({
    terms: lexTerms,
    df: Uint32Array.from(lexTerms.map((t) => df.get(t)!)),
    shardOffsets,
    shardIds: Uint16Array.from(shardIdsArr),
    shardImpact: Uint8Array.from(shardImpactArr),
    impactScale,
    totalStatements: N,
    avgLen,
  });
  stage('lexicon', 1, 1);

  const embeddingBytes = encodeEmbedding(model);
  stage('entities', 0, 1);
  const perSource = new Uint32Array(sources.length);
  for (const s of statements) perSource[s.source]!++;
  const companies = new Map<string, { ticker: string; company: string; aliases: string[] }>();
  for (const f of filings) if (!companies.has(f.doc.ticker)) companies.set(f.doc.ticker, { ticker: f.doc.ticker, company: f.doc.company, aliases: companyAliases(f.doc.company, f.doc.ticker) });
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
    statementsPerSource: perSource,
    statements: statements.length,
    shards: shardFiles.map((s) => s.info),
    dim: model.dim,
    avgLen,
    entities: entityCollector.finish([...companies.values()], (ticker) => textsByTicker.get(ticker) ?? []),
  });
  stage('entities', 1, 1);
  const catalogBytes = encodeCatalog(catalog);
  const entityCounts: Record<string, number> = { segment: 0, product: 0, counterparty: 0 };
  for (const c of catalog.companies) for (const e of c.entities ?? []) entityCounts[e.kind]!++;

  // Content-addressed version: the hash of every artifact's hash, so a rebuild of the same input is a no-op.
  const files = new Map<string, Uint8Array>([
    ['catalog.bin', catalogBytes],
    ['lexicon.bin', lexiconBytes],
    ['embedding.bin', embeddingBytes],
    ...shardFiles.map((s) => [s.info.file, s.bytes] as [string, Uint8Array]),
    ...graphFiles.map((g) => [g.file, g.bytes] as [string, Uint8Array]),
  ]);
  const refs = new Map<string, ArtifactRef>();
  for (const [file, bytes] of files) refs.set(file, { file, bytes: bytes.byteLength, sha256: sha256(bytes) });
  const version = sha256([...refs.values()].map((r) => `${r.file}:${r.sha256}`).join('\n')).slice(0, 16);
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    format_version: FORMAT_VERSION,
    analyzer_version: ANALYZER_VERSION,
    domain: DOMAIN,
    version,
    created_by: 'index-builder',
    catalog: refs.get('catalog.bin')!,
    lexicon: refs.get('lexicon.bin')!,
    embedding: refs.get('embedding.bin')!,
    shards: shardFiles.map((s) => refs.get(s.info.file)!),
    graphs: graphFiles.map((g) => refs.get(g.file)!),
    totals: {
      files: files.size,
      bytes: [...files.values()].reduce((a, b) => a + b.byteLength, 0),
      statements: N,
    },
  };
  const dir = join(options.outDir, DOMAIN, version);
  mkdirSync(join(dir, 'shards'), { recursive: true });
  if (graphFiles.length) mkdirSync(join(dir, 'graphs'), { recursive: true });
  for (const [file, bytes] of files) writeFileSync(join(dir, file), bytes);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(options.outDir, DOMAIN, 'LATEST'), version + '\n');

  const byStatus: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  for (const s of statements) {
    byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
    byKind[s.kind] = (byKind[s.kind] ?? 0) + 1;
  }
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
      edges: edgeCounts,
      largestShardBytes: Math.max(0, ...shardFiles.map((f) => f.bytes.byteLength)),
      graphs: graphFiles.length,
      graphBytes: graphFiles.reduce((a, g) => a + g.bytes.byteLength, 0),
      graphMs,
      entities: entityCounts,
      bytes: manifest.totals.bytes,
    },
  };
}
