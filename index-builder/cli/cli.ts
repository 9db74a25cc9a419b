#!/usr/bin/env node
/**
 * Index builder CLI (npm scripts index:build, index:publish, index:gc, fetch:edgar, index:refresh); every subcommand
 * answers --help. Flags are read with node:util parseArgs (cli-args.ts): a wrong one exits 2 with the usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DOMAIN, type BuildOptions } from '../build';
import { buildIndex } from '../pipeline';
import { parseFlags, runWithUsage, UsageError, type CliIo, consoleIo } from './cli-args';
import { runFetchCommand } from '../fetch/run-fetch-command';
import { checkGraphMinStatements, DEFAULT_GRAPH_MIN_STATEMENTS } from '../vectors/graphs';
import { collectGarbage } from '../publish/gc';
import { incrementalBuild } from '../incremental';
import { loadModel, MODELS_DIR } from '../vectors/model-store';
import type { EmbeddingMethod } from '../vectors/embeddings';
import { decodeManifest } from '../../index-format/codec';
import { buildPartition, learnModelFromCorpus, mergePartitions, partialObjects } from '../partition';
import {
  mapPartitions,
  partitionLoads,
  partitionMapId,
  type PartitionSpec,
  parsePartition,
  readPartitionMap,
  writePartitionMap,
} from '../partition-map';
import { stageProgress } from './progress';
import { publishObjects, publishVersion } from '../publish/publish';
import {
  beginRefresh,
  finishRefresh,
  prepareRefresh,
  archiveFilingCounts,
  pullArchive,
  refreshLayout,
  writeStepOutputs,
} from '../publish/refresh';
import { DEFAULT_PERSIST_DIR, openStorage } from '../publish/storage';
import { countCorpusFilings, issuerFilingCounts, streamCorpus } from '../segment/read-corpus';

export const DEFAULT_FILINGS_DIR = 'fixtures/sample-corpus/filings';
export const DEFAULT_ARTIFACTS_DIR = 'artifacts';

export interface RunBuildOptions {
  /** Neither the summary (stdout) nor progress (stderr): for tests and benchmarks that print their own. */
  quiet?: boolean;
  /** See BuildOptions.graphMinStatements; default 20,000. */
  graphMinStatements?: number;
}

/** Parses GRAPH_MIN_STATEMENTS: unset/empty -> the default, "none" -> no graphs, else a positive integer. */
export function parseGraphMinStatements(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.trim().toLowerCase() === 'none') return Infinity;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`GRAPH_MIN_STATEMENTS must be a positive integer or "none", got "${value}"`);
  return checkGraphMinStatements(n);
}

/**
 * Flags of `build`: a whole build, or the three steps of a partitioned one: `--learn-model`, `--partition i/n --out
 * <dir> --embedding-model <id>` (a partial output) and `--merge <partial dirs...>`.
 */
export interface BuildArgs {
  /** Only learn the word-vector model (the model job of a partitioned build). */
  learnModel?: boolean;
  partition?: PartitionSpec;
  /** A partition map file (partition-map.ts): read with --partition, written with --map-partitions. */
  partitionMap?: string;
  /** Write a partition map of this many partitions from FILINGS_DIR's filing counts (a step of its own). */
  mapPartitions?: number;
  out?: string;
  merge?: string[];
  /** With merge: the partitions' jobs uploaded their objects (index:publish -- --partial); they may be absent here. */
  objectsPublished?: boolean;
  /** A model id (under <ARTIFACTS_DIR>/sp500/models/) or a path to a model file. */
  embeddingModel?: string;
  /**
   * The seed of the learned model's random projection (index-builder/vectors/embeddings.ts; default 20261121). Builds
   * with different seeds measure how much of a benchmark figure is the projection's luck (docs/PARAMETERS.md).
   */
  embeddingSeed?: number;
  /**
   * How the learned model's vectors are made (index-builder/vectors/embeddings.ts EmbeddingMethod; default projection).
   */
  embeddingMethod?: EmbeddingMethod;
  /** Build on the latest version in ARTIFACTS_DIR (index-builder/incremental.ts). */
  incremental?: boolean;
  /** With incremental: the corpus holds only the changed issuers (a refresh); the others are carried over. */
  partialCorpus?: boolean;
}

const learnedIn = (filings: number, ms: number) => `learned from ${filings} filings in ${(ms / 1000).toFixed(1)} s`;

export const BUILD_USAGE = `usage: npm run index:build -- [flags]     (cli.ts build)
  Builds an index of FILINGS_DIR (default ${DEFAULT_FILINGS_DIR}) into ARTIFACTS_DIR (default \
${DEFAULT_ARTIFACTS_DIR})/sp500/<version>/.
  --incremental          build on the latest version in ARTIFACTS_DIR, rebuilding only issuers whose filings changed
  --partial-corpus       with --incremental: FILINGS_DIR holds only the changed issuers' filings (a refresh); every
                         other issuer is carried over from the latest version
  --embedding-model <m>  reuse a model (an id under ARTIFACTS_DIR/sp500/models/, or a path) instead of learning one
  --embedding-seed <n>   the learned model's seed (0 to 4294967295)
  --embedding-method <m> projection (default) or svd: how a learned model's vectors are made (docs/PARAMETERS.md)
  a partitioned build (docs/decisions/partitioned-build.md), its steps in order:
  --learn-model          only learn the embedding model from the corpus's fixed sample; prints its id
  --map-partitions <n> --partition-map <file>
                         write a map of FILINGS_DIR's issuers to n partitions, packed by filing count
  --partition <i/n> --out <dir> --embedding-model <m> [--partition-map <file>]
                         build partition i's issuers (shards, graphs, issuer tables) into a partial output; its
                         issuers are those the map gives it, or without a map those a hash of the ticker sends
  --merge <dir...>       the index of all partial outputs (byte-identical to a single build with that model)
  --objects-published    with --merge: the partition jobs uploaded their objects (index:publish -- --partial), so
                         a partial may come without objects/; the version folder then lists them without holding them
  -h, --help             this text
  env: FILINGS_DIR, ARTIFACTS_DIR, GRAPH_MIN_STATEMENTS (default ${DEFAULT_GRAPH_MIN_STATEMENTS}; "none": no HNSW \
graphs)`;

/** A --map-partitions value: how many partitions, a positive integer. */
function partitionCount(raw: string): number {
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1) throw new UsageError('--map-partitions needs a positive integer');
  return Number(raw);
}

export function parseBuildArgs(args: readonly string[]): BuildArgs {
  const { values: v, positionals } = parseFlags(
    args,
    {
      partition: { type: 'string' },
      'partition-map': { type: 'string' },
      'map-partitions': { type: 'string' },
      out: { type: 'string' },
      merge: { type: 'boolean' },
      'objects-published': { type: 'boolean' },
      'learn-model': { type: 'boolean' },
      'embedding-model': { type: 'string' },
      'embedding-seed': { type: 'string' },
      'embedding-method': { type: 'string' },
      incremental: { type: 'boolean' },
      'partial-corpus': { type: 'boolean' },
    },
    true,
  );
  const out: BuildArgs = {};
  const fail = (message: string): never => {
    throw new UsageError(message);
  };
  if (v.partition !== undefined) {
    try {
      out.partition = parsePartition(v.partition);
    } catch (err) {
      fail((err as Error).message);
    }
  }
  if (v['partition-map'] !== undefined) out.partitionMap = v['partition-map'] || fail('--partition-map needs a file');
  if (v['map-partitions'] !== undefined) out.mapPartitions = partitionCount(v['map-partitions']);
  if (v.out !== undefined) out.out = v.out || fail('--out needs a directory');
  if (v['embedding-model'] !== undefined)
    out.embeddingModel = v['embedding-model'] || fail('--embedding-model needs a model id or a path to a model file');
  if (v['embedding-seed'] !== undefined) {
    const raw = v['embedding-seed'];
    if (!/^\d{1,10}$/.test(raw) || Number(raw) > 0xffffffff)
      fail('--embedding-seed needs an integer from 0 to 4294967295');
    out.embeddingSeed = Number(raw);
  }
  const method = v['embedding-method'];
  if (method !== undefined) {
    if (method !== 'projection' && method !== 'svd') fail('--embedding-method needs projection or svd');
    out.embeddingMethod = method as EmbeddingMethod;
  }
  if (v.incremental) out.incremental = true;
  if (v['learn-model']) out.learnModel = true;
  if (v['partial-corpus']) out.partialCorpus = true;
  if (v.merge) out.merge = positionals.length ? [...positionals] : fail('--merge needs the partial output directories');
  else if (positionals.length) fail(`unexpected argument ${positionals[0]} (only --merge takes directories)`);
  if (out.partition && !out.out) fail('--partition needs --out <dir> for the partial output');
  if (out.partition && out.merge) fail('give either --partition or --merge, not both');
  if (v['objects-published']) {
    if (!out.merge) fail('--objects-published is for --merge');
    out.objectsPublished = true;
  }
  if (out.out && !out.partition) fail('--out is for --partition');
  if (out.incremental && (out.partition || out.merge || out.embeddingModel || out.learnModel)) {
    fail(
      '--incremental builds on the latest version with its own embedding model: it takes no --partition, ' +
        '--merge, --learn-model or --embedding-model',
    );
  }
  if (out.learnModel && (out.partition || out.merge || out.embeddingModel))
    fail('--learn-model is a step of its own: not with --partition, --merge or --embedding-model');
  if (out.partialCorpus && !out.incremental) fail('--partial-corpus is for --incremental');
  if (out.mapPartitions !== undefined) {
    if (!out.partitionMap) fail('--map-partitions needs --partition-map <file> to write the map to');
    if (Object.keys(v).some((k) => k !== 'map-partitions' && k !== 'partition-map') || positionals.length)
      fail('--map-partitions is a step of its own: only with --partition-map');
  } else if (out.partitionMap && !out.partition) fail('--partition-map is for --partition or --map-partitions');
  if (out.partition && !out.embeddingModel)
    fail('--partition needs --embedding-model <id>: every partition embeds with one frozen model (--learn-model)');
  for (const [flag, given] of [
    ['--embedding-seed', out.embeddingSeed !== undefined],
    ['--embedding-method', out.embeddingMethod !== undefined],
  ] as const) {
    if (given && (out.embeddingModel || out.incremental || out.partition || out.merge)) {
      fail(
        `${flag} applies to a model the build learns (a whole build or --learn-model): not with ` +
          `--embedding-model, --incremental, --partition or --merge`,
      );
    }
  }
  return out;
}

export async function runBuild(
  filingsDir: string,
  artifactsDir: string,
  options: RunBuildOptions & {
    merge?: string[];
    objectsPublished?: boolean;
    embeddingModel?: string;
    embeddingSeed?: number;
    embeddingMethod?: EmbeddingMethod;
    incremental?: boolean;
    partialCorpus?: boolean;
  } = {},
) {
  const t0 = performance.now();
  const previous = options.incremental ? latestVersionDir(artifactsDir) : null;
  if (options.incremental && !previous)
    throw new Error(`--incremental needs a built version in ${artifactsDir}: run npm run index:build first`);
  const previousModel = previous
    ? decodeManifest(readFileSync(join(previous, 'manifest.json'), 'utf8')).embedding_model
    : undefined;
  if (previous && !previousModel)
    throw new Error(`${previous} records no embedding model: build it again without --incremental`);
  const modelRef = previousModel ?? options.embeddingModel;
  const reused = modelRef ? await loadModel(modelRef, join(artifactsDir, DOMAIN)) : undefined;
  const bars = new Map<string, ReturnType<typeof stageProgress>>();
  // Resident memory seen during each stage, sampled at each progress step: where a build's peak comes from.
  const rssByStage = new Map<string, number>();
  // When each stage first reported: a stage lasts until the next one starts (the last, until the build returns).
  const stageStart = new Map<string, number>();
  const buildOptions: BuildOptions = {
    outDir: artifactsDir,
    ...(reused ? { embeddingModel: reused } : {}),
    embedding: {
      ...(options.embeddingSeed !== undefined ? { seed: options.embeddingSeed } : {}),
      ...(options.embeddingMethod ? { method: options.embeddingMethod } : {}),
    },
    ...(options.graphMinStatements !== undefined ? { graphMinStatements: options.graphMinStatements } : {}),
    ...(previous || options.merge ? {} : { expectedFilings: countCorpusFilings(filingsDir) }),
    onStage(stage, done, total) {
      rssByStage.set(stage, Math.max(rssByStage.get(stage) ?? 0, process.memoryUsage.rss()));
      if (!stageStart.has(stage)) stageStart.set(stage, performance.now());
      let bar = bars.get(stage);
      if (!bar) {
        for (const b of bars.values()) b.stop();
        bars.set(stage, (bar = options.quiet ? { update() {}, stop() {} } : stageProgress(stage)));
      }
      bar.update(done, total);
    },
  };
  // The corpus streams in one filing at a time (the build never holds it whole); progress counts filings.
  const result = previous
    ? await incrementalBuild(() => streamCorpus(filingsDir), previous, {
        ...buildOptions,
        embeddingModel: reused!,
        ...(options.partialCorpus ? { partialCorpus: true } : {}),
      })
    : options.merge
      ? await mergePartitions(options.merge, { ...buildOptions, objectsPublished: !!options.objectsPublished })
      : await buildIndex(streamCorpus(filingsDir), buildOptions);
  for (const b of bars.values()) b.stop();
  const seconds = (performance.now() - t0) / 1000;
  const s = result.summary;
  const rebuilt = 'rebuiltIssuers' in result ? (result.rebuiltIssuers as string[]) : null;
  if (options.quiet) return result;
  console.log(
    [
      `built ${DOMAIN} index ${result.version} in ${seconds.toFixed(1)} s -> ${result.dir}`,
      `  filings ${s.filings}, pages ${s.pages}, sources (items) ${s.sources}, shards ${s.shards}`,
      `  hnsw graphs ${s.graphs}` +
        (s.graphs
          ? ` (${s.graphBytes} bytes, built in ${(s.graphMs / 1000).toFixed(1)} s)`
          : options.graphMinStatements === Infinity
            ? ' (disabled)'
            : ` (no shard reaches ${options.graphMinStatements ?? DEFAULT_GRAPH_MIN_STATEMENTS} statements)`),
      `  statements ${s.statements} (${Object.entries(s.byKind)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')})`,
      `  by status: ${Object.entries(s.byStatus)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      `  entries merged across filings${rebuilt ? ' (rebuilt issuers)' : ''}: ${s.mergedSentenceGroups} ` +
        `repeated sentences, ${s.mergedTableRows} table rows agreeing with another filing, ` +
        `${s.disagreeingRows} with a disagreeing value`,
      `  entities: ${Object.entries(s.entities)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
      `  evidence-graph edges: ${Object.entries(s.edges)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} (${Object.values(s.edges).reduce((a, b) => a + b, 0)} in all)`,
      `  embedding model ${s.embeddingModel} ` +
        `(${s.embeddingSampleFilings === null ? 'reused' : learnedIn(s.embeddingSampleFilings, s.embeddingMs)})`,
      ...(rebuilt
        ? [
            `  incremental on ${previous}: rebuilt ${rebuilt.length} issuers ` +
              `(${rebuilt.join(', ') || 'none'}), reused ${s.reusedIssuers} (${s.reusedBytes} bytes of shards ` +
              `and graphs)`,
          ]
        : []),
      `  largest shard ${s.largestShardBytes} bytes`,
      `  artifact bytes ${s.bytes} (${(s.bytes / Math.max(1, s.statements)).toFixed(0)} per statement), peak ` +
        `RSS ${peakRssMb()} MB, cpu ${cpuSeconds()} s`,
      `  RSS by stage (MB, sampled): ` +
        `${[...rssByStage].map(([stage, bytes]) => `${stage} ${(bytes / 1048576).toFixed(0)}`).join(', ')}`,
      `  seconds by stage: ${stageSeconds(stageStart, t0, t0 + seconds * 1000)}`,
    ].join('\n'),
  );
  return result;
}

/**
 * "setup 0.4, a 1.2, b 0.3": each stage from its first report to the next stage's (the last one's, to `end`), after
 * what came before the first (reading inputs, loading a model).
 */
function stageSeconds(starts: ReadonlyMap<string, number>, begin: number, end: number): string {
  const list: [string, number][] = [['setup', begin], ...starts];
  return list.map(([stage, at], i) => `${stage} ${(((list[i + 1]?.[1] ?? end) - at) / 1000).toFixed(1)}`).join(', ');
}

/** The process's peak resident memory so far, in MB. */
const peakRssMb = () => (process.resourceUsage().maxRSS / 1024).toFixed(0);
/** CPU seconds the process has used (user and system): its work, whatever else shares the machine. */
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6).toFixed(1);
};

export function latestVersionDir(artifactsDir: string): string | null {
  const latest = join(artifactsDir, DOMAIN, 'LATEST');
  if (!existsSync(latest)) return null;
  const dir = join(artifactsDir, DOMAIN, readFileSync(latest, 'utf8').trim());
  return existsSync(join(dir, 'manifest.json')) ? dir : null;
}

export interface PublishOptions {
  remote: boolean;
  persistDir: string;
  /** A version directory name under <artifacts>/sp500/; default the latest build. */
  version?: string;
  /** A partition job's output folder: upload its objects only (no version, no pointer). */
  partial?: string;
}

/** Publishes a built version to the bindings of wrangler.toml (local state or the Cloudflare account). */
export async function runPublish(artifactsDir: string, opts: PublishOptions) {
  if (opts.partial) return runPublishPartial(opts.partial, opts);
  const dir = opts.version ? join(artifactsDir, DOMAIN, opts.version) : latestVersionDir(artifactsDir);
  if (!dir || !existsSync(join(dir, 'manifest.json'))) {
    throw new Error(
      opts.version
        ? `no built version ${opts.version} in ${join(artifactsDir, DOMAIN)}`
        : `no built index in ${artifactsDir}: run npm run index:build first`,
    );
  }
  const storage = await openStorage({ remote: opts.remote, persistTo: opts.persistDir });
  try {
    const bar = stageProgress('publish');
    const report = await publishVersion(dir, storage.target, (d, t) => bar.update(d, t));
    bar.stop();
    console.log(
      `published ${DOMAIN} ${report.version} to ${storage.where}: ${report.uploaded} objects uploaded ` +
        `(${report.bytes} bytes), ` +
        `${report.skipped} already stored (${report.skippedBytes} bytes)`,
    );
    return report;
  } finally {
    await storage.dispose();
  }
}

/** A partition job's objects into the bucket, ahead of the merge that lists them (publishObjects). */
async function runPublishPartial(partial: string, opts: PublishOptions) {
  const { objectsDir, refs } = partialObjects(partial);
  const storage = await openStorage({ remote: opts.remote, persistTo: opts.persistDir });
  try {
    const report = await publishObjects(refs, objectsDir, DOMAIN, storage.target);
    console.log(
      `published the objects of ${partial} to ${storage.where}: ${report.uploaded} uploaded (${report.bytes} ` +
        `bytes), ${report.skipped} already stored (${report.skippedBytes} bytes); merge with --objects-published`,
    );
    return null;
  } finally {
    await storage.dispose();
  }
}

export const runPublishLocal = (artifactsDir: string, persistDir: string) =>
  runPublish(artifactsDir, { remote: false, persistDir });

/** Removes published versions older than the `keep` newest (never the current or the previous one). */
export async function runGc(keep: number, opts: { remote: boolean; persistDir: string; dryRun: boolean }) {
  const storage = await openStorage({ remote: opts.remote, persistTo: opts.persistDir });
  try {
    const plan = await collectGarbage(storage.target, DOMAIN, keep, { dryRun: opts.dryRun });
    console.log(
      `${opts.dryRun ? 'would remove' : 'removed'} ${plan.remove.length} of ${plan.versions.length} versions ` +
        `from ${storage.where} ` +
        `(${plan.keys.length} objects, ${plan.bytes} bytes); kept ${plan.keep.join(', ') || 'none'} (current ` +
        `${plan.current ?? 'none'})` +
        (plan.unlisted.length
          ? `; kept every stored object: no readable files.json for ${plan.unlisted.join(', ')}`
          : '') +
        (plan.recent ? `; kept ${plan.recent} stored objects no version lists yet, uploaded within 24 hours` : '') +
        (plan.remove.length ? `; removed ${plan.remove.join(', ')}` : ''),
    );
    return plan;
  } finally {
    await storage.dispose();
  }
}

const STORAGE_FLAGS = `  --local                the local R2/KV state wrangler dev serves (default)
  --remote               the R2 bucket and KV namespace of wrangler.toml on Cloudflare (needs a wrangler login or
                         CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID)
  --persist-to <dir>     with --local: the state folder (default PERSIST_DIR or ${DEFAULT_PERSIST_DIR})`;

export const PUBLISH_USAGE = `usage: npm run index:publish -- [--local|--remote] [--persist-to dir] [--version \
v | --partial dir]     (cli.ts publish)
  Publishes a built version of ARTIFACTS_DIR (default ${DEFAULT_ARTIFACTS_DIR}): files.json, the objects not stored yet,
  the manifest, then the pointer.
${STORAGE_FLAGS}
  --version <v>          a version folder under ARTIFACTS_DIR/sp500/ (default the latest build)
  --partial <dir>        only a partition job's objects (stored by content), ahead of the merge's publish; gc keeps
                         objects no version lists for 24 hours
  -h, --help             this text`;

export const GC_USAGE = `usage: npm run index:gc -- --keep <n> [--local|--remote] [--persist-to dir] \
[--dry-run]     (cli.ts gc)
  Removes published versions older than the n newest (never the current or the previous one), then stored objects
  no kept version lists once 24 hours old (a partition job uploads its objects before the merge publishes).
${STORAGE_FLAGS}
  --keep <n>             how many of the newest versions to keep
  --dry-run              say what would be removed, remove nothing
  -h, --help             this text`;

export const REFRESH_USAGE = `usage: npm run index:refresh -- begin|prepare|finish|pull [--data dir] \
[--local|--remote] [--persist-to dir]     (cli.ts refresh)
  The steps of .github/workflows/refresh-index.yml around fetch, build and publish; their state lives in the bucket
  (index-builder/publish/refresh.ts):
  begin                  the date to fetch from -> <data>/fetch-state.json (none on a first run)
  prepare                which issuers changed; pulls their archived filings and the previous version into
                         <data>/filings and <data>/artifacts (writes changed, full and model to GITHUB_OUTPUT);
                         a full build keeps the live version's embedding model (build --embedding-model <model>)
  --relearn-model        with prepare: a full build of every archived filing that learns a new embedding model
  finish                 after the publish: archives the filings and the model, writes the refresh state
  pull                   every archived filing -> <data>/filings/edgar (a job of .github/workflows/build-index.yml)
  --partition <i/n>      with pull: only the filings of partition i's issuers
  --partition-map <file> with pull --partition: the issuers the map gives partition i (default: a ticker hash)
  --map-partitions <n>   with pull --partition-map <file>: write a map of the archive's issuers to n partitions,
                         packed by filing count (the bucket's listing, no filing downloaded for it)
  --model <id>           with pull: also that embedding model -> <data>/artifacts/sp500/models/
  --no-filings           with pull: the model alone
  --data <dir>           the run's data folder (default data)
${STORAGE_FLAGS}
  -h, --help             this text`;

const STORAGE_OPTIONS = {
  local: { type: 'boolean' },
  remote: { type: 'boolean' },
  'persist-to': { type: 'string' },
} as const;

function storageTarget(v: { local?: boolean; remote?: boolean; 'persist-to'?: string }, persistDir: string) {
  if (v.local && v.remote) throw new UsageError('give either --local or --remote, not both');
  if (v.remote && v['persist-to'] !== undefined) throw new UsageError('--persist-to is for --local only');
  return { remote: !!v.remote, persistDir: resolve(v['persist-to'] ?? persistDir) };
}

/** Flags of `publish`: --local (default) or --remote, --persist-to <dir>, --version <v> or --partial <dir>. */
export function parsePublishArgs(args: readonly string[], persistDir = DEFAULT_PERSIST_DIR) {
  const { values: v } = parseFlags(args, {
    ...STORAGE_OPTIONS,
    version: { type: 'string' },
    partial: { type: 'string' },
  });
  if (v.version !== undefined && v.partial !== undefined)
    throw new UsageError('give either --version or --partial, not both');
  if (v.partial === '') throw new UsageError('--partial needs a partition output folder');
  return {
    ...storageTarget(v, persistDir),
    ...(v.version ? { version: v.version } : {}),
    ...(v.partial ? { partial: resolve(v.partial) } : {}),
  };
}

/** Flags of `gc`: --keep <n> (required), --local or --remote, --persist-to <dir>, --dry-run. */
export function parseGcArgs(args: readonly string[], persistDir = DEFAULT_PERSIST_DIR) {
  const { values: v } = parseFlags(args, {
    ...STORAGE_OPTIONS,
    keep: { type: 'string' },
    'dry-run': { type: 'boolean' },
  });
  if (v.keep === undefined) throw new UsageError('gc needs --keep <n>: how many of the newest versions to keep');
  const keep = Number(v.keep);
  if (!Number.isInteger(keep) || keep < 1) throw new UsageError('--keep needs a positive integer');
  return { ...storageTarget(v, persistDir), keep, dryRun: !!v['dry-run'] };
}

/** Flags of `refresh`: the step, --data <dir>, --local or --remote, --persist-to <dir>. */
export function parseRefreshArgs(args: readonly string[], persistDir = DEFAULT_PERSIST_DIR) {
  const { values: v, positionals } = parseFlags(
    args,
    {
      ...STORAGE_OPTIONS,
      data: { type: 'string' },
      'relearn-model': { type: 'boolean' },
      partition: { type: 'string' },
      'partition-map': { type: 'string' },
      'map-partitions': { type: 'string' },
      model: { type: 'string' },
      'no-filings': { type: 'boolean' },
    },
    true,
  );
  const [step, ...rest] = positionals;
  if (step !== 'begin' && step !== 'prepare' && step !== 'finish' && step !== 'pull')
    throw new UsageError(
      step ? `unknown refresh step ${step}` : 'refresh needs a step: begin, prepare, finish or pull',
    );
  if (rest.length) throw new UsageError(`unexpected argument ${rest[0]}`);
  if (v['relearn-model'] && step !== 'prepare') throw new UsageError('--relearn-model is an option of refresh prepare');
  const pullOnly = ['partition', 'partition-map', 'map-partitions', 'model', 'no-filings'] as const;
  if (pullOnly.some((k) => v[k] !== undefined) && step !== 'pull')
    throw new UsageError(`${pullOnly.map((k) => `--${k}`).join(', ')} are options of refresh pull`);
  if (v['partition-map'] === '') throw new UsageError('--partition-map needs a file');
  if (v['map-partitions'] !== undefined && !v['partition-map'])
    throw new UsageError('--map-partitions needs --partition-map <file> to write the map to');
  if (v['partition-map'] && v['map-partitions'] === undefined && v.partition === undefined)
    throw new UsageError('--partition-map is for --partition (read) or --map-partitions (write)');
  if (v['map-partitions'] !== undefined && v.partition !== undefined)
    throw new UsageError('--map-partitions writes the map the partition jobs read: not with --partition');
  if (v['no-filings'] && !v.model) throw new UsageError('--no-filings pulls a model alone: give --model <id>');
  let partition: PartitionSpec | undefined;
  try {
    if (v.partition !== undefined) partition = parsePartition(v.partition);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return {
    step,
    data: resolve(v.data ?? 'data'),
    relearnModel: !!v['relearn-model'],
    ...(partition ? { partition } : {}),
    ...(v['partition-map'] ? { partitionMap: resolve(v['partition-map']) } : {}),
    ...(v['map-partitions'] !== undefined ? { mapPartitions: partitionCount(v['map-partitions']) } : {}),
    ...(v.model ? { model: v.model } : {}),
    ...(v['no-filings'] ? { noFilings: true } : {}),
    ...storageTarget(v, persistDir),
  };
}

async function runRefresh(args: ReturnType<typeof parseRefreshArgs>, io: CliIo): Promise<void> {
  const layout = refreshLayout(args.data);
  const storage = await openStorage({ remote: args.remote, persistTo: args.persistDir });
  try {
    if (args.step === 'begin') {
      const state = await beginRefresh(storage.target, layout);
      io.out(
        state
          ? `refresh state in ${storage.where}: version ${state.version}, fetch from ${state.since ?? 'the start'}`
          : `no refresh state in ${storage.where}: a first, full run`,
      );
    } else if (args.step === 'prepare') {
      const plan = await prepareRefresh(storage.target, layout, { relearnModel: args.relearnModel });
      writeStepOutputs(plan);
      io.out(
        plan.full
          ? `a full build of ${plan.changed.length} issuers (a first run, a new model asked for, or the last ` +
              `version's builder read filings differently), ` +
              (plan.model ? `with the live version's embedding model ${plan.model}` : 'learning a new embedding model')
          : plan.changed.length
            ? `changed issuers ${plan.changed.join(', ')}: pulled their filings and version ${plan.previous} ` +
              `for an incremental build`
            : 'nothing new since the last run: no build, no publish',
      );
    } else if (args.step === 'pull') {
      if (args.mapPartitions !== undefined) {
        const counts = await archiveFilingCounts(storage.target);
        io.out(writeMap(counts, args.mapPartitions, args.partitionMap!, `the archive in ${storage.where}`));
      }
      const map = args.partition && args.partitionMap ? readPartitionMap(args.partitionMap, args.partition) : undefined;
      const { tickers } = await pullArchive(storage.target, layout, { ...args, ...(map ? { map } : {}) });
      io.out(
        `pulled the archived filings of ${tickers.length} ` +
          `issuers${args.partition ? ` (partition ${args.partition.index}/${args.partition.count})` : ''} from ` +
          `${storage.where} into ${layout.edgar}${args.model ? `, and model ${args.model}` : ''}`,
      );
    } else {
      const { state, archived } = await finishRefresh(storage.target, layout);
      io.out(
        `refresh state written to ${storage.where}: version ${state.version}, next fetch from ` +
          `${state.since ?? 'the start'} (${archived} objects archived)`,
      );
    }
  } finally {
    await storage.dispose();
  }
}

export const CLI_USAGE = `usage: cli.ts build | publish | gc | fetch | refresh   (each answers --help)
  npm scripts: index:build, index:publish, index:publish:local, index:gc, fetch:edgar, index:refresh`;

/** A partition map of `count` partitions packed from `counts` (read from `source`), written to `file`; its report. */
function writeMap(counts: ReadonlyMap<string, number>, count: number, file: string, source: string): string {
  if (!counts.size) throw new Error(`${source} holds no filings to map`);
  const map = mapPartitions(counts, count);
  writePartitionMap(file, map);
  const loads = partitionLoads(map, counts);
  const mean = loads.reduce((a, b) => a + b, 0) / loads.length;
  return (
    `partition map of ${counts.size} issuers into ${map.count} partitions (${partitionMapId(map)}): ` +
    `${Math.min(...loads)} to ${Math.max(...loads)} filings a partition, the largest ` +
    `${(Math.max(...loads) / mean).toFixed(2)}x the mean -> ${file}`
  );
}

async function runBuildCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const buildArgs = parseBuildArgs(args);
  let graphMinStatements: number | undefined;
  try {
    graphMinStatements = parseGraphMinStatements(env.GRAPH_MIN_STATEMENTS);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const filingsDir = resolve(env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR);
  const artifactsDir = resolve(env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  if (buildArgs.learnModel) {
    const t0 = performance.now();
    const model = await learnModelFromCorpus(() => streamCorpus(filingsDir), artifactsDir, {
      embedding: {
        ...(buildArgs.embeddingSeed !== undefined ? { seed: buildArgs.embeddingSeed } : {}),
        ...(buildArgs.embeddingMethod ? { method: buildArgs.embeddingMethod } : {}),
      },
    });
    console.log(
      `learned embedding model ${model.id} from ${model.sampleFilings} filings in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s -> ` +
        `${join(artifactsDir, DOMAIN, MODELS_DIR, `${model.id}.bin`)}, peak RSS ${peakRssMb()} MB, cpu ` +
        `${cpuSeconds()} s`,
    );
    return;
  }
  if (buildArgs.mapPartitions !== undefined) {
    const counts = issuerFilingCounts(filingsDir);
    console.log(writeMap(counts, buildArgs.mapPartitions, buildArgs.partitionMap!, filingsDir));
    return;
  }
  if (buildArgs.partition) {
    const t0 = performance.now();
    const embeddingModel = await loadModel(buildArgs.embeddingModel!, join(artifactsDir, DOMAIN));
    const map = buildArgs.partitionMap ? readPartitionMap(buildArgs.partitionMap, buildArgs.partition) : undefined;
    const { filings, dir, summary } = await buildPartition(
      streamCorpus(filingsDir),
      buildArgs.partition,
      buildArgs.out!,
      {
        embeddingModel,
        ...(map ? { map } : {}),
        ...(graphMinStatements === undefined ? {} : { graphMinStatements }),
      },
    );
    const { index, count } = buildArgs.partition;
    const bytes = summary.objects.reduce((a, r) => a + r.bytes, 0);
    console.log(
      `built partition ${index}/${count}: ${filings} filings, ${summary.issuers.length} issuers, ` +
        `${summary.stats.statements} statements, ${bytes} object bytes in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s -> ${dir}, peak RSS ${peakRssMb()} MB, cpu ` +
        `${cpuSeconds()} s (merge with index:build -- --merge)`,
    );
    return;
  }
  await runBuild(filingsDir, artifactsDir, {
    ...(graphMinStatements === undefined ? {} : { graphMinStatements }),
    ...(buildArgs.merge ? { merge: buildArgs.merge } : {}),
    ...(buildArgs.objectsPublished ? { objectsPublished: true } : {}),
    ...(buildArgs.embeddingModel ? { embeddingModel: buildArgs.embeddingModel } : {}),
    ...(buildArgs.embeddingSeed !== undefined ? { embeddingSeed: buildArgs.embeddingSeed } : {}),
    ...(buildArgs.embeddingMethod ? { embeddingMethod: buildArgs.embeddingMethod } : {}),
    ...(buildArgs.incremental ? { incremental: true } : {}),
    ...(buildArgs.partialCorpus ? { partialCorpus: true } : {}),
  });
}

/** Runs one subcommand; resolves to the process's exit code. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = consoleIo,
): Promise<number> {
  const [command, ...args] = argv;
  const artifactsDir = resolve(env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  const persistDir = env.PERSIST_DIR ?? DEFAULT_PERSIST_DIR;
  switch (command) {
    case 'build':
      return runWithUsage(BUILD_USAGE, () => runBuildCommand(args, env), io);
    case 'publish':
      return runWithUsage(
        PUBLISH_USAGE,
        async () => void (await runPublish(artifactsDir, parsePublishArgs(args, persistDir))),
        io,
      );
    case 'gc':
      return runWithUsage(
        GC_USAGE,
        async () => {
          const { keep, ...opts } = parseGcArgs(args, persistDir);
          await runGc(keep, opts);
        },
        io,
      );
    case 'refresh':
      return runWithUsage(REFRESH_USAGE, () => runRefresh(parseRefreshArgs(args, persistDir), io), io);
    case 'fetch':
      return runWithUsage('', async () => (await runFetchCommand(args, stageProgress('fetch'), env, io)).code, io);
    case '--help':
    case '-h':
      io.out(CLI_USAGE);
      return 0;
    default:
      io.err(`${command ? `unknown command ${command}` : 'no command'}\n\n${CLI_USAGE}`);
      return 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
