/**
 * A partitioned build, for spreading the whole-index build over a batch job runner (a CI matrix,
 * .github/workflows/build-index.yml): a model job learns the word-vector model once from a fixed sample
 * (`--learn-model`); each partition job (`--partition i/n --embedding-model <id>`) does everything that grows with
 * the statements of its issuers (segmentation, consensus, entities, shards and graphs embedded with that frozen
 * model, issuer tables, term bounds); `--merge <partial dirs...>` sums their statistics and writes the corpus-wide
 * tables (term blocks, directory, manifest), giving byte for byte the index a single build with that model gives.
 * An issuer's filings always land in one partition (its consensus, entities and shards need them together).
 * docs/decisions/partitioned-build.md says why the work is split this way.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { ANALYZER_VERSION } from '../index-format/tokenize';
import {
  type BuildOptions,
  type BuildResult,
  DOMAIN,
  EXTRACTION_VERSION,
  sameExtraction,
  segmentCorpus,
} from './build';
import { mergeSummaries, partitionLayout } from './merge';
import { type PartitionMap, type PartitionSpec, partitionMapId, partitionOfIssuer } from './partition-map';
import { POSTINGS_FILE, TERMS_FILE } from './shards/term-bounds-file';
import { DEFAULT_EMBEDDING_OPTIONS } from './vectors/embeddings';
import { embeddingSample, loadModel } from './vectors/model-store';
import { assemblePartition, type FrozenModel, learnModel, type PartitionSummary } from './pipeline';
import type { Filing } from './segment/read-corpus';

const PARTIAL_FORMAT = 'filing-evidence-partial';
const PARTIAL_FILE = 'partial.bin';
/**
 * Bumped when what a partition job writes changes shape: 2, objects and term bounds instead of segmented records;
 * 3, the term bounds term-major (shards/term-bounds-file.ts) and no document frequencies in the summary; 4, the
 * partition map's id.
 */
const PARTIAL_VERSION = 4;

interface PartialManifest {
  format: typeof PARTIAL_FORMAT;
  partial_version: number;
  analyzer_version: number;
  /** EXTRACTION_VERSION of the builder that segmented it. */
  extraction_version?: number;
  partition: PartitionSpec;
  /** The id of the partition map that chose its issuers (partition-map.ts); null: the ticker hash. */
  partition_map: string | null;
  summary: PartitionSummary;
}

/**
 * The model job: the word-vector model learned from the corpus's fixed sample (learnModel), saved under
 * `<outDir>/sp500/models/<id>.bin`. Reads the corpus twice: its doc_ids, which choose the sample, then the
 * sample's filings, which it segments; its cost is bounded by the sample, not the corpus.
 */
export async function learnModelFromCorpus(
  filings: () => AsyncIterable<Filing> | Iterable<Filing>,
  outDir: string,
  options: Pick<BuildOptions, 'embedding' | 'onStage'> = {},
): Promise<FrozenModel> {
  const ids: string[] = [];
  for await (const f of filings()) ids.push(f.doc.doc_id);
  const sample = embeddingSample(ids, options.embedding?.sampleFilings ?? DEFAULT_EMBEDDING_OPTIONS.sampleFilings);
  const spill = join(outDir, DOMAIN, `.model-spill-${process.pid}`);
  rmSync(spill, { recursive: true, force: true });
  try {
    const corpus = await segmentCorpus(filings(), spill, {
      ...options,
      expectedFilings: sample.size,
      include: (doc) => sample.has(doc.doc_id),
    });
    return learnModel(corpus.entries, outDir, options);
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}

/**
 * Builds the partition's issuers into `outDir` (objects, term bounds, a partial manifest); returns how many filings.
 * Its issuers are those `map` gives it, or, without a map, those the ticker hash sends to it.
 */
export async function buildPartition(
  filings: AsyncIterable<Filing> | Iterable<Filing>,
  spec: PartitionSpec,
  outDir: string,
  options: Pick<BuildOptions, 'onStage' | 'graphMinStatements' | 'expectedFilings'> & {
    embeddingModel: NonNullable<BuildOptions['embeddingModel']>;
    map?: PartitionMap;
  },
): Promise<{ filings: number; dir: string; summary: PartitionSummary }> {
  const dir = resolve(outDir);
  const layout = partitionLayout(dir);
  rmSync(layout.spill, { recursive: true, force: true });
  rmSync(join(dir, PARTIAL_FILE), { force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const corpus = await segmentCorpus(filings, layout.spill, {
      ...options,
      include: (doc) => partitionOfIssuer(doc.ticker, spec, options.map) === spec.index,
    });
    const summary = await assemblePartition(corpus, options.embeddingModel, dir, options);
    const manifest: PartialManifest = {
      format: PARTIAL_FORMAT,
      partial_version: PARTIAL_VERSION,
      analyzer_version: ANALYZER_VERSION,
      extraction_version: EXTRACTION_VERSION,
      partition: spec,
      partition_map: options.map ? partitionMapId(options.map) : null,
      summary,
    };
    writeFileSync(join(dir, PARTIAL_FILE), serialize(manifest));
    return { filings: summary.filings.length, dir, summary };
  } finally {
    rmSync(layout.spill, { recursive: true, force: true });
  }
}

/** A partial output's objects (what its job uploads with index:publish -- --partial) and their folder. */
export function partialObjects(dir: string): { objectsDir: string; refs: PartitionSummary['objects'] } {
  const { p } = readPartial(dir);
  return { objectsDir: partitionLayout(dir).objects, refs: p.summary.objects };
}

/** A partial output, checked: written by this builder's format, analyzer and extraction. */
function readPartial(d: string): { dir: string; p: PartialManifest } {
  const file = join(resolve(d), PARTIAL_FILE);
  if (!existsSync(file))
    throw new Error(
      `${d} is not a partial build output (no ${PARTIAL_FILE}): run index:build -- --partition i/n --out ${d}`,
    );
  const p = deserialize(readFileSync(file)) as PartialManifest;
  if (p.format !== PARTIAL_FORMAT) throw new Error(`${file}: not a partial build manifest`);
  if (!sameExtraction(p) || p.partial_version !== PARTIAL_VERSION) {
    throw new Error(
      `${d} was built by analyzer version ${p.analyzer_version}, extraction version ` +
        `${p.extraction_version ?? 1}, partial format ${p.partial_version ?? 1}; this builder is ` +
        `${ANALYZER_VERSION}, ${EXTRACTION_VERSION}, ${PARTIAL_VERSION}: rebuild the partition`,
    );
  }
  for (const name of [TERMS_FILE, POSTINGS_FILE])
    if (!existsSync(join(partitionLayout(d).bounds, name)))
      throw new Error(
        `${d} has no term bounds (bounds/${name}): the partition job did not finish; rebuild the partition`,
      );
  return { dir: resolve(d), p };
}

/**
 * Merges the partial outputs of every partition of one split (all of 1..n, once each, every one embedded with the
 * same model) into a version. The model is read from `<outDir>/sp500/models/` unless given.
 */
export async function mergePartitions(
  dirs: readonly string[],
  options: BuildOptions & { objectsPublished?: boolean },
): Promise<BuildResult> {
  if (!dirs.length) throw new Error('--merge needs the partial output directories');
  const partials = dirs.map(readPartial);
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
  const maps = [...new Set(partials.map(({ p }) => p.partition_map ?? 'the ticker hash'))];
  if (maps.length > 1)
    throw new Error(
      `the partitions were split by different partition maps (${maps.join(', ')}): an issuer could be in two ` +
        'partitions or in none; rebuild them with one map',
    );
  const models = [...new Set(partials.map(({ p }) => p.summary.embeddingModel))];
  if (models.length > 1) throw new Error(`the partitions were embedded with different models: ${models.join(', ')}`);
  if (options.embeddingModel && options.embeddingModel.id !== models[0])
    throw new Error(`the partitions were embedded with model ${models[0]}, not ${options.embeddingModel.id}`);
  const model = options.embeddingModel ?? (await loadModel(models[0]!, join(options.outDir, DOMAIN)));
  return mergeSummaries(
    partials.map(({ dir, p }) => ({ dir, summary: p.summary })),
    { ...model, sampleFilings: null, ms: 0 },
    options,
  );
}
