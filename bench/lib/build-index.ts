/**
 * Child process of the bench: builds the index of FILINGS_DIR into ARTIFACTS_DIR and records what it cost
 * (wall time, this process's peak RSS) in <ARTIFACTS_DIR>/sp500/BUILD.json with the input fingerprint, so a later
 * bench run that reuses the index can still report the build's figures. Run alone so the RSS is the build's only.
 * It keeps the embedding model of the version the cache holds, as the scheduled refresh keeps the live one
 * (docs/decisions/refresh-from-r2.md), so a builder change is measured without a relearned model's noise;
 * BENCH_RELEARN_MODEL=1 learns a new one. A new ANALYZER_VERSION keeps it too, as the refresh does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMAIN } from '../../index-builder/build';
import { latestVersionDir, runBuild } from '../../index-builder/cli/cli';
import type { Manifest } from '../../index-format/types';

export interface BuildRecord {
  fingerprint: string;
  filings_dir: string;
  version: string;
  seconds: number;
  peak_rss_mb: number;
  built_at: string;
  summary: Record<string, unknown>;
}

async function main() {
  const [filingsDir, artifactsDir, fp] = process.argv.slice(2);
  if (!filingsDir || !artifactsDir || !fp)
    throw new Error('usage: build-index.ts <filingsDir> <artifactsDir> <fingerprint>');
  const previous = process.env.BENCH_RELEARN_MODEL ? null : latestVersionDir(artifactsDir);
  // The manifest is read as plain JSON: decodeManifest refuses another analyzer's, and the model outlives the analyzer.
  const model = previous
    ? (JSON.parse(readFileSync(join(previous, 'manifest.json'), 'utf8')) as Partial<Manifest>).embedding_model
    : undefined;
  const t0 = performance.now();
  const result = await runBuild(filingsDir, artifactsDir, model ? { embeddingModel: model } : {});
  const record: BuildRecord = {
    fingerprint: fp,
    filings_dir: filingsDir,
    version: result.version,
    seconds: (performance.now() - t0) / 1000,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    built_at: new Date().toISOString(),
    summary: result.summary,
  };
  writeFileSync(join(artifactsDir, DOMAIN, 'BUILD.json'), `${JSON.stringify(record, null, 2)}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
