/**
 * npm run bench:warm -- <index version dir> [mode ...] — where a warm query's time goes. Runs the dev questions
 * (FinanceBench dev, docugami 10-Q dev, dev-2) through the pure core on a built index, in-process, each question
 * twice: the first run loads and caches its artifacts, the second is timed (warm: what an isolate that has served
 * the question's issuers spends). Reports p50/p95/max per mode, and with --profile the functions that take the most
 * self time over the timed runs (a V8 CPU profile, written to bench/results/warm-<mode>.cpuprofile for a viewer).
 *
 *   npm run bench:warm -- artifacts/sp500/<version>                 # research, basic, agentic_research
 *   npm run bench:warm -- artifacts/sp500/<version> basic --profile
 * Worker-measured latency (workerd, the same code) comes from npm run bench; this is for finding the hot spots.
 */
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { openFileIndex } from '../test/support/file-index';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--') && !['research', 'basic', 'agentic_research'].includes(a));
if (!dir)
  throw new Error('usage: npm run bench:warm -- <index version dir> [research|basic|agentic_research ...] [--profile]');
const modes = args.filter((a) => ['research', 'basic', 'agentic_research'].includes(a));
const profile = args.includes('--profile');

const questions = devQuestions(ROOT, SHARED);

const reader = openFileIndex(dir);
const ask = (query: string, mode: string) => {
  const req = ResearchRequest.parse({ query, mode, retrieval: { max_evidence_tokens: 4000 } });
  return runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** Self time per function from a V8 CPU profile (samples x sampling interval). */
function selfTimes(p: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key =
      `${f.functionName || '(anonymous)'} ` +
      `${f.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self].sort((a, b) => b[1] - a[1]);
}

const session = new Session();
if (profile) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
console.log(`${questions.length} questions, each run twice; the second run timed`);
for (const mode of modes.length ? modes : ['research', 'basic', 'agentic_research']) {
  for (const q of questions) await ask(q, mode); // warm: every artifact these questions read is loaded and cached
  if (profile) await session.post('Profiler.start');
  const ms: number[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    await ask(q, mode);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `${mode.padEnd(17)} warm p50 ${quantile(ms, 0.5).toFixed(1)} ms  p95 ${quantile(ms, 0.95).toFixed(1)} ms ` +
      ` max ${ms.at(-1)!.toFixed(1)} ms`,
  );
  if (profile) {
    const { profile: p } = await session.post('Profiler.stop');
    const total = ms.reduce((a, b) => a + b, 0);
    console.log(`  self time over the timed runs (${total.toFixed(0)} ms in all):`);
    for (const [fn, t] of selfTimes(p as never).slice(0, 15))
      console.log(`    ${((100 * t) / total).toFixed(1).padStart(5)}%  ${t.toFixed(0).padStart(6)} ms  ${fn}`);
    mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(join(ROOT, `bench/results/warm-${mode}.cpuprofile`), JSON.stringify(p));
  }
}
