/**
 * Quality floors build a small index of real filings from ../shared: only the filings a question subset needs, with
 * the real builder, read through the pure core. The shared data is optional; callers skip without it.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { buildIndex } from '../../index-builder/pipeline';
import { readCorpus } from '../../index-builder/segment/read-corpus';
import type { IndexReader } from '../../index-format/index-reader';
import { openFileIndex } from './file-index';

export const SHARED = resolve(process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../../shared'));
export const FILINGS = join(SHARED, 'corpus/filings');
export const sharedFilingsAvailable = () => existsSync(join(FILINGS, 'pages.jsonl.gz'));

export function readJsonlFile<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export async function writeSubsetCorpus(dir: string, docIds: ReadonlySet<string>) {
  const docs = readFileSync(join(FILINGS, 'documents.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && docIds.has((JSON.parse(l) as { doc_id: string }).doc_id));
  writeFileSync(join(dir, 'documents.jsonl'), `${docs.join('\n')}\n`);
  const lines: string[] = [];
  const input = createReadStream(join(FILINGS, 'pages.jsonl.gz')).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    // The doc_id is the first field of every row; a prefix test avoids parsing 48k pages.
    const m = /^\{"doc_id": ?"([^"]+)"/.exec(line);
    if (m && docIds.has(m[1]!)) lines.push(line);
  }
  writeFileSync(join(dir, 'pages.jsonl'), `${lines.join('\n')}\n`);
}

/** Builds the index of these filings in a temporary directory; `dispose` removes it. */
export async function buildSubsetIndex(
  docIds: readonly string[],
): Promise<{ reader: IndexReader; dir: string; dispose: () => void }> {
  const work = mkdtempSync(join(tmpdir(), 'quality-floor-'));
  await writeSubsetCorpus(work, new Set(docIds));
  const result = await buildIndex(await readCorpus(work), {
    outDir: join(work, 'artifacts'),
    graphMinStatements: Infinity,
  });
  return {
    reader: openFileIndex(result.dir),
    dir: result.dir,
    dispose: () => rmSync(work, { recursive: true, force: true }),
  };
}
