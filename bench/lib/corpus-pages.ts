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

/** Corpus pages by document and page, for the answer gold (bench/lib/answer-gold.ts). */
export class PageStore {
  private readonly byDoc = new Map<string, Map<number, string>>();

  constructor(pages: readonly CorpusPage[]) {
    for (const p of pages) {
      let doc = this.byDoc.get(p.docId);
      if (!doc) this.byDoc.set(p.docId, (doc = new Map()));
      doc.set(p.page, p.text);
    }
  }

  text(docId: string, page: number): string | undefined {
    return this.byDoc.get(docId)?.get(page);
  }

  /** The texts of pages named "doc_id#page" (those the corpus has). */
  texts(keys: readonly string[]): string[] {
    return keys.flatMap((k) => {
      const at = k.lastIndexOf('#');
      const t = this.text(k.slice(0, at), Number(k.slice(at + 1)));
      return t === undefined ? [] : [t];
    });
  }

  /** A whole filing's text, its pages in order. */
  filingText(docId: string): string {
    const doc = this.byDoc.get(docId);
    return doc
      ? [...doc.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([, t]) => t)
          .join('\n')
      : '';
  }
}
