/**
 * npm run bench:cpu -- <index version dir> [--fresh <n>] — the CPU time one query costs, the figure wrangler.toml's
 * [limits] cpu_ms must cover (docs/decisions/cpu-limit.md). Runs the pure core in-process on a built index and reads
 * the main thread's CPU clock (process.threadCpuUsage: user + system, so the synchronous file reads that stand in for
 * R2 count too, which makes the figure an over-estimate) around each query:
 *   artifact-cold  every dev question with a new reader (every artifact read, verified and decoded, as an isolate
 *                  that has not seen the question's issuers does), per mode, at effort medium and high;
 *   warm           the same question again on that reader;
 *   first query    --fresh <n> (default 6) new processes, each timing its first query (code not yet optimised by the
 *                  JIT, as in a new isolate), spread over the questions and modes.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { openFileIndex } from '../test/support/file-index';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const MODES = ['basic', 'research', 'agentic_research'] as const;
const EFFORTS = ['medium', 'high'] as const;

const args = process.argv.slice(2);
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dir) throw new Error('usage: npm run bench:cpu -- <index version dir> [--fresh <n>]');
const flag = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

const questions = devQuestions(ROOT, SHARED);

/** Main-thread CPU milliseconds of one query on `reader`. */
async function cpuMs(
  reader: ReturnType<typeof openFileIndex>,
  query: string,
  mode: string,
  effort: string,
): Promise<number> {
  const req = ResearchRequest.parse({ query, mode, effort });
  const valid = { ...req, normalizedQuery: normalizeQuery(req.query) };
  const before = process.threadCpuUsage();
  await runQuery(reader, valid);
  const used = process.threadCpuUsage(before);
  return (used.user + used.system) / 1000;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const line = (label: string, ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(1).padStart(6);
  return (
    `${label.padEnd(34)} n=${String(s.length).padStart(4)}  p50 ${f(quantile(s, 0.5))}  p95 ` +
    `${f(quantile(s, 0.95))}  p99 ${f(quantile(s, 0.99))}  max ${f(s.at(-1)!)} ms`
  );
};

const first = flag('--first');
if (first !== undefined) {
  // Child mode: one query, the first this process runs.
  const [qi, mode] = first.split(':');
  console.log(JSON.stringify({ ms: await cpuMs(openFileIndex(dir), questions[Number(qi)]!, mode!, 'medium') }));
} else {
  console.log(`${questions.length} dev questions; CPU ms of the main thread per query`);
  const all: { cold: number[]; warm: number[] } = { cold: [], warm: [] };
  for (const mode of MODES) {
    for (const effort of EFFORTS) {
      const cold: number[] = [];
      const warm: number[] = [];
      for (const q of questions) {
        const reader = openFileIndex(dir);
        cold.push(await cpuMs(reader, q, mode, effort));
        warm.push(await cpuMs(reader, q, mode, effort));
      }
      console.log(line(`${mode}/${effort} artifact-cold`, cold));
      console.log(line(`${mode}/${effort} warm`, warm));
      all.cold.push(...cold);
      all.warm.push(...warm);
    }
  }
  console.log(line('all artifact-cold', all.cold));
  console.log(line('all warm', all.warm));
  const fresh = Number(flag('--fresh') ?? 6);
  const firsts: number[] = [];
  for (let i = 0; i < fresh; i++) {
    const qi = Math.floor((i * questions.length) / fresh);
    const out = execFileSync(
      join(ROOT, 'node_modules/.bin/tsx'),
      [join(ROOT, 'bench/cpu.ts'), dir, '--first', `${qi}:${MODES[i % MODES.length]}`],
      { encoding: 'utf8' },
    );
    firsts.push((JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number }).ms);
  }
  if (firsts.length) console.log(line('first query of a new process', firsts));
}
