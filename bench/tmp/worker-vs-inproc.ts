import { join, resolve } from 'node:path';
import { ensureIndex } from '../lib/index-cache';
import { startWorker, benchApiKey } from '../lib/worker';
import { openFileIndex } from '../../test/support/file-index';
import { askInProcess } from '../lib/ask';
import { parseEvidence } from '../lib/evidence';
import { readJsonl } from '../lib/jsonl';
import { answerSupport, docugamiAnswer } from '../lib/score';
const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const SHARED = join(ROOT, '../shared');
const CACHE = join(ROOT, 'bench/.cache');
const index = await ensureIndex(ROOT, join(SHARED, 'corpus/filings'), join(CACHE, 'artifacts'), join(CACHE, 'state'), (s) => console.error(s));
console.error('index', index.versionDir);
const rows = readJsonl<{ id: string; question: string; answer: string; question_type: string }>(join(SHARED, 'bench/docugami-10q-dev.jsonl'));
const w = await startWorker(ROOT, join(CACHE, 'state'), 8799, 9239);
const reader = openFileIndex(index.versionDir);
try {
  for (const mode of (process.argv[2] ?? 'basic,research').split(',')) {
    let sw = 0, si = 0, same = 0;
    for (const r of rows) {
      const res = await fetch(`${w.base}/v2/sp500/query`, { method: 'POST', headers: { 'X-API-Key': benchApiKey(), 'Content-Type': 'application/json' }, body: JSON.stringify({ query: r.question, mode, effort: 'medium', retrieval: { max_evidence_tokens: 4000 } }) });
      const body = (await res.json()) as { evidence?: string };
      const we = parseEvidence(body.evidence ?? '');
      const ip = await askInProcess(reader, { query: r.question, mode: mode as 'basic', cap: 4000 });
      const a = { answer: docugamiAnswer(r.answer), question: r.question };
      const ws = answerSupport(a, we.map((e) => e.text).join('\n')).supported;
      const is = answerSupport(a, ip.entries.map((e) => e.text).join('\n')).supported;
      sw += ws ? 1 : 0; si += is ? 1 : 0;
      const wt = we.map((e) => e.text).join('\n'), it = ip.entries.map((e) => e.text).join('\n');
      if (wt === it) same++; else if (ws !== is) console.log(mode, r.id, 'worker', ws, 'inproc', is);
    }
    console.log(mode, 'worker support', sw, 'in-process', si, 'identical evidence', same, 'of', rows.length);
  }
} finally {
  await w.stop?.();
}
