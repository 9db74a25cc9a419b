/**
 * Items incorporated by reference, on real filings: each Item 3 below points at a note, and the sentences its pointer
 * is linked to (index-builder/segment/references.ts) must be the legal disclosure, not the note's first paragraph
 * (leases, guarantees, income taxes). No index is built: segmentation, statements and links only. Skipped without
 * ../shared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCorpus, type Filing } from '../../index-builder/segment/read-corpus';
import { referenceLinks, type PlacedStatement } from '../../index-builder/segment/references';
import { segmentFiling } from '../../index-builder/segment/segment';
import { extractStatements } from '../../index-builder/statements/statements';
import { sharedFilingsAvailable, SHARED, writeSubsetCorpus } from '../support/shared-subset';

const AVAILABLE = sharedFilingsAvailable();
if (!AVAILABLE) console.warn(`real-filing references SKIPPED: no shared data at ${SHARED} (set SHARED_DIR)`);

/** What each filing's Item 3 pointer must lead to, and how it names its note. */
const CASES: Record<string, { how: string; disclosure: RegExp }> = {
  // names two notes, income taxes first; the second is titled "Legal Proceedings"
  ORACLE_2019_10K: { how: 'two notes', disclosure: /Hewlett-Packard/ },
  // names the subsection in quotes inside a leases-first note
  BLOCK_2019_10K: { how: 'quoted subsection', disclosure: /party to, and may in the future be involved in/ },
  // names the subsection after the note's title, behind a dash
  EBAY_2021_10K: { how: 'dash-joined subsection', disclosure: /legal and regulatory proceedings/ },
  // names the note only; its subsection "Litigation and Regulatory Proceedings" shares the item title's word
  CVSHEALTH_2021_10K: { how: 'subsection sharing a title word', disclosure: /legal proceed/ },
};

describe.skipIf(!AVAILABLE)('pointers from Item 3 to the notes, on real filings', () => {
  let work = '';
  let filings: Filing[] = [];
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'references-real-'));
    await writeSubsetCorpus(work, new Set(Object.keys(CASES)));
    filings = await readCorpus(work);
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('links each pointer to the legal disclosure', () => {
    expect(filings.map((f) => f.doc.doc_id).sort()).toEqual(Object.keys(CASES).sort());
    for (const filing of filings) {
      const { how, disclosure } = CASES[filing.doc.doc_id]!;
      const sections = segmentFiling(filing.doc.form_type, filing.pages);
      const statements: PlacedStatement[] = sections.flatMap((section) =>
        extractStatements(section, filing.doc.form_type).map((s) => ({ ...s, section })),
      );
      const links = referenceLinks(sections, statements);
      const pointer = statements.findIndex((s, i) => s.section.itemTag === '10K-Item-3' && links[i]!.length > 0);
      expect(pointer, `${filing.doc.doc_id}: a linked Item 3 pointer`).toBeGreaterThanOrEqual(0);
      const linked = links[pointer]!.map((d) => statements[pointer + d]!.text).join(' ');
      expect(linked, `${filing.doc.doc_id} (${how})`).toMatch(disclosure);
    }
  });
});
