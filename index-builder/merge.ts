import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { encodeDirectory } from '../index-format/codec';
import type { Directory, DirectoryCompany } from '../index-format/types';
import { FILTER_FIELDS, type FilterField } from '../index-format/fields';
import { ANALYZER_VERSION } from '../index-format/tokenize';
import { withoutSharedAliases } from './entities/aliases';
import {
  type BuildOptions,
  type BuildResult,
  DOMAIN,
  SCHEMA_VERSION,
  ShardImpacts,
  TermStats,
  VersionWriter,
  writeBuildState,
} from './build';
import { impactsOf, type TermBounds } from './impact-bounds';
import { DIRECTORY_FILE, termBlocks } from './shards/partitioned';
import type { FrozenModel, IssuerSummary, PartitionCounts, PartitionSummary } from './pipeline';

/** Where a partition's pieces are: objects (shards, graphs, issuer tables) and term bounds. */
export const partitionLayout = (dir: string) => ({
  objects: join(dir, 'objects'),
  bounds: join(dir, 'bounds'),
  spill: join(dir, '.spill'),
});

/** A partition's summary and the folder that holds its objects and term bounds (partitionLayout). */
export interface MergeInput {
  dir: string;
  summary: PartitionSummary;
}

/** An issuer placed in the corpus: its partition, and its first shard and source numbers. */
interface PlacedIssuer {
  part: MergeInput;
  issuer: IssuerSummary;
  firstShard: number;
  firstSource: number;
}

/** Issuers in order of their first filing (as one build numbers them), with their shard and source ranges. */
function placeIssuers(parts: readonly MergeInput[]): PlacedIssuer[] {
  const all = parts.flatMap((part) => part.summary.issuers.map((issuer) => ({ part, issuer })));
  all.sort((a, b) => (a.issuer.firstDocId < b.issuer.firstDocId ? -1 : 1));
  let shard = 0;
  let source = 0;
  return all.map(({ part, issuer }) => {
    const placed = { part, issuer, firstShard: shard, firstSource: source };
    shard += issuer.shards.length;
    source += issuer.company.sources.count;
    return placed;
  });
}

/** Directory filter values (first-seen order over the corpus) and bounds, from the issuers' in corpus order. */
function corpusFilters(issuers: readonly PlacedIssuer[]): Pick<Directory, 'field_values' | 'numeric_bounds'> {
  const fieldValues = Object.fromEntries(FILTER_FIELDS.map((f) => [f, {} as Record<string, number>])) as Record<
    FilterField,
    Record<string, number>
  >;
  const years: number[] = [];
  const dates: number[] = [];
  for (const { issuer } of issuers) {
    for (const [field, values] of Object.entries(issuer.fieldValues)) {
      const into = fieldValues[field as FilterField];
      for (const [v, n] of values) into[v] = (into[v] ?? 0) + n;
    }
    if (issuer.years) years.push(...issuer.years);
    if (issuer.dates) dates.push(...issuer.dates);
  }
  return {
    field_values: fieldValues,
    numeric_bounds: {
      ...(years.length ? { sec_fiscal_year: { min: Math.min(...years), max: Math.max(...years) } } : {}),
      ...(dates.length ? { report_filing_date: { min: Math.min(...dates), max: Math.max(...dates) } } : {}),
    },
  };
}

/** The build summary's sums over the partitions. */
function sumCounts(parts: readonly MergeInput[]): PartitionCounts {
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  };
  const total = structuredClone(parts[0]!.summary.counts);
  for (const { summary } of parts.slice(1)) {
    const c = summary.counts;
    add(total.byStatus, c.byStatus);
    add(total.byKind, c.byKind);
    add(total.edges, c.edges);
    add(total.entities, c.entities);
    total.merged.sentences += c.merged.sentences;
    total.merged.rows += c.merged.rows;
    total.merged.disagreeing += c.merged.disagreeing;
    total.largestShardBytes = Math.max(total.largestShardBytes, c.largestShardBytes);
    total.graphBytes += c.graphBytes;
    total.graphMs += c.graphMs;
    total.reusedIssuers += c.reusedIssuers;
    total.reusedBytes += c.reusedBytes;
  }
  return total;
}

/**
 * The corpus-wide tables from partition summaries, and the version: corpus statistics summed, each shard's impact
 * bounds computed from its term bounds under them (the lexicon, split into term blocks), the directory with every
 * issuer placed, the partitions' objects linked in, the manifest. Nothing here reads a statement: its cost grows with
 * issuers, shards and vocabulary. One build is this over one partition holding every issuer (pipeline.ts), so a
 * partitioned build gives the same bytes.
 */
export function mergeSummaries(
  parts: readonly MergeInput[],
  model: Pick<FrozenModel, 'id' | 'model' | 'sampleFilings' | 'ms'>,
  options: Pick<BuildOptions, 'outDir' | 'onStage'>,
): BuildResult {
  const stage = options.onStage ?? (() => {});
  const stats = new TermStats();
  for (const { summary } of parts) stats.add(summary.stats);
  const issuers = placeIssuers(parts);
  const writer = new VersionWriter(options.outDir);
  const impactsDir = join(options.outDir, DOMAIN, `.impacts-${process.pid}`);
  try {
    // The lexicon: every shard's impact bounds under the corpus statistics, shard by shard in corpus order.
    const impacts = new ShardImpacts(impactsDir);
    const bm25 = { df: stats.df, statements: stats.statements, avgLen: stats.avgLen };
    const shardFiles: string[] = [];
    const graphFiles: string[] = [];
    let shard = 0;
    issuers.forEach(({ part, issuer }, k) => {
      stage('lexicon', k + 1, issuers.length);
      for (const s of issuer.shards) {
        const bounds = deserialize(readFileSync(join(partitionLayout(part.dir).bounds, s.bounds))) as TermBounds;
        impacts.addShard(shard++, bounds.terms, impactsOf(bounds, bm25));
        shardFiles.push(s.file);
        if (s.graph) graphFiles.push(s.graph);
      }
    });
    const lexicon = impacts.lexicon(stats.df, stats.statements, stats.avgLen);
    stage('catalog', 0, 1);
    const blocks = termBlocks(lexicon, model.model);
    for (const [file, bytes] of blocks.files) writer.write(file, bytes);
    const companies = directoryCompanies(issuers);
    const filings = parts.flatMap(({ summary }) => summary.filings);
    const pages = filings.reduce((a, f) => a + f.pageCount, 0);
    const sources = parts.reduce((a, { summary }) => a + summary.sources, 0);
    const directory: Directory = {
      domain: DOMAIN,
      schema_version: SCHEMA_VERSION,
      analyzer_version: ANALYZER_VERSION,
      built_from: { filings: filings.length, pages },
      stats: { statements: stats.statements, sources, avg_statement_terms: stats.avgLen },
      companies,
      ...corpusFilters(issuers),
      embedding_dim: model.model.dim,
      shard_count: shard,
      terms: {
        blocks: blocks.blocks,
        total_statements: lexicon.totalStatements,
        avg_len: lexicon.avgLen,
        impact_scale: lexicon.impactScale,
      },
    };
    writer.write(DIRECTORY_FILE, encodeDirectory(directory));
    for (const { dir, summary } of parts)
      for (const ref of summary.objects) writer.adopt(ref, join(partitionLayout(dir).objects, ref.file));
    stage('catalog', 1, 1);
    const order = [...shardFiles, ...graphFiles, ...blocks.files.map(([f]) => f)];
    order.push(...companies.map((c) => c.table), DIRECTORY_FILE);
    const { version, dir, manifest } = writer.finish(order, stats.statements, model.id);
    writeBuildState(dir, filings);
    const counts = sumCounts(parts);
    return {
      version,
      dir,
      manifest,
      summary: {
        filings: filings.length,
        pages,
        sources,
        statements: stats.statements,
        byStatus: counts.byStatus,
        byKind: counts.byKind,
        shards: shard,
        mergedSentenceGroups: counts.merged.sentences,
        mergedTableRows: counts.merged.rows,
        disagreeingRows: counts.merged.disagreeing,
        edges: counts.edges,
        largestShardBytes: counts.largestShardBytes,
        graphs: graphFiles.length,
        graphBytes: counts.graphBytes,
        graphMs: counts.graphMs,
        entities: counts.entities,
        bytes: manifest.totals.bytes,
        embeddingModel: model.id,
        embeddingSampleFilings: model.sampleFilings,
        embeddingMs: model.ms,
        reusedIssuers: counts.reusedIssuers,
        reusedBytes: counts.reusedBytes,
      },
    };
  } finally {
    rmSync(writer.staging, { recursive: true, force: true });
    rmSync(impactsDir, { recursive: true, force: true });
  }
}

/** The directory's companies, by ticker: each placed at its shard and source numbers, shared aliases dropped. */
function directoryCompanies(issuers: readonly PlacedIssuer[]): DirectoryCompany[] {
  const rows = issuers.map(({ issuer, firstShard, firstSource }) => ({
    ...issuer.company,
    shards: { ...issuer.company.shards, first: firstShard },
    sources: { ...issuer.company.sources, first: firstSource },
  }));
  return withoutSharedAliases(rows.sort((a, b) => (a.ticker < b.ticker ? -1 : 1)));
}
