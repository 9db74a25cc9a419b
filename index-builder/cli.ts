#!/usr/bin/env node
/**
 * Index builder CLI.
 *   build          FILINGS_DIR (default fixtures/sample-corpus/filings) -> ARTIFACTS_DIR (default artifacts/);
 *                  GRAPH_MIN_STATEMENTS (default 20000; "none" = no graphs): shards this large get an HNSW graph;
 *                  --partition i/n --out <dir>: segment only partition i's issuers into a partial output;
 *                  --merge <partial dirs...>: the index of all partitions (byte-identical to a single build)
 *                  --embedding-model <id or path>: reuse a model (every build writes its own to
 *                  ARTIFACTS_DIR/sp500/models/<id>.bin) instead of learning one
 *                  --embedding-seed <n>, --embedding-method projection|svd: how a learned model is learned
 *                  --incremental: build on the latest version, rebuilding only issuers whose filings changed
 *   publish        a built version (default the latest) -> the R2 bucket and KV namespace of wrangler.toml, through
 *                  wrangler: --local (default; PERSIST_DIR or --persist-to, default .wrangler/state) or --remote
 *   gc             --keep N: removes published versions older than the N newest (never the current or previous)
 *   fetch          EDGAR 10-K/10-Q primary documents + metadata sidecars -> <out>/edgar/ (see fetch/parse-fetch-args.ts)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { buildIndex, DOMAIN, type BuildOptions } from './build';
import { runFetchCommand } from './fetch/run-fetch-command';
import { checkGraphMinStatements, DEFAULT_GRAPH_MIN_STATEMENTS } from './graphs';
import { collectGarbage } from './gc';
import { incrementalBuild } from './incremental';
import { loadModel } from './model-store';
import type { EmbeddingMethod } from './embeddings';
import { decodeManifest } from '../src/format/codec';
import { buildPartition, mergePartitions, parsePartition, type PartitionSpec } from './partition';
import { publishVersion } from './publish';
import { DEFAULT_PERSIST_DIR, openStorage } from './storage';
import { streamCorpus } from './read-corpus';

export const DEFAULT_FILINGS_DIR = 'fixtures/sample-corpus/filings';
export const DEFAULT_ARTIFACTS_DIR = 'artifacts';

function progressBar(label: string) {
  const quiet = !process.stderr.isTTY;
  const bar = new cliProgress.SingleBar(
    { format: `${label.padEnd(9)} [{bar}] {value}/{total}`, stream: process.stderr, noTTYOutput: false, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (quiet) return;
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

export interface RunBuildOptions {
  /** No summary on stdout (progress bars only appear on a TTY anyway). */
  quiet?: boolean;
  /** See BuildOptions.graphMinStatements; default 20,000. */
  graphMinStatements?: number;
}

/** Parses GRAPH_MIN_STATEMENTS: unset/empty -> the default, "none" -> no graphs, else a positive integer. */
export function parseGraphMinStatements(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (value.trim().toLowerCase() === 'none') return Infinity;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`GRAPH_MIN_STATEMENTS must be a positive integer or "none", got "${value}"`);
  return checkGraphMinStatements(n);
}

/** Flags of `build`: `--partition i/n --out <dir>` (a partial output) or `--merge <partial dirs...>`. */
export interface BuildArgs {
  partition?: PartitionSpec;
  out?: string;
  merge?: string[];
  /** A model id (under <ARTIFACTS_DIR>/sp500/models/) or a path to a model file. */
  embeddingModel?: string;
  /**
   * The seed of the learned model's randomized SVD sketch (index-builder/embeddings.ts; default 20261121). Builds with
   * different seeds measure how much of a benchmark figure is the model's luck (docs/PARAMETERS.md).
   */
  embeddingSeed?: number;
  /** How the learned model's vectors are made (index-builder/embeddings.ts EmbeddingMethod; default projection). */
  embeddingMethod?: EmbeddingMethod;
  /** Build on the latest version in ARTIFACTS_DIR (index-builder/incremental.ts). */
  incremental?: boolean;
}

export function parseBuildArgs(args: readonly string[]): BuildArgs {
  const out: BuildArgs = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--partition') out.partition = parsePartition(args[++i] ?? '');
    else if (a === '--out') {
      out.out = args[++i];
      if (!out.out) throw new Error('--out needs a directory');
    } else if (a === '--embedding-model') {
      out.embeddingModel = args[++i];
      if (!out.embeddingModel || out.embeddingModel.startsWith('--')) throw new Error('--embedding-model needs a model id or a path to a model file');
    } else if (a === '--embedding-seed') {
      const raw = args[++i] ?? '';
      if (!/^\d{1,10}$/.test(raw) || Number(raw) > 0xffffffff) throw new Error('--embedding-seed needs an integer from 0 to 4294967295');
      out.embeddingSeed = Number(raw);
    } else if (a === '--embedding-method') {
      const raw = args[++i] ?? '';
      if (raw !== 'projection' && raw !== 'svd') throw new Error('--embedding-method needs projection or svd');
      out.embeddingMethod = raw;
    } else if (a === '--incremental') out.incremental = true;
    else if (a === '--merge') {
      out.merge = [];
      while (i + 1 < args.length && !args[i + 1]!.startsWith('--')) out.merge.push(args[++i]!);
      if (!out.merge.length) throw new Error('--merge needs the partial output directories');
    } else throw new Error(`unknown build option ${a}`);
  }
  if (out.partition && !out.out) throw new Error('--partition needs --out <dir> for the partial output');
  if (out.partition && out.merge) throw new Error('give either --partition or --merge, not both');
  if (out.out && !out.partition) throw new Error('--out is for --partition');
  if (out.incremental && (out.partition || out.merge || out.embeddingModel)) {
    throw new Error('--incremental builds on the latest version with its own embedding model: it takes no --partition, --merge or --embedding-model');
  }
  if (out.embeddingModel && out.partition) throw new Error('--embedding-model applies to the build that makes the index (a whole build or --merge), not to --partition');
  for (const [flag, given] of [['--embedding-seed', out.embeddingSeed !== undefined], ['--embedding-method', out.embeddingMethod !== undefined]] as const) {
    if (given && (out.embeddingModel || out.incremental || out.partition)) {
      throw new Error(`${flag} applies to a model the build learns (a whole build or --merge): not with --embedding-model, --incremental or --partition`);
    }
  }
  return out;
}

export async function runBuild(
  filingsDir: string,
  artifactsDir: string,
  options: RunBuildOptions & { merge?: string[]; embeddingModel?: string; embeddingSeed?: number; embeddingMethod?: EmbeddingMethod; incremental?: boolean } = {},
) {
  const t0 = performance.now();
  const previous = options.incremental ? latestVersionDir(artifactsDir) : null;
  if (options.incremental && !previous) throw new Error(`--incremental needs a built version in ${artifactsDir}: run npm run build:index first`);
  const previousModel = previous ? decodeManifest(readFileSync(join(previous, 'manifest.json'), 'utf8')).embedding_model : undefined;
  if (previous && !previousModel) throw new Error(`${previous} records no embedding model: build it again without --incremental`);
  const modelRef = previousModel ?? options.embeddingModel;
  const reused = modelRef ? await loadModel(modelRef, join(artifactsDir, DOMAIN)) : undefined;
  const bars = new Map<string, ReturnType<typeof progressBar>>();
  // Resident memory seen during each stage, sampled at each progress step: where a build's peak comes from.
  const rssByStage = new Map<string, number>();
  const buildOptions: BuildOptions = {
    outDir: artifactsDir,
    ...(reused ? { embeddingModel: reused } : {}),
    embedding: {
      ...(options.embeddingSeed !== undefined ? { seed: options.embeddingSeed } : {}),
      ...(options.embeddingMethod ? { method: options.embeddingMethod } : {}),
    },
    ...(options.graphMinStatements !== undefined ? { graphMinStatements: options.graphMinStatements } : {}),
    onStage(stage, done, total) {
      rssByStage.set(stage, Math.max(rssByStage.get(stage) ?? 0, process.memoryUsage.rss()));
      let bar = bars.get(stage);
      if (!bar) {
        for (const b of bars.values()) b.stop();
        bars.set(stage, (bar = progressBar(stage)));
      }
      bar.update(done, total);
    },
  };
  // The corpus streams in one filing at a time (the build never holds it whole); progress counts filings.
  const result = previous
    ? await incrementalBuild(() => streamCorpus(filingsDir), previous, { ...buildOptions, embeddingModel: reused! })
    : options.merge
      ? await mergePartitions(options.merge, buildOptions)
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
      `  statements ${s.statements} (${Object.entries(s.byKind).map(([k, v]) => `${k} ${v}`).join(', ')})`,
      `  by status: ${Object.entries(s.byStatus).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `  entries merged across filings${rebuilt ? ' (rebuilt issuers)' : ''}: ${s.mergedSentenceGroups} repeated sentences, ${s.mergedTableRows} table rows agreeing with another filing, ${s.disagreeingRows} with a disagreeing value`,
      `  entities: ${Object.entries(s.entities).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `  evidence-graph edges: ${Object.entries(s.edges).map(([k, v]) => `${k} ${v}`).join(', ')} (${Object.values(s.edges).reduce((a, b) => a + b, 0)} in all)`,
      `  embedding model ${s.embeddingModel} (${s.embeddingSampleFilings === null ? 'reused' : `learned from ${s.embeddingSampleFilings} filings in ${(s.embeddingMs / 1000).toFixed(1)} s`})`,
      ...(rebuilt
        ? [`  incremental on ${previous}: rebuilt ${rebuilt.length} issuers (${rebuilt.join(', ') || 'none'}), reused ${s.reusedIssuers} (${s.reusedBytes} bytes of shards and graphs)`]
        : []),
      `  largest shard ${s.largestShardBytes} bytes`,
      `  artifact bytes ${s.bytes} (${(s.bytes / Math.max(1, s.statements)).toFixed(0)} per statement), peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
      `  RSS by stage (MB, sampled): ${[...rssByStage].map(([stage, bytes]) => `${stage} ${(bytes / 1048576).toFixed(0)}`).join(', ')}`,
    ].join('\n'),
  );
  return result;
}

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
}

/** Publishes a built version to the bindings of wrangler.toml (local state or the Cloudflare account). */
export async function runPublish(artifactsDir: string, opts: PublishOptions) {
  const dir = opts.version ? join(artifactsDir, DOMAIN, opts.version) : latestVersionDir(artifactsDir);
  if (!dir || !existsSync(join(dir, 'manifest.json'))) {
    throw new Error(opts.version ? `no built version ${opts.version} in ${join(artifactsDir, DOMAIN)}` : `no built index in ${artifactsDir}: run npm run build:index first`);
  }
  const storage = await openStorage({ remote: opts.remote, persistTo: opts.persistDir });
  try {
    const bar = progressBar('publish');
    const report = await publishVersion(dir, storage.target, (d, t) => bar.update(d, t));
    bar.stop();
    console.log(
      `published ${DOMAIN} ${report.version} to ${storage.where}: ${report.uploaded} objects uploaded (${report.bytes} bytes), ` +
        `${report.skipped} already stored (${report.skippedBytes} bytes)`,
    );
    return report;
  } finally {
    await storage.dispose();
  }
}

export const runPublishLocal = (artifactsDir: string, persistDir: string) => runPublish(artifactsDir, { remote: false, persistDir });

/** Removes published versions older than the `keep` newest (never the current or the previous one). */
export async function runGc(keep: number, opts: { remote: boolean; persistDir: string; dryRun: boolean }) {
  const storage = await openStorage({ remote: opts.remote, persistTo: opts.persistDir });
  try {
    const plan = await collectGarbage(storage.target, DOMAIN, keep, { dryRun: opts.dryRun });
    console.log(
      `${opts.dryRun ? 'would remove' : 'removed'} ${plan.remove.length} of ${plan.versions.length} versions from ${storage.where} ` +
        `(${plan.keys.length} objects, ${plan.bytes} bytes); kept ${plan.keep.join(', ') || 'none'} (current ${plan.current ?? 'none'})` +
        (plan.unlisted.length ? `; kept every stored object: no readable files.json for ${plan.unlisted.join(', ')}` : '') +
        (plan.remove.length ? `; removed ${plan.remove.join(', ')}` : ''),
    );
    return plan;
  } finally {
    await storage.dispose();
  }
}

/** Flags of `publish` and `gc`: --local (default) or --remote, --persist-to <dir>, --version <v>, --keep <n>, --dry-run. */
export function parseStorageArgs(args: readonly string[]) {
  const out = { remote: false, persistDir: undefined as string | undefined, version: undefined as string | undefined, keep: undefined as number | undefined, dryRun: false };
  let target: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--local' || a === '--remote') {
      if (target && target !== a) throw new Error('give either --local or --remote, not both');
      target = a;
      out.remote = a === '--remote';
    } else if (a === '--persist-to') out.persistDir = value();
    else if (a === '--version') out.version = value();
    else if (a === '--keep') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new Error('--keep needs a positive integer');
      out.keep = n;
    } else if (a === '--dry-run') out.dryRun = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (out.remote && out.persistDir) throw new Error('--persist-to is for --local only');
  return out;
}

async function main() {
  const [command] = process.argv.slice(2);
  const filingsDir = resolve(process.env.FILINGS_DIR ?? DEFAULT_FILINGS_DIR);
  const artifactsDir = resolve(process.env.ARTIFACTS_DIR ?? DEFAULT_ARTIFACTS_DIR);
  const persistDir = resolve(process.env.PERSIST_DIR ?? DEFAULT_PERSIST_DIR);
  if (command === 'build') {
    const graphMinStatements = parseGraphMinStatements(process.env.GRAPH_MIN_STATEMENTS);
    const buildArgs = parseBuildArgs(process.argv.slice(3));
    const options = graphMinStatements === undefined ? {} : { graphMinStatements };
    if (buildArgs.partition) {
      const t0 = performance.now();
      const { filings, dir } = await buildPartition(streamCorpus(filingsDir), buildArgs.partition, buildArgs.out!);
      const { index, count } = buildArgs.partition;
      console.log(`segmented partition ${index}/${count}: ${filings} filings in ${((performance.now() - t0) / 1000).toFixed(1)} s -> ${dir} (merge with build:index -- --merge)`);
    } else {
      await runBuild(filingsDir, artifactsDir, {
        ...options,
        ...(buildArgs.merge ? { merge: buildArgs.merge } : {}),
        ...(buildArgs.embeddingModel ? { embeddingModel: buildArgs.embeddingModel } : {}),
        ...(buildArgs.embeddingSeed !== undefined ? { embeddingSeed: buildArgs.embeddingSeed } : {}),
        ...(buildArgs.embeddingMethod ? { embeddingMethod: buildArgs.embeddingMethod } : {}),
        ...(buildArgs.incremental ? { incremental: true } : {}),
      });
    }
  }
  else if (command === 'publish' || command === 'gc') {
    const args = parseStorageArgs(process.argv.slice(3));
    const storage = { remote: args.remote, persistDir: resolve(args.persistDir ?? persistDir) };
    if (command === 'publish') await runPublish(artifactsDir, { ...storage, ...(args.version ? { version: args.version } : {}) });
    else {
      if (args.keep === undefined) throw new Error('gc needs --keep <n>: how many of the newest versions to keep');
      await runGc(args.keep, { ...storage, dryRun: args.dryRun });
    }
  }
  else if (command === 'fetch') await runFetchCommand(process.argv.slice(3), progressBar('fetch'));
  else {
    console.error(
      'usage: cli.ts build | publish [--local|--remote] [--persist-to dir] [--version v] | gc --keep n [--local|--remote] [--dry-run] | fetch --help\n' +
        '  (env: FILINGS_DIR, ARTIFACTS_DIR, PERSIST_DIR, GRAPH_MIN_STATEMENTS)',
    );
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
