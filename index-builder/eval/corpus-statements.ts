import { join } from 'node:path';
import { readCorpus, type Filing } from '../segment/read-corpus';
import { segmentFiling, type Section, type SectionLine } from '../segment/segment';
import { extractStatements, type RawStatement } from '../statements/statements';

export interface LocatedStatement extends RawStatement {
  docId: string;
  itemTag: string;
}

/**
 * Every sentence statement of the given filings of a page-text corpus, with item tags (for labelled evaluations).
 * `docIds` null: all filings. `pages` (doc_id -> page numbers): only the sentences near those pages are split out: of
 * each section with a line on one of them, the runs of lines from the page before a wanted page to the page after it
 * (a sentence may start on the page before and end on the page after). A run starts a fresh table and paragraph
 * state, which only a paragraph running over a whole page into a wanted one would notice; resolving a few hundred
 * labels then no longer splits whole sections (the slow part). test/unit/status.test.ts asserts that every label
 * still finds its sentence.
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
      for (const part of wanted ? nearPages(section, wanted) : [section]) {
        for (const s of extractStatements(part, f.doc.form_type)) {
          if (s.kind === 'sentence') out.push({ ...s, docId: f.doc.doc_id, itemTag: section.itemTag });
        }
      }
    }
  }
  return out;
}

/** A section's runs of lines within a page of a wanted page, each as a section of its own. */
function nearPages(section: Section, wanted: ReadonlySet<number>): Section[] {
  const near = (page: number) => wanted.has(page - 1) || wanted.has(page) || wanted.has(page + 1);
  const runs: SectionLine[][] = [];
  let previous = Number.NaN;
  for (const line of section.lines) {
    if (!near(line.page)) continue;
    if (!runs.length || line.page - previous > 1) runs.push([]);
    runs.at(-1)!.push(line);
    previous = line.page;
  }
  return runs.map((lines) => ({ ...section, lines }));
}
