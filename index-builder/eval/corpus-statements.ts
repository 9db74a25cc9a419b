import { join } from 'node:path';
import { readCorpus, type Filing } from '../read-corpus';
import { segmentFiling } from '../segment';
import { extractStatements, type RawStatement } from '../statements';

export interface LocatedStatement extends RawStatement {
  docId: string;
  itemTag: string;
}

/** Every sentence statement of the given filings of a page-text corpus, with item tags (for labelled evaluations). */
export async function corpusSentences(filingsDir: string, docIds: ReadonlySet<string> | null): Promise<LocatedStatement[]> {
  const filings: Filing[] = await readCorpus(join(filingsDir));
  const out: LocatedStatement[] = [];
  for (const f of filings) {
    if (docIds && !docIds.has(f.doc.doc_id)) continue;
    for (const section of segmentFiling(f.doc.form_type, f.pages)) {
      for (const s of extractStatements(section, f.doc.form_type)) {
        if (s.kind === 'sentence') out.push({ ...s, docId: f.doc.doc_id, itemTag: section.itemTag });
      }
    }
  }
  return out;
}
