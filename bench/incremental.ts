/**
 * npm run bench:incremental — what one new filing costs on the full shared corpus: build the corpus without it
 * (`build:index`), publish that to a fresh local R2/KV, add it back (`build:index -- --incremental`), publish again.
 * Reports the incremental build's time and peak RSS, the objects and bytes it rewrote, and what the second publish
 * uploaded. Each build is a fresh process, run as a user runs it.
 *
 *   npm run bench:incremental                    # the newest filing of the corpus (by filing date)
 *   npm run bench:incremental -- --doc NVIDIA_2024Q2_10Q
 * Works under bench/.cache/incremental/; writes bench/results/incremental.json.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openStorage } from '../index-builder/publish/storage';
import { publishVersion, type PublishReport } from '../index-builder/publish/publish';
import type { FileList } from '../index-format/types';
import { replicateCorpus } from '../scripts/replicate-corpus';

const ROOT = resolve(import.meta.dirname, '..');
const SOURCE = join(resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared')), 'corpus/filings');
const CACHE = join(ROOT, 'bench/.cache/incremental');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

function newestFiling(): string {
  const docs = readFileSync(join(SOURCE, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { doc_id: string; filing_date: string | null });
  const dated = docs
    .filter((d) => d.filing_date)
    .sort((a, b) =>
      a.filing_date! < b.filing_date! ? 1 : a.filing_date! > b.filing_date! ? -1 : a.doc_id < b.doc_id ? -1 : 1,
    );
  return dated[0]!.doc_id;
}

/** `build:index` in a fresh process, as npm runs it; its summary line gives the version, time and peak RSS. */
function build(filingsDir: string, artifacts: string, incremental: boolean) {
  const run = spawnSync(
    TSX,
    ['--expose-gc', 'index-builder/cli/cli.ts', 'build', ...(incremental ? ['--incremental'] : [])],
    {
      cwd: ROOT,
      env: { ...process.env, FILINGS_DIR: filingsDir, ARTIFACTS_DIR: artifacts },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (run.status !== 0) throw new Error(`build failed:\n${run.stderr}`);
  const out = run.stdout;
  return {
    version: /built sp500 index (\w+)/.exec(out)![1]!,
    seconds: Number(/ in ([\d.]+) s ->/.exec(out)![1]),
    peakRssMb: Number(/peak RSS (\d+) MB/.exec(out)![1]),
    rebuilt: /rebuilt \d+ issuers \(([^)]*)\)/.exec(out)?.[1] ?? null,
  };
}

async function publish(dir: string, persistTo: string): Promise<PublishReport & { seconds: number }> {
  const storage = await openStorage({ remote: false, persistTo });
  try {
    const t0 = performance.now();
    const report = await publishVersion(dir, storage.target);
    return { ...report, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await storage.dispose();
  }
}

const refsOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as FileList).files;

if (!existsSync(join(SOURCE, 'pages.jsonl.gz'))) {
  console.error(`bench:incremental needs the shared corpus at ${SOURCE} (set SHARED_DIR)`);
  process.exit(1);
}
const i = process.argv.indexOf('--doc');
const doc = i >= 0 ? process.argv[i + 1]! : newestFiling();
rmSync(CACHE, { recursive: true, force: true });
const short = join(CACHE, 'corpus-short');
const artifacts = join(CACHE, 'artifacts');
const state = join(CACHE, 'state');
console.log(`the corpus without ${doc} -> ${short}`);
await replicateCorpus(SOURCE, short, 1, [doc]);

console.log('full build of the short corpus ...');
const base = build(short, artifacts, false);
const first = await publish(join(artifacts, 'sp500', base.version), state);
console.log(`adding ${doc}: incremental build ...`);
const next = build(SOURCE, artifacts, true);
const second = await publish(join(artifacts, 'sp500', next.version), state);

// What the incremental build rewrote: objects whose bytes differ from (or are absent in) the previous version.
const before = new Map(refsOf(join(artifacts, 'sp500', base.version)).map((r) => [r.file, r.sha256]));
const after = refsOf(join(artifacts, 'sp500', next.version));
const rewritten = after.filter((r) => before.get(r.file) !== r.sha256);
const byKind = new Map<string, { objects: number; bytes: number }>();
for (const r of rewritten) {
  const kind = r.file.includes('/') ? r.file.slice(0, r.file.indexOf('/')) : r.file;
  const k = byKind.get(kind) ?? { objects: 0, bytes: 0 };
  k.objects++;
  k.bytes += r.bytes;
  byKind.set(kind, k);
}
const mb = (b: number) => (b / 1e6).toFixed(1);
const result = {
  when: new Date().toISOString(),
  doc,
  base: { ...base, publish: first },
  incremental: {
    ...next,
    objects: after.length,
    bytes: after.reduce((a, r) => a + r.bytes, 0),
    rewrittenObjects: rewritten.length,
    rewrittenBytes: rewritten.reduce((a, r) => a + r.bytes, 0),
    rewrittenByKind: Object.fromEntries(byKind),
    publish: second,
  },
};
console.log(`
| step | seconds | peak RSS MB | objects | MB | uploaded objects | uploaded MB | skipped (already stored) |
|---|---|---|---|---|---|---|---|
| full build without ${doc}, first publish | ${base.seconds} + ${first.seconds.toFixed(1)} | ${base.peakRssMb} | \
${first.uploaded + first.skipped} | ${mb(first.bytes + first.skippedBytes)} | ${first.uploaded} | ${mb(first.bytes)} | \
${first.skipped} |
| incremental build adding it (rebuilt: ${next.rebuilt}), publish | ${next.seconds} + ${second.seconds.toFixed(1)} | \
${next.peakRssMb} | ${after.length + 1} | ${mb(result.incremental.bytes)} | ${second.uploaded} | ${mb(second.bytes)} | \
${second.skipped} |

rewritten by the incremental build: ${rewritten.length} objects, ${mb(result.incremental.rewrittenBytes)} MB \
(${[...byKind].map(([k, v]) => `${k} ${v.objects} / ${mb(v.bytes)} MB`).join(', ')})`);
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(join(ROOT, 'bench/results/incremental.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log('wrote bench/results/incremental.json');
