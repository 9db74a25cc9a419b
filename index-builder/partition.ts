/**
 * A partitioned build, for spreading the whole-index build over a batch job runner (a CI matrix, a cluster's job
 * queue): `--partition i/n` segments only the filings whose issuer falls in partition i (the CPU-heavy pass) and
 * writes a partial output; `--merge <partial dirs...>` sums their statistics and runs the remaining passes, giving
 * byte for byte the index a single build of the whole corpus gives. An issuer's filings always land in one
 * partition (its consensus and shards need them together, in the merge).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { ANALYZER_VERSION } from '../index-format/tokenize';
import {
  assembleIndex,
  EXTRACTION_VERSION,
  sameExtraction,
  segmentCorpus,
  TermStats,
  type BuildOptions,
  type BuildResult,
  type FilingEntry,
} from './build';
import { EmbeddingLearner } from './vectors/embeddings';
import type { Filing } from './segment/read-corpus';

const PARTIAL_FORMAT = 'filing-evidence-partial';
const PARTIAL_FILE = 'partial.bin';

export interface PartitionSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** "2/4" -> { index: 2, count: 4 }. */
export function parsePartition(text: string): PartitionSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new Error(`--partition takes i/n with 1 <= i <= n, got "${text}"`);
  return { index, count };
}

/**
 * The partition (1-based) an issuer's filings go to: a hash of the ticker, so it is stable across runs and machines.
 */
export function partitionOf(ticker: string, count: number): number {
  return 1 + (createHash('sha256').update(ticker).digest().readUInt32BE(0) % count);
}

interface PartialManifest {
  format: typeof PARTIAL_FORMAT;
  analyzer_version: number;
  /** EXTRACTION_VERSION of the builder that segmented it; absent before version 2. */
  extraction_version?: number;
  partition: PartitionSpec;
  entries: FilingEntry[];
  stats: ReturnType<TermStats['snapshot']>;
  counts: ReturnType<EmbeddingLearner['countsSnapshot']>;
}

/** Segments the partition's filings into `outDir` (records and a partial manifest); returns how many filings. */
export async function buildPartition(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  spec: PartitionSpec,
  outDir: string,
  options: Pick<BuildOptions, 'onStage'> = {},
): Promise<{ filings: number; dir: string }> {
  const dir = resolve(outDir);
  rmSync(join(dir, 'records'), { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const corpus = await segmentCorpus(filings, join(dir, 'records'), {
    ...options,
    include: (doc) => partitionOf(doc.ticker, spec.count) === spec.index,
  });
  const manifest: PartialManifest = {
    format: PARTIAL_FORMAT,
    analyzer_version: ANALYZER_VERSION,
    extraction_version: EXTRACTION_VERSION,
    partition: spec,
    // Record paths relative to the partial, so a job runner can move the directory (an artifact download).
    entries: corpus.entries.map((e) => ({ ...e, file: relative(dir, e.file) })),
    stats: corpus.stats.snapshot(),
    counts: corpus.learner.countsSnapshot(),
  };
  writeFileSync(join(dir, PARTIAL_FILE), serialize(manifest));
  return { filings: corpus.entries.length, dir };
}

/** Merges the partial outputs of every partition of one split (all of 1..n, once each) into a version. */
export async function mergePartitions(dirs: readonly string[], options: BuildOptions): Promise<BuildResult> {
  if (!dirs.length) throw new Error('--merge needs the partial output directories');
  const partials = dirs.map((d) => {
    const file = join(resolve(d), PARTIAL_FILE);
    if (!existsSync(file))
      throw new Error(
        `${d} is not a partial build output (no ${PARTIAL_FILE}): run index:build -- --partition i/n --out ${d}`,
      );
    const p = deserialize(readFileSync(file)) as PartialManifest;
    if (p.format !== PARTIAL_FORMAT) throw new Error(`${file}: not a partial build manifest`);
    if (!sameExtraction(p)) {
      throw new Error(
        `${d} was segmented by analyzer version ${p.analyzer_version}, extraction version ` +
          `${p.extraction_version ?? 1}; this builder is ${ANALYZER_VERSION}, ${EXTRACTION_VERSION}: rebuild ` +
          `the partition`,
      );
    }
    return { dir: resolve(d), p };
  });
  const count = partials[0]!.p.partition.count;
  const seen = partials.map(({ p }) => p.partition.index).sort((a, b) => a - b);
  if (
    partials.some(({ p }) => p.partition.count !== count) ||
    seen.join(',') !== Array.from({ length: count }, (_, i) => i + 1).join(',')
  ) {
    throw new Error(
      `--merge needs every partition of one split exactly once (1..${count} of ${count}); got ` +
        `${partials.map(({ p }) => `${p.partition.index}/${p.partition.count}`).join(', ')}`,
    );
  }
  const stats = new TermStats();
  const learner = new EmbeddingLearner(options.embedding);
  const entries: FilingEntry[] = [];
  for (const { dir, p } of partials) {
    stats.add(p.stats);
    learner.addCounts(p.counts);
    entries.push(...p.entries.map((e) => ({ ...e, file: join(dir, e.file) })));
  }
  return assembleIndex({ entries, stats, learner }, options);
}
