import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { CorpusPage } from './baseline';

/** Every page of pages.jsonl.gz (optionally only some documents), in file order. */
export async function readPages(path: string, onlyDocs?: ReadonlySet<string>): Promise<CorpusPage[]> {
  const input = path.endsWith('.gz') ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  const pages: CorpusPage[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { doc_id: string; page: number; text: string };
    if (onlyDocs && !onlyDocs.has(row.doc_id)) continue;
    pages.push({ docId: row.doc_id, page: row.page, text: row.text ?? '' });
  }
  return pages;
}
