import { resolve } from 'node:path';
import { openFileIndex } from '../test/support/file-index';
import { askInProcess } from './lib/ask';
const [dir, mode, ...q] = process.argv.slice(2);
const reader = openFileIndex(resolve(dir!));
const r = await askInProcess(reader, { query: q.join(' '), mode: mode as any, cap: 4000 });
console.log(r.body.evidence);
console.error('chars', r.body.evidence.length, 'budget', JSON.stringify(r.body.evidence_budget));
