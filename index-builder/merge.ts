import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { encodeDirectory } from '../index-format/codec';
import type { Directory, DirectoryCompany } from '../index-format/types';
import { FILTER_FIELDS, type FilterField } from '../index-format/fields';
import { ANALYZER_VERSION } from '../index-format/tokenize';
import { withoutSharedAliases } from './entities/aliases';
import { type BuildOptions, type BuildResult, DOMAIN, SCHEMA_VERSION, VersionWriter, writeBuildState } from './build';
import { type LexiconPart, mergeLexicon } from './shards/lexicon-merge';
import { DIRECTORY_FILE } from './shards/partitioned';
import {
  type FrozenModel,
  type IssuerSummary,
  type PartitionCounts,
  type PartitionSummary,
  releaseMemory,
} from './pipeline';

/**
 * The merge job's Node options (build-index.yml's merge job, bench:scale's merges): V8's young generation capped at
 * 16 MB semi-spaces. The merge's garbage is mostly node:zlib's objects, seven per term block (each deflate builds a
 * stream); they outlive a scavenge, and V8 doubles the young generation once enough have: at 8x (4,912 blocks) it
 * did, at 1x (2,418) not, about 35 MB of peak RSS. The cap keeps what 1x gets at any scale.
 */
export const MERGE_NODE_OPTIONS = '--max-semi-space-size=16';

/** Where a partition's pieces are: objects (shards, graphs, issuer tables) and term bounds (term-bounds-file.ts). */
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

/** Each partition's term bounds folder and the corpus number of each of its shards (its issuers' in its order). */
function lexiconParts(parts: readonly MergeInput[], issuers: readonly PlacedIssuer[]): LexiconPart[] {
  const placed = new Map(issuers.map((p) => [p.issuer, p.firstShard]));
  return parts.map((part) => {
    const numbers: number[] = [];
    for (const issuer of part.summary.issuers) {
      const first = placed.get(issuer)!;
      for (let k = 0; k < issuer.shards.length; k++) numbers.push(first + k);
    }
    return { dir: partitionLayout(part.dir).bounds, shardNumbers: Uint32Array.from(numbers) };
  });
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
 * The corpus-wide tables from partition summaries, and the version: corpus statistics summed, the term blocks
 * streamed from the partitions' term bounds (shards/lexicon-merge.ts), the directory with every issuer placed, the
 * partitions' objects linked in, the manifest. Nothing here reads a statement: its cost grows with issuers, shards
 * and vocabulary. One build is this over one partition holding every issuer (pipeline.ts), so a
 * partitioned build gives the same bytes.
 */
export function mergeSummaries(
  parts: readonly MergeInput[],
  model: Pick<FrozenModel, 'id' | 'model' | 'sampleFilings' | 'ms'>,
  options: Pick<BuildOptions, 'outDir' | 'onStage'> & {
    /** The partitions' jobs uploaded their objects (index:publish -- --partial): the version folder may lack them. */
    objectsPublished?: boolean;
  },
): BuildResult {
  const stage = options.onStage ?? (() => {});
  const statements = parts.reduce((a, { summary }) => a + summary.stats.statements, 0);
  const totalLen = parts.reduce((a, { summary }) => a + summary.stats.totalLen, 0);
  const avgLen = statements ? totalLen / statements : 0;
  const issuers = placeIssuers(parts);
  const writer = new VersionWriter(options.outDir);
  try {
    const shardFiles: string[] = [];
    const graphFiles: string[] = [];
    for (const { issuer } of issuers) {
      for (const s of issuer.shards) {
        shardFiles.push(s.file);
        if (s.graph) graphFiles.push(s.graph);
      }
    }
    const shardCount = shardFiles.length;
    if (shardCount > 0xffff) throw new Error(`${shardCount} shards: term blocks number shards with 16 bits`);
    const blockFiles: string[] = [];
    const lexicon = mergeLexicon(
      lexiconParts(parts, issuers),
      { statements, avgLen },
      model.model,
      (file, bytes) => {
        writer.write(file, bytes);
        blockFiles.push(file);
      },
      (name, step, of) => {
        // The passes' garbage, collected before encoding the blocks (whose zlib streams then grow the heap less).
        if (name === 'blocks' && step === 0) releaseMemory();
        stage(name, step, of);
      },
    );
    releaseMemory(); // the lexicon's blocks and buffers, before the catalog adds its own
    stage('catalog', 0, 1);
    const companies = directoryCompanies(issuers);
    const filings = parts.flatMap(({ summary }) => summary.filings);
    const pages = filings.reduce((a, f) => a + f.pageCount, 0);
    const sources = parts.reduce((a, { summary }) => a + summary.sources, 0);
    const directory: Directory = {
      domain: DOMAIN,
      schema_version: SCHEMA_VERSION,
      analyzer_version: ANALYZER_VERSION,
      built_from: { filings: filings.length, pages },
      stats: { statements, sources, avg_statement_terms: avgLen },
      companies,
      ...corpusFilters(issuers),
      embedding_dim: model.model.dim,
      shard_count: shardCount,
      terms: {
        blocks: lexicon.blocks,
        total_statements: statements,
        avg_len: avgLen,
        impact_scale: lexicon.impactScale,
      },
    };
    writer.write(DIRECTORY_FILE, encodeDirectory(directory));
    for (const { dir, summary } of parts) {
      const objects = partitionLayout(dir).objects;
      for (const ref of summary.objects) {
        const from = join(objects, ref.file);
        if (options.objectsPublished && !existsSync(from)) writer.adoptStored(ref);
        else writer.adopt(ref, from);
      }
    }
    stage('catalog', 1, 1);
    const order = [...shardFiles, ...graphFiles, ...blockFiles];
    order.push(...companies.map((c) => c.table), DIRECTORY_FILE);
    const { version, dir, manifest } = writer.finish(order, statements, model.id);
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
        statements,
        byStatus: counts.byStatus,
        byKind: counts.byKind,
        shards: shardCount,
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
