import { mkdtempSync, readdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { askInProcess } from './lib/ask';
import { answerSupport } from './lib/score';
import { readJsonlFile, SHARED, writeSubsetCorpus } from '../test/support/shared-subset';
import { buildIndex } from '../index-builder/pipeline';
import { readCorpus } from '../index-builder/segment/read-corpus';
import { loadModel } from '../index-builder/vectors/model-store';
import { openFileIndex } from '../test/support/file-index';
const FILINGS = ['3M_2018_10K','3M_2022_10K','ADOBE_2017_10K','AMCOR_2023_10K','BOEING_2022_10K','PEPSICO_2022_10K','NIKE_2019_10K','VERIZON_2022_10K'];
const qs = readJsonlFile<any>(join(SHARED, 'bench/financebench-dev.jsonl')).filter((q) => FILINGS.includes(q.doc_id));
const work = mkdtempSync(join(tmpdir(), 'floor2-'));
await writeSubsetCorpus(work, new Set(FILINGS));
const model = process.env.MODEL ? await loadModel(resolve(process.env.MODEL), join(work, 'artifacts', 'sp500')) : undefined;
const result = await buildIndex(await readCorpus(work), { outDir: join(work, 'artifacts'), graphMinStatements: Infinity, ...(model ? { embeddingModel: model } : {}) });
const models = join(work, 'artifacts', 'sp500', 'models');
try { for (const f of readdirSync(models)) { copyFileSync(join(models, f), `/work/s13/floor-main-${f}`); console.error('model', f); } } catch {}
const reader = openFileIndex(result.dir);
const docOf = new Map((await reader.scope(reader.directory.companies.map((c) => c.ticker))).sources.map((s) => [s.id, s.doc_id]));
for (const mode of ['research', 'basic'] as const) {
  for (const q of qs) {
    const { entries } = await askInProcess(reader, { query: q.question, mode, cap: 4000 });
    const returned = new Set(entries.flatMap((e) => e.occurrences.map((o) => `${docOf.get(o.sourceId)}#${o.page}`)));
    const text = entries.map((e) => e.text).join('\n');
    const sup = answerSupport({ answer: q.answer, justification: q.justification, question: q.question }, text).supported;
    const hit = q.evidence.some((g: any) => returned.has(`${g.doc_id}#${g.page}`));
    console.log(`${mode} ${q.id} ${q.doc_id} hit=${hit} sup=${sup}`);
  }
}
