import { join } from 'node:path';
import { readCorpus, type Filing } from '../segment/read-corpus';
import { segmentFiling } from '../segment/segment';
import { extractStatements, type RawStatement } from '../statements/statements';

export interface LocatedStatement extends RawStatement {
  docId: string;
  itemTag: string;
}

/**
 * Every sentence statement of the given filings of a page-text corpus, with item tags (for labelled evaluations).
 * `docIds` null: all filings. `pages` (doc_id -> page numbers): only the sections with a line on one of those pages are
 * split into statements; a section's statements do not depend on other sections, so the result for those pages is the
 * same and resolving a few hundred labels no longer splits whole filings (the slow part).
 */
export async function corpusSentences(
  filingsDir: string,
  docIds: ReadonlySet<string> | null,
  pages: ReadonlyMap<string, ReadonlySet<number>> | null = null,
): Promise<LocatedStatement[]> {
  const filings: Filing[] = await readCorpus(join(filingsDir));
  const out: LocatedStatement[] = [];
  for (const f of filings) {
    if (docIds && !docIds.has(f.doc.doc_id)) continue;
    const wanted = pages?.get(f.doc.doc_id);
    if (pages && !wanted) continue;
    for (const section of segmentFiling(f.doc.form_type, f.pages)) {
      if (wanted && !section.lines.some((l) => wanted.has(l.page))) continue;
      for (const s of extractStatements(section, f.doc.form_type)) {
        if (s.kind === 'sentence') out.push({ ...s, docId: f.doc.doc_id, itemTag: section.itemTag });
      }
    }
  }
  return out;
}
