/**
 * npm run bench:scale -- --partitions 1,4,8: the partitioned build (docs/decisions/partitioned-build.md) on the
 * replicated corpus, each job a fresh process run one after another as a CI matrix would run them side by side: the
 * model job, N partition jobs, the merge. Per job its wall time and peak RSS, per partition its output bytes (the
 * artifact a job hands to the merge) and the largest single object; then a projection to 20,000 filings with 16 and
 * 32 parallel jobs. Checks that every N gives the same version (byte-identical output). Writes
 * bench/results/scale-partitions.json and bench/SCALE.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { MERGE_NODE_OPTIONS } from '../index-builder/merge';
import { partitionOfIssuer, readPartitionMap } from '../index-builder/partition-map';
import { loadavg } from 'node:os';
import { join } from 'node:path';

export interface Job {
  kind: 'model' | 'partition' | 'merge' | 'whole';
  /** "i/n" for a partition job. */
  label: string;
  seconds: number;
  /** CPU seconds (user and system) of the job: its work, whatever else shared the machine. */
  cpuSeconds: number;
  peakRssMb: number;
  filings: number;
  /** Bytes the job leaves for the next one (a partition's output folder; the version for the merge). */
  outputBytes: number;
  /** Its largest single file. */
  largestFileBytes: number;
  load: number;
}

export interface SplitRun {
  factor: number;
  partitions: number;
  version: string;
  jobs: Job[];
  shards: number;
  statements: number;
  versionBytes: number;
}

/** Total bytes and largest file below a folder. */
function folderBytes(dir: string): { bytes: number; largest: number } {
  let bytes = 0;
  let largest = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const n = statSync(p).size;
        bytes += n;
        largest = Math.max(largest, n);
      }
    }
  };
  walk(dir);
  return { bytes, largest };
}

/** The same job, not waited for: several partition jobs run side by side, as a CI matrix runs them. */
function startJob(
  root: string,
  tsx: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ seconds: number; out: string }> {
  const t0 = performance.now();
  const child = spawn(tsx, ['--expose-gc', 'index-builder/cli/cli.ts', 'build', ...args], {
    cwd: root,
    env: { ...process.env, ...env, GRAPH_MIN_STATEMENTS: 'none' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve({ seconds: (performance.now() - t0) / 1000, out })
        : reject(new Error(`build ${args.join(' ')} failed:\n${err}`)),
    ),
  );
}

/** Runs `tasks` with at most `width` at a time; results in task order. */
async function pool<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const k = next++;
      results[k] = await tasks[k]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  return results;
}

/** One CLI job in a fresh process, as npm run index:build runs it; its wall time and the stdout it printed. */
function runJob(root: string, tsx: string, args: string[], env: NodeJS.ProcessEnv): { seconds: number; out: string } {
  const t0 = performance.now();
  const run = spawnSync(tsx, ['--expose-gc', 'index-builder/cli/cli.ts', 'build', ...args], {
    cwd: root,
    env: { ...process.env, ...env, GRAPH_MIN_STATEMENTS: 'none' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`build ${args.join(' ')} failed:\n${run.stderr}`);
  return { seconds: (performance.now() - t0) / 1000, out: run.stdout };
}

/** The merge job, with the Node options build-index.yml gives it (MERGE_NODE_OPTIONS). */
function runMerge(root: string, tsx: string, dirs: string[], env: NodeJS.ProcessEnv): { seconds: number; out: string } {
  const options = [process.env.NODE_OPTIONS, MERGE_NODE_OPTIONS].filter(Boolean).join(' ');
  return runJob(root, tsx, ['--merge', ...dirs], { ...env, NODE_OPTIONS: options });
}

const mapFile = (artifacts: string, n: number) => join(artifacts, `partition-map-${n}.json`);
const num = (out: string, re: RegExp) => Number(re.exec(out)?.[1]?.replace(/,/g, '') ?? Number.NaN);
const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

/** A merge job's record from what it printed, and the version it wrote under `artifacts`. */
function mergeJob(g: { seconds: number; out: string }, n: number, artifacts: string): { version: string; job: Job } {
  const version = /built sp500 index (\w+)/.exec(g.out)![1]!;
  const { bytes, largest } = folderBytes(join(artifacts, 'sp500', version));
  const job: Job = {
    kind: 'merge',
    label: `merge of ${n}`,
    seconds: g.seconds,
    cpuSeconds: num(g.out, /cpu ([\d.]+) s/),
    peakRssMb: num(g.out, /peak RSS (\d+) MB/),
    filings: num(g.out, /filings (\d+),/),
    outputBytes: bytes,
    largestFileBytes: largest,
    load: load1(),
  };
  return { version, job };
}

/**
 * The model job once, then for each N: its partition jobs (`width` at a time, each a process of its own: its CPU
 * seconds do not depend on how many run beside it, its wall time does), then the merge.
 */
export async function runSplits(
  root: string,
  tsx: string,
  factor: number,
  filingsDir: string,
  counts: number[],
  cache: string,
  width = 1,
) {
  const artifacts = join(cache, `partitioned-${factor}x`);
  rmSync(artifacts, { recursive: true, force: true });
  const env = { FILINGS_DIR: filingsDir, ARTIFACTS_DIR: artifacts };
  console.log(`${factor}x: model job ...`);
  const m = runJob(root, tsx, ['--learn-model'], env);
  const modelId = /learned embedding model (\w+)/.exec(m.out)![1]!;
  const modelFile = join(artifacts, 'sp500/models', `${modelId}.bin`);
  const modelJob: Job = {
    kind: 'model',
    label: 'model',
    seconds: m.seconds,
    cpuSeconds: num(m.out, /cpu ([\d.]+) s/),
    peakRssMb: num(m.out, /peak RSS (\d+) MB/),
    filings: num(m.out, /from (\d+) filings/),
    outputBytes: statSync(modelFile).size,
    largestFileBytes: statSync(modelFile).size,
    load: load1(),
  };
  const runs: SplitRun[] = [];
  for (const n of counts) {
    const dirs = Array.from({ length: n }, (_, k) => join(artifacts, `partials-${n}`, String(k + 1)));
    // The model job's partition map: issuers packed by filing count (index-builder/partition-map.ts).
    const map = mapFile(artifacts, n);
    console.log(runJob(root, tsx, ['--map-partitions', String(n), '--partition-map', map], env).out.trim());
    const partitionJobs = await pool(
      dirs.map((out, k) => async (): Promise<Job> => {
        const label = `${k + 1}/${n}`;
        console.log(`${factor}x: partition ${label} ...`);
        const args = ['--partition', label, '--out', out, '--embedding-model', modelId, '--partition-map', map];
        const p = await startJob(root, tsx, args, env);
        const { bytes, largest } = folderBytes(out);
        return {
          kind: 'partition',
          label,
          seconds: p.seconds,
          cpuSeconds: num(p.out, /cpu ([\d.]+) s/),
          peakRssMb: num(p.out, /peak RSS (\d+) MB/),
          filings: num(p.out, /: (\d+) filings/),
          outputBytes: bytes,
          largestFileBytes: largest,
          load: load1(),
        };
      }),
      width,
    );
    const jobs: Job[] = [modelJob, ...partitionJobs];
    console.log(`${factor}x: merge of ${n} ...`);
    const g = runMerge(root, tsx, dirs, env);
    const { version, job } = mergeJob(g, n, artifacts);
    jobs.push(job);
    runs.push({
      factor,
      partitions: n,
      version,
      jobs,
      shards: num(g.out, /shards (\d+)/),
      statements: num(g.out, /statements (\d+)/),
      versionBytes: job.outputBytes,
    });
    // The last split's partials stay: the freshness run rebuilds one of them (freshness below).
    if (n !== counts.at(-1)) for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  return runs;
}

/**
 * The merge of a split again, from the partials runSplits kept (the last split of each corpus): to measure a change
 * to the merge without building the partitions again. Returns the run with its merge job replaced; the version must
 * not change.
 */
/** Removes the folders earlier remerge runs left, then lets the file system settle (sync, then 20 s). */
export function clearRemerges(cache: string, factors: readonly number[]): void {
  for (const f of factors) rmSync(join(cache, `partitioned-${f}x`, 'remerge'), { recursive: true, force: true });
  spawnSync('sync');
  spawnSync('sleep', ['20']);
}

export function remerge(root: string, tsx: string, run: SplitRun, cache: string): SplitRun {
  const artifacts = join(cache, `partitioned-${run.factor}x`);
  const dirs = Array.from({ length: run.partitions }, (_, k) =>
    join(artifacts, `partials-${run.partitions}`, String(k + 1)),
  );
  if (!dirs.every((d) => existsSync(join(d, 'partial.bin'))))
    throw new Error(`${run.factor}x N = ${run.partitions}: its partials are gone (only a corpus's last split is kept)`);
  // Into a folder of its own, as on a fresh runner, left in place: replacing the version, or deleting the folder
  // before the next merge, would time the file system's discards too (scale.ts clears them before a --remerge run).
  const out = join(artifacts, 'remerge');
  cpSync(join(artifacts, 'sp500/models'), join(out, 'sp500/models'), { recursive: true });
  console.log(`${run.factor}x: merge of ${run.partitions} again ...`);
  const g = runMerge(root, tsx, dirs, { FILINGS_DIR: '', ARTIFACTS_DIR: out });
  const { version, job } = mergeJob(g, run.partitions, out);
  if (version !== run.version) throw new Error(`the merge gave ${version}, not ${run.version} as before`);
  return { ...run, jobs: run.jobs.map((j) => (j.kind === 'merge' ? job : j)) };
}

/** Least squares y = a + b x. */
function lineFit(points: [number, number][]): { a: number; b: number } {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p[0], 0) / n;
  const my = points.reduce((s, p) => s + p[1], 0) / n;
  const sxx = points.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  const b = sxx ? points.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx : 0;
  return { a: my - b * mx, b };
}

/** Least squares y = a + b x + c z (normal equations, Cramer's rule). */
function planeFit(points: [number, number, number][]): { a: number; b: number; c: number } {
  const S = (f: (p: [number, number, number]) => number) => points.reduce((t, p) => t + f(p), 0);
  const n = points.length;
  const [sx, sz, sy] = [S((p) => p[0]), S((p) => p[1]), S((p) => p[2])];
  const [sxx, szz, sxz] = [S((p) => p[0] * p[0]), S((p) => p[1] * p[1]), S((p) => p[0] * p[1])];
  const [sxy, szy] = [S((p) => p[0] * p[2]), S((p) => p[1] * p[2])];
  const det3 = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const A = [
    [n, sx, sz],
    [sx, sxx, sxz],
    [sz, sxz, szz],
  ];
  const rhs = [sy, sxy, szy];
  const d = det3(A);
  const solve = (col: number) => det3(A.map((row, i) => row.map((v, j) => (j === col ? rhs[i]! : v)))) / d;
  return { a: solve(0), b: solve(1), c: solve(2) };
}

/**
 * Wall time at `filings` with `jobs` parallel partition jobs, from the measured jobs' CPU seconds (what each job
 * takes on a runner of its own; wall time here is shared with other work). A partition job here reads the whole
 * replicated corpus and segments its own filings: its CPU seconds are fitted as a + b x own filings + c x corpus
 * filings; on the workflow's runners a partition job pulls its own issuers' filings only, so it costs
 * a + (b + c) x own. Its share is the largest partition's (the measured imbalance of the partition map). The model
 * job: with the live model (a refresh) a download; learning one costs the 8x model job plus reading the rest of the
 * corpus twice (c per filing and read). The merge: a line through merge CPU seconds against shards.
 */
export function project(runs: readonly SplitRun[], filings: number, jobs: number) {
  const corpusOf = (r: SplitRun) => r.jobs.find((j) => j.kind === 'merge')!.filings;
  const points = runs.flatMap((r) =>
    r.jobs
      .filter((j) => j.kind === 'partition')
      .map((j) => [j.filings, corpusOf(r), j.cpuSeconds] as [number, number, number]),
  );
  const p = planeFit(points);
  const imbalance = Math.max(
    1,
    ...runs
      .filter((r) => r.partitions > 1)
      .map((r) => {
        const fs = r.jobs.filter((j) => j.kind === 'partition').map((j) => j.filings);
        return Math.max(...fs) / (fs.reduce((a, b) => a + b, 0) / fs.length);
      }),
  );
  const perShard = runs.map((r) => [r.shards, r.jobs.find((j) => j.kind === 'merge')!.cpuSeconds] as [number, number]);
  const m = lineFit(perShard);
  const largest = runs.reduce((x, r) => (corpusOf(r) > corpusOf(x) ? r : x));
  const filingsPerShard = corpusOf(largest) / largest.shards;
  const modelJob = largest.jobs.find((j) => j.kind === 'model')!;
  const learn = modelJob.cpuSeconds + 2 * Math.max(0, p.c) * (filings - corpusOf(largest));
  const own = (filings / jobs) * imbalance;
  const partition = p.a + (p.b + p.c) * own;
  const merge = m.a + m.b * (filings / filingsPerShard);
  const parts = { partition, merge };
  const dominant = Object.entries(parts).sort((x, y) => y[1] - x[1])[0]![0];
  return {
    filings,
    jobs,
    learn,
    partition,
    merge,
    total: partition + merge,
    totalLearning: learn + partition + merge,
    dominant,
    imbalance,
    fit: { p, m },
  };
}

/** The newest 10-Q of the source corpus (by filing date): the filing a freshness run adds. */
function newest10Q(source: string): { doc_id: string; ticker: string } {
  const docs = readFileSync(join(source, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { doc_id: string; ticker: string; form_type: string; filing_date: string | null })
    .filter((d) => d.form_type === '10-Q' && d.filing_date)
    .sort((a, b) => (a.filing_date! < b.filing_date! ? 1 : a.filing_date! > b.filing_date! ? -1 : 0));
  return docs[0]!;
}

export interface Freshness {
  factor: number;
  partitions: number;
  doc: string;
  /** The one partition job the refresh runs (the issuer's), and the merge. */
  partitionSeconds: number;
  partitionCpuSeconds: number;
  mergeCpuSeconds: number;
  indexBytes: number;
  rewrittenBytes: number;
  rewrittenObjects: number;
  rewrittenByKind: Record<string, { objects: number; bytes: number }>;
}

const fileRefs = (dir: string) =>
  (
    JSON.parse(readFileSync(join(dir, 'files.json'), 'utf8')) as {
      files: { file: string; bytes: number; sha256: string }[];
    }
  ).files;

/**
 * One new 10-Q at scale: the version without it (the corpus one filing short, its issuer's partition rebuilt, every
 * other partition's output reused, merged) against the version with it (the last split runSplits built). The bytes
 * of the second that the first does not hold byte for byte are what a refresh adding the filing rewrites.
 */
export function freshness(
  root: string,
  tsx: string,
  run: SplitRun,
  source: string,
  cache: string,
  replicate: (from: string, out: string, factor: number, exclude: string[]) => Promise<unknown>,
): Promise<Freshness> {
  return (async () => {
    const { factor, partitions: n } = run;
    const artifacts = join(cache, `partitioned-${factor}x`);
    const doc = newest10Q(source);
    const short = join(cache, `corpus-${factor}x-without-newest-10q`);
    if (!existsSync(join(short, 'pages.jsonl.gz'))) await replicate(source, short, factor, [doc.doc_id]);
    const fresh = join(cache, `fresh-${factor}x`);
    rmSync(fresh, { recursive: true, force: true });
    cpSync(join(artifacts, 'sp500/models'), join(fresh, 'sp500/models'), { recursive: true });
    // The split's own map: a refresh rebuilds the partition the built version put the issuer in.
    const map = mapFile(artifacts, n);
    const i = partitionOfIssuer(doc.ticker, { count: n }, readPartitionMap(map));
    const modelId = readdirSync(join(fresh, 'sp500/models'))[0]!.replace(/\.bin$/, '');
    const env = { FILINGS_DIR: short, ARTIFACTS_DIR: fresh };
    const rebuilt = join(fresh, `partial-${i}`);
    console.log(`${factor}x freshness: partition ${i}/${n} without ${doc.doc_id} ...`);
    const args = ['--partition', `${i}/${n}`, '--out', rebuilt, '--embedding-model', modelId, '--partition-map', map];
    const p = runJob(root, tsx, args, env);
    const dirs = Array.from({ length: n }, (_, k) =>
      k + 1 === i ? rebuilt : join(artifacts, `partials-${n}`, String(k + 1)),
    );
    const g = runMerge(root, tsx, dirs, env);
    const before = /built sp500 index (\w+)/.exec(g.out)![1]!;
    const had = new Set(fileRefs(join(fresh, 'sp500', before)).map((r) => `${r.file}:${r.sha256}`));
    const after = fileRefs(join(artifacts, 'sp500', run.version));
    const rewritten = after.filter((r) => !had.has(`${r.file}:${r.sha256}`));
    const byKind: Record<string, { objects: number; bytes: number }> = {};
    for (const r of rewritten) {
      const kind = r.file.includes('/') ? r.file.slice(0, r.file.indexOf('/')) : r.file;
      byKind[kind] ??= { objects: 0, bytes: 0 };
      byKind[kind].objects++;
      byKind[kind].bytes += r.bytes;
    }
    return {
      factor,
      partitions: n,
      doc: doc.doc_id,
      partitionSeconds: p.seconds,
      partitionCpuSeconds: num(p.out, /cpu ([\d.]+) s/),
      mergeCpuSeconds: num(g.out, /cpu ([\d.]+) s/),
      indexBytes: after.reduce((a, r) => a + r.bytes, 0),
      rewrittenBytes: rewritten.reduce((a, r) => a + r.bytes, 0),
      rewrittenObjects: rewritten.length,
      rewrittenByKind: byKind,
    };
  })();
}
