/**
 * A digest of response bodies, for changes that must not change what the service answers (refactors, fast paths):
 * runQuery in process over the dev questions (FinanceBench dev, docugami 10-Q dev, dev-2) in every mode, medium
 * effort, without a cap and at 4,000 tokens; prints one SHA-256 prefix over all bodies and one per mode.
 *
 *   npx tsx bench/digest.ts <version dir> [whole]     (whole: whole-shard reads, the range path's slow twin)
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { runQuery } from '../src/core/run-query';
import { ResearchRequest } from '../src/schema/request';
import { normalizeQuery } from '../src/text/normalize';
import { openFileIndex } from '../test/support/file-index';
import { devQuestions } from './lib/dev-questions';

const ROOT = resolve(import.meta.dirname, '..');
const SHARED = resolve(process.env.SHARED_DIR ?? join(ROOT, '../shared'));
const [dir, reads] = process.argv.slice(2);
if (!dir) throw new Error('usage: tsx bench/digest.ts <version dir> [whole]');

const questions = devQuestions(ROOT, SHARED);

const reader = openFileIndex(dir, reads === 'whole' ? { shardReads: 'whole' } : {});
const all = createHash('sha256');
for (const mode of ['basic', 'research', 'agentic_research']) {
  const h = createHash('sha256');
  for (const cap of [null, 4000]) {
    for (const query of questions) {
      const req = ResearchRequest.parse({ query, mode, effort: 'medium', ...(cap ? { retrieval: { max_evidence_tokens: cap } } : {}) });
      const { body } = await runQuery(reader, { ...req, normalizedQuery: normalizeQuery(req.query) });
      const text = JSON.stringify(body);
      h.update(text);
      all.update(text);
    }
  }
  console.log(`${mode}: ${h.digest('hex').slice(0, 16)}`);
}
console.log(`${questions.length} questions x 3 modes x 2 caps: ${all.digest('hex').slice(0, 16)}`);
