/**
 * Build the index of a corpus, or reuse it when the corpus bytes and the builder's code are unchanged
 * (bench/lib/fingerprint.ts), then publish it to a local R2/KV state for wrangler dev. The build runs in a child
 * process so its peak RSS is its own; the figures are kept in BUILD.json beside the artifacts for later reuse.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMAIN } from '../../index-builder/build';
import { latestVersionDir, runPublishLocal } from '../../index-builder/cli/cli';
import type { BuildRecord } from './build-index';
import { fingerprint } from './fingerprint';

export interface IndexState {
  versionDir: string;
  build: BuildRecord;
  reused: boolean;
}

export async function ensureIndex(
  repoRoot: string,
  filingsDir: string,
  artifactsDir: string,
  persistDir: string,
  log: (s: string) => void,
  /** Publish to persistDir for wrangler dev (in-process runs alone need not). */
  publish = true,
): Promise<IndexState> {
  const fp = await fingerprint(repoRoot, filingsDir);
  const recordPath = join(artifactsDir, DOMAIN, 'BUILD.json');
  const previous = existsSync(recordPath) ? (JSON.parse(readFileSync(recordPath, 'utf8')) as BuildRecord) : null;
  const reused = previous?.fingerprint === fp.hash && latestVersionDir(artifactsDir) !== null;
  if (!reused) {
    log(`building the index of ${filingsDir} (corpus or builder code changed) ...`);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        join(repoRoot, 'node_modules', '.bin', 'tsx'),
        [join(repoRoot, 'bench/lib/build-index.ts'), filingsDir, artifactsDir, fp.hash],
        {
          cwd: repoRoot,
          stdio: ['ignore', 'inherit', 'inherit'],
        },
      );
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`index build failed (exit ${code})`))));
    });
  } else log(`reusing the index of ${filingsDir} built ${previous!.built_at} (fingerprint unchanged)`);
  const build = JSON.parse(readFileSync(recordPath, 'utf8')) as BuildRecord;
  const versionDir = latestVersionDir(artifactsDir)!;
  if (!versionDir.endsWith(build.version))
    throw new Error(`BUILD.json (${build.version}) does not describe ${versionDir}`);
  if (publish) await runPublishLocal(artifactsDir, persistDir);
  return { versionDir, build, reused };
}
