/**
 * npm run bench:scale — the builder at 1x and 4x the shared corpus (8x on request): build time, filings per second,
 * peak RSS and artifact bytes, each build a fresh process on a corpus replicated with renamed issuers
 * (scripts/replicate-corpus.ts; replicas are cached under bench/.cache/scale/).
 *
 *   npm run bench:scale                      # factors 1,4
 *   npm run bench:scale -- --factors 1,4,8
 *   npm run bench:scale -- --serve           # then serve each index with wrangler dev (bench/scale-serve.ts)
 *   npm run bench:scale -- --serve-only      # serve the indexes an earlier run built
 *   npm run bench:scale -- --factors 1,8 --partitions 1,4,8 [--jobs k]   # the partitioned build, k partition jobs
 *                                            at a time (bench/scale-partitions.ts); --freshness, --report after it;
 *   npm run bench:scale -- --factors 1,8 --remerge   # each corpus's last split merged again from its kept partials
 * Writes bench/results/scale.json (bench/SCALE.md for partitions). Run on an otherwise idle machine: wall time is
 * shared with whatever else runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { replicateCorpus } from '../scripts/replicate-corpus';
import {
  clearRemerges,
  type Freshness,
  freshness,
  project,
  remerge,
  runSplits,
  type SplitRun,
} from './scale-partitions';
import { serveScale } from './scale-serve';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const SOURCE = join(SHARED, 'corpus/filings');
const CACHE = join(ROOT, 'bench/.cache/scale');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

function factors(): number[] {
  const i = process.argv.indexOf('--factors');
  const list = (i >= 0 ? process.argv[i + 1] : '1,4')!.split(',').map(Number);
  if (!list.every((n) => Number.isInteger(n) && n >= 1))
    throw new Error('--factors takes positive integers, e.g. 1,4,8');
  return list;
}

function corpusFor(factor: number): string {
  if (factor === 1) return SOURCE;
  const dir = join(CACHE, `corpus-${factor}x`);
  if (!existsSync(join(dir, 'pages.jsonl.gz'))) {
    console.log(`replicating the corpus ${factor}x -> ${dir}`);
    const run = spawnSync(
      TSX,
      ['scripts/replicate-corpus.ts', '--from', SOURCE, '--factor', String(factor), '--out', dir],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (run.status !== 0) throw new Error('replication failed');
  }
  return dir;
}

interface Row {
  factor: number;
  filings: number;
  statements: number;
  seconds: number;
  filingsPerSecond: number;
  peakRssMb: number;
  artifactBytes: number;
  largestShardBytes: number;
  /** Format 3's corpus-wide pieces (docs/DECISIONS.md "Partitioned index"): what grows with issuers or terms. */
  directoryBytes: number;
  largestIssuerTableBytes: number;
  largestTermBlockBytes: number;
  termBlocks: number;
  load: number[];
}

function build(factor: number): Row {
  const filingsDir = corpusFor(factor);
  const artifacts = join(CACHE, `artifacts-${factor}x`);
  rmSync(artifacts, { recursive: true, force: true });
  console.log(`building ${factor}x ...`);
  // As npm run build:index runs it (with --expose-gc).
  const run = spawnSync(TSX, ['--expose-gc', 'index-builder/cli/cli.ts', 'build'], {
    cwd: ROOT,
    env: { ...process.env, FILINGS_DIR: filingsDir, ARTIFACTS_DIR: artifacts, GRAPH_MIN_STATEMENTS: 'none' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`build ${factor}x failed:\n${run.stderr}`);
  const out = run.stdout;
  const num = (re: RegExp) => Number(re.exec(out)?.[1]?.replace(/,/g, '') ?? NaN);
  const version = /built sp500 index (\w+)/.exec(out)![1]!;
  const manifest = JSON.parse(readFileSync(join(artifacts, 'sp500', version, 'manifest.json'), 'utf8')) as {
    directory: { bytes: number };
  };
  const { files } = JSON.parse(readFileSync(join(artifacts, 'sp500', version, 'files.json'), 'utf8')) as {
    files: { file: string; bytes: number }[];
  };
  const largest = (prefix: string) =>
    Math.max(0, ...files.filter((f) => f.file.startsWith(prefix)).map((f) => f.bytes));
  const filings = num(/filings (\d+)/);
  const seconds = num(/ in ([\d.]+) s ->/);
  return {
    factor,
    filings,
    statements: num(/statements (\d+)/),
    seconds,
    filingsPerSecond: filings / seconds,
    peakRssMb: num(/peak RSS (\d+) MB/),
    artifactBytes: num(/artifact bytes (\d+)/),
    largestShardBytes: num(/largest shard (\d+) bytes/),
    directoryBytes: manifest.directory.bytes,
    largestIssuerTableBytes: largest('issuers/'),
    largestTermBlockBytes: largest('terms/'),
    termBlocks: files.filter((f) => f.file.startsWith('terms/')).length,
    load: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

if (!existsSync(join(SOURCE, 'pages.jsonl.gz'))) {
  console.error(`bench:scale needs the shared corpus at ${SOURCE} (set SHARED_DIR)`);
  process.exit(1);
}
mkdirSync(CACHE, { recursive: true });
if (process.argv.includes('--serve-only')) {
  await serveScale(factors());
  process.exit(0);
}
const partitionsAt = process.argv.indexOf('--partitions');
const SPLITS_JSON = join(ROOT, 'bench/results/scale-partitions.json');
if (['--freshness', '--report', '--remerge'].some((f) => process.argv.includes(f)) || partitionsAt >= 0) {
  // Runs of other corpora or splits from an earlier invocation stay in the report (one run can be long); read when
  // this one is done, so that two invocations side by side keep each other's runs.
  const readEarlier = (): { runs: SplitRun[]; freshness?: Freshness[] } =>
    existsSync(SPLITS_JSON) ? JSON.parse(readFileSync(SPLITS_JSON, 'utf8')) : { runs: [] };
  const runs: SplitRun[] = [];
  if (partitionsAt >= 0) {
    const counts = process.argv[partitionsAt + 1]!.split(',').map(Number);
    if (!counts.every((n) => Number.isInteger(n) && n >= 1)) throw new Error('--partitions takes positive integers');
    const jobsAt = process.argv.indexOf('--jobs');
    const width = jobsAt >= 0 ? Number(process.argv[jobsAt + 1]) : 1;
    if (!Number.isInteger(width) || width < 1) throw new Error('--jobs takes a positive integer');
    for (const factor of factors())
      runs.push(...(await runSplits(ROOT, TSX, factor, corpusFor(factor), counts, CACHE, width)));
  }
  const earlier = readEarlier();
  const key = (r: { factor: number; partitions: number }) => `${r.factor}/${r.partitions}`;
  const fresh = new Set(runs.map(key));
  const all = [...earlier.runs.filter((r) => !fresh.has(key(r))), ...runs].sort(
    (a, b) => a.factor - b.factor || a.partitions - b.partitions,
  );
  if (process.argv.includes('--remerge')) {
    // Each corpus's last split merged again from its kept partials (a merge change, measured without the partitions).
    clearRemerges(CACHE, factors());
    for (const factor of factors()) {
      const last = all.filter((r) => r.factor === factor).at(-1);
      if (!last) throw new Error(`--remerge ${factor}x: no partitioned run of that corpus yet (--partitions first)`);
      all[all.indexOf(last)] = remerge(ROOT, TSX, last, CACHE);
    }
  }
  let freshnessRows = earlier.freshness ?? [];
  if (process.argv.includes('--freshness')) {
    for (const factor of factors()) {
      const last = all.filter((r) => r.factor === factor).at(-1);
      if (!last) throw new Error(`--freshness ${factor}x: no partitioned run of that corpus yet (--partitions first)`);
      const row = await freshness(ROOT, TSX, last, SOURCE, CACHE, replicateCorpus);
      freshnessRows = [...freshnessRows.filter((f) => f.factor !== factor), row].sort((a, b) => a.factor - b.factor);
    }
  }
  reportSplits(all, freshnessRows);
  process.exit(0);
}
const rows = factors().map(build);
const base = rows.find((r) => r.factor === 1);
const mb = (b: number) => (b / 1e6).toFixed(1);
const kb = (b: number) => (b / 1e3).toFixed(1);
console.log(
  '\n| corpus | filings | statements | build s | filings/s | peak RSS MB | RSS vs 1x | artifacts MB | ' +
    'largest shard MB | directory KB | largest issuer table KB | term blocks | largest term block KB | load |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.factor}x | ${r.filings} | ${r.statements} | ${r.seconds.toFixed(1)} | ` +
      `${r.filingsPerSecond.toFixed(2)} | ${r.peakRssMb} | ` +
      `${base ? (r.peakRssMb / base.peakRssMb).toFixed(2) : '-'} | ` +
      `${mb(r.artifactBytes)} | ${mb(r.largestShardBytes)} | ${kb(r.directoryBytes)} | ` +
      `${kb(r.largestIssuerTableBytes)} | ${r.termBlocks} | ${kb(r.largestTermBlockBytes)} | ` +
      `${r.load.join(' / ')} |`,
  );
}
mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  join(ROOT, 'bench/results/scale.json'),
  `${JSON.stringify({ when: new Date().toISOString(), rows }, null, 2)}\n`,
);
console.log('\nwrote bench/results/scale.json');
if (process.argv.includes('--serve')) await serveScale(factors());

/** The partitioned runs as a table, the identity check, the projection; bench/SCALE.md and the JSON. */
function reportSplits(runs: SplitRun[], fresh: Freshness[]): void {
  const mbs = (b: number) => (b / 1e6).toFixed(1);
  const lines: string[] = [
    '# Partitioned build at scale',
    '',
    `Written by \`npm run bench:scale -- --factors <f> --partitions <n,...>\` (runs of several invocations ` +
      `kept; last ${new Date().toISOString().slice(0, 10)}) (2 cores shared with other work: the load column ` +
      `is the 1-minute load average after each job). Every job is a fresh process; partition jobs ran a few at ` +
      `a time (--jobs), as a CI matrix runs them side by side, so wall times here are shared and CPU seconds ` +
      `measure a job's work. No HNSW graphs (GRAPH_MIN_STATEMENTS=none, as bench:scale builds).`,
    '',
    '| corpus | N | job | filings | wall s | cpu s | peak RSS MB | output MB | largest file MB | load |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs)
    for (const j of r.jobs)
      lines.push(
        `| ${r.factor}x | ${r.partitions} | ${j.label} | ${j.filings} | ${j.seconds.toFixed(1)} | ` +
          `${j.cpuSeconds} | ${j.peakRssMb} | ${mbs(j.outputBytes)} | ${mbs(j.largestFileBytes)} | ${j.load} |`,
      );
  lines.push(
    '',
    '| corpus | N | version | shards | statements | version MB | slowest partition cpu s | partition peak ' +
      'RSS MB (max) | merge cpu s | merge RSS MB | partition outputs MB (sum / largest) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of runs) {
    const parts = r.jobs.filter((j) => j.kind === 'partition');
    const merge = r.jobs.find((j) => j.kind === 'merge')!;
    lines.push(
      `| ${r.factor}x | ${r.partitions} | ${r.version} | ${r.shards} | ${r.statements} | ` +
        `${mbs(r.versionBytes)} | ${Math.max(...parts.map((j) => j.cpuSeconds)).toFixed(1)} | ` +
        `${Math.max(...parts.map((j) => j.peakRssMb))} | ${merge.cpuSeconds.toFixed(1)} | ${merge.peakRssMb} | ` +
        `${mbs(parts.reduce((a, j) => a + j.outputBytes, 0))} / ` +
        `${mbs(Math.max(...parts.map((j) => j.outputBytes)))} |`,
    );
  }
  const byFactor = new Map<number, Set<string>>();
  for (const r of runs) byFactor.set(r.factor, (byFactor.get(r.factor) ?? new Set()).add(r.version));
  // The single-process build of the shared corpus (npm run bench's, whose model is learned from the same sample).
  const latest = join(ROOT, 'bench/.cache/artifacts/sp500/LATEST');
  const single = existsSync(latest) ? readFileSync(latest, 'utf8').trim() : null;
  const at1x = byFactor.get(1);
  lines.push(
    '',
    `Same version for every N: ` +
      `${[...byFactor].map(([f, v]) => `${f}x ${v.size === 1 ? 'yes' : `NO (${[...v].join(', ')})`}`).join('; ')}.` +
      (single && at1x
        ? ` The single-process build of the shared corpus (\`npm run bench\`'s, ${single}): ` +
          `${at1x.size === 1 && at1x.has(single) ? 'the same version as 1x' : 'NOT the same version as 1x'}.`
        : ''),
  );
  const projections = [16, 32].map((jobs) => project(runs, 20_000, jobs));
  lines.push(
    '',
    'Projected wall time at 20,000 filings (from CPU seconds: each job alone on a core of this machine; ' +
      "runner start, `npm ci` and artifact transfer come on top, about a minute or two per stage on GitHub's " +
      'runners):',
    '',
    '| parallel jobs | partition job (largest) cpu s | merge cpu s | total min (live model) | learning a ' +
      'model s | total min (learning) | dominated by |',
    '|---|---|---|---|---|---|---|',
    ...projections.map(
      (p) =>
        `| ${p.jobs} | ${p.partition.toFixed(0)} | ${p.merge.toFixed(0)} | ${(p.total / 60).toFixed(1)} | ` +
        `${p.learn.toFixed(0)} | ${(p.totalLearning / 60).toFixed(1)} | ${p.dominant} |`,
    ),
    '',
    `Partition job CPU fitted over every partition job as ${projections[0]!.fit.p.a.toFixed(1)} s + ` +
      `${projections[0]!.fit.p.b.toFixed(3)} s per own filing + ${projections[0]!.fit.p.c.toFixed(4)} s per ` +
      `corpus filing read (a job here streams the whole replica; on the workflow it pulls its own issuers ` +
      `only); the largest partition holds ${projections[0]!.imbalance.toFixed(2)}x the mean (partition map); ` +
      `merge CPU ${projections[0]!.fit.m.a.toFixed(1)} s + ${projections[0]!.fit.m.b.toFixed(4)} s per shard. ` +
      `The refresh keeps the live model, so its full builds download one; learning one reads the corpus twice.`,
  );
  if (fresh.length) {
    lines.push(
      '',
      "One new 10-Q (the newest of the corpus): the refresh rebuilds only its issuer's partition, reuses the " +
        "others' outputs and merges; what the new version rewrites (objects not byte-identical in the version " +
        'before):',
      '',
      '| corpus | N | filing | partition job cpu s | merge cpu s | index MB | rewritten MB | share | ' +
        'rewritten by kind |',
      '|---|---|---|---|---|---|---|---|---|',
      ...fresh.map(
        (f) =>
          `| ${f.factor}x | ${f.partitions} | ${f.doc} | ${f.partitionCpuSeconds} | ${f.mergeCpuSeconds} ` +
          `| ${mbs(f.indexBytes)} | ${mbs(f.rewrittenBytes)} ` +
          `| ${((100 * f.rewrittenBytes) / f.indexBytes).toFixed(2)}% | ${Object.entries(f.rewrittenByKind)
            .map(([k, v]) => `${k} ${v.objects} / ${mbs(v.bytes)} MB`)
            .join(', ')} |`,
      ),
    );
  }
  const text = `${lines.join('\n')}\n`;
  console.log(`\n${text}`);
  writeFileSync(join(ROOT, 'bench/SCALE.md'), text);
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench/results/scale-partitions.json'),
    `${JSON.stringify({ when: new Date().toISOString(), runs, projections, freshness: fresh }, null, 2)}\n`,
  );
}
