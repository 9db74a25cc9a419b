/**
 * A digest of response bodies, for changes that must not change what the service answers (refactors, fast paths):
 * runQuery in process over the dev questions (FinanceBench dev, docugami 10-Q dev, dev-2) in every mode, medium
 * effort, without a cap and at 4,000 tokens; prints one SHA-256 prefix over all bodies and one per mode, and the
 * `retrieve` calls per question (p50 and max, per mode) when the trace counts them.
 *
 *   npx tsx bench/digest.ts <version dir> [whole]     (whole: whole-shard reads, the range path's slow twin)
 *   DIGEST_OUT=<file>  also writes one line per response (mode, cap, question number, digest) to list differences
 */
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../index-format/normalize';
import { openFileIndex } from '../test/support/file-index';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const [dir, reads] = process.argv.slice(2);
if (!dir) throw new Error('usage: tsx bench/digest.ts <version dir> [whole]');

const questions = devQuestions(ROOT, SHARED);

const reader = openFileIndex(dir, reads === 'whole' ? { shardReads: 'whole' } : {});
const all = createHash('sha256');
const lines: string[] = [];
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
for (const mode of ['basic', 'research', 'agentic_research']) {
  const h = createHash('sha256');
  const calls: number[] = [];
  for (const cap of [null, 4000]) {
    for (const [n, query] of questions.entries()) {
      const req = ResearchRequest.parse({
        query,
        mode,
        effort: 'medium',
        ...(cap ? { retrieval: { max_evidence_tokens: cap } } : {}),
      });
      const { body, trace } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      const text = JSON.stringify(body);
      h.update(text);
      all.update(text);
      lines.push(`${mode} ${cap ?? 'none'} ${n} ${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
      // Before the trace counted them: one per executed pass, one more for a pass's preference retrieval.
      const t = trace as { retrieveCalls?: number; passes?: { skipped?: true; preference: unknown }[] };
      const counted =
        t.retrieveCalls ?? t.passes?.reduce((n, p) => n + (p.skipped ? 0 : 1 + (p.preference ? 1 : 0)), 0);
      if (cap === null && counted !== undefined) calls.push(counted);
    }
  }
  calls.sort((a, b) => a - b);
  const mean = calls.reduce((a, b) => a + b, 0) / (calls.length || 1);
  const retrieves = calls.length
    ? ` (retrieve calls per question: p50 ${quantile(calls, 0.5)}, mean ${mean.toFixed(2)}, max ${calls.at(-1)})`
    : '';
  console.log(`${mode}: ${h.digest('hex').slice(0, 16)}${retrieves}`);
}
console.log(`${questions.length} questions x 3 modes x 2 caps: ${all.digest('hex').slice(0, 16)}`);
if (process.env.DIGEST_OUT) writeFileSync(process.env.DIGEST_OUT, `${lines.join('\n')}\n`);
