import { TEN_K_ITEMS, TEN_Q_ITEMS } from '../src/filters/fields';

/** A contiguous run of a filing that belongs to one item. Lines keep their page numbers. */
export interface Section {
  itemTag: string;
  itemCode: string; // short form for source ids: I7, P1I2
  title: string;
  /** Where the heading line stands (page, line index in the page). */
  heading: { page: number; lineNo: number };
  lines: SectionLine[];
}

/** One non-empty line of a section: its page, its index among the page's lines and its character offset there. */
export interface SectionLine {
  page: number;
  lineNo: number;
  offset: number;
  text: string;
}

const TEN_K_ORDER = new Map<string, number>(TEN_K_ITEMS.map((item, i) => [item, i]));
const HEADING =
  /^\s*(?:PART\s+(I{1,3}|IV)\s*[.,:—–-]?\s*)?ITEM\s*(\d{1,2})\s*([A-C])?(?![\w])(?:\s*[.:—–-])*\s*(.*)$/i;
const PART_LINE = /^\s*PART\s+(I{1,3}|IV)\b\s*[.,:—–-]?\s*(.*)$/i;

interface HeadingMatch {
  part: string | null;
  item: string;
  title: string;
}

function matchHeading(line: string): HeadingMatch | null {
  // Extraction artefacts put spaces inside words ("I tem 7", "Busines s"); squeeze the word "item" only.
  const m = HEADING.exec(line.replace(/^\s*I\s+tem\b/i, 'Item'));
  if (!m) return null;
  // Underlining dashes ("Business - --------") are layout, not title.
  const title = (m[4] ?? '').replace(/[-_=]{3,}/g, ' ').replace(/\s+-\s+(?=\S)/g, ' ').replace(/\s+/g, ' ').trim();
  // A heading is followed by its title (capitalised) or nothing; "Item 7 of this report ..." is a reference.
  if (title && !/^[A-Z"“(]/.test(title)) return null;
  if (title.length > 400) return null; // a paragraph that happens to start with "Item 7", not a heading
  return { part: m[1]?.toUpperCase() ?? null, item: (m[2]! + (m[3] ?? '')).toUpperCase(), title };
}

/**
 * Table-of-contents pages list many items; their lines are never headings. A heading looks like a ToC line when it
 * ends in a page number or the next line (or the one after a short title line) is another heading: a body heading
 * is followed by its text. A page is a ToC when it has at least 3 such lines making up most of its headings, so a
 * body page with five short Part III items ("Not applicable.") stays a body page.
 */
function isTocPage(lines: string[]): boolean {
  const nonEmpty = lines.filter((l) => l.trim());
  let headings = 0;
  let tocLike = 0;
  nonEmpty.forEach((line, i) => {
    if (!matchHeading(line)) return;
    headings++;
    const next = nonEmpty[i + 1] ?? '';
    const after = nonEmpty[i + 2] ?? '';
    const endsInPage = /(?:\s|\.)(?:[A-Z]-)?\d{1,3}$/.test(line.trim());
    const isShortTitle = next.trim().length < 70 && !/[.:]$/.test(next.trim()) && !matchHeading(next);
    if (endsInPage || (matchHeading(next) && !PART_LINE.test(next)) || (isShortTitle && matchHeading(after)) || /^\d{1,3}$/.test(next.trim())) tocLike++;
  });
  const titled = /\b(TABLE OF CONTENTS|INDEX)\b/i.test(nonEmpty.slice(0, 6).join(' '));
  return tocLike >= 3 && tocLike >= headings * (titled ? 0.5 : 0.7);
}

/**
 * Splits a filing's pages into items. 10-K: `10K-Item-<item>` in the order of Form 10-K, accepting a heading only
 * when it moves forward (cross-references and repeated running headers never move the cursor back).
 * 10-Q: `10Q-Part<I|II>-Item-<item>`, with the part taken from the last "PART I/II" line.
 * Text before the first item heading (cover page, table of contents) is not assigned to any item.
 */
export function segmentFiling(formType: string, pages: readonly string[]): Section[] {
  const isTenK = formType === '10-K';
  const sections: Section[] = [];
  let current: Section | null = null;
  let lastOrder = -1;
  let part: 'I' | 'II' = 'I';

  pages.forEach((pageText, page) => {
    const lines = pageText.split('\n');
    const toc = isTocPage(lines);
    let offset = 0;
    for (const [lineNo, line] of lines.entries()) {
      const lineOffset = offset;
      offset += line.length + 1;
      if (!toc) {
        const partLine = PART_LINE.exec(line);
        if (partLine && !/^\s*PART\s+\S+\s+ITEM/i.test(line) && (partLine[2] ?? '').length < 80) {
          const p = partLine[1]!.toUpperCase();
          if (p === 'I' || p === 'II') part = p;
        }
        const h = matchHeading(line);
        if (h) {
          if (h.part === 'I' || h.part === 'II') part = h.part;
          const next = isTenK ? tenKSection(h, lastOrder, page, lineNo) : tenQSection(h, part, current, page, lineNo);
          if (next) {
            if (isTenK) lastOrder = TEN_K_ORDER.get(h.item)!;
            current = next;
            sections.push(current);
            continue;
          }
        }
      }
      if (current && line.trim()) current.lines.push({ page, lineNo, offset: lineOffset, text: line });
    }
  });
  return sections.filter((s) => s.lines.length > 0);
}

function tenKSection(h: HeadingMatch, lastOrder: number, page: number, lineNo: number): Section | null {
  const order = TEN_K_ORDER.get(h.item);
  if (order === undefined || order <= lastOrder) return null;
  return { itemTag: `10K-Item-${h.item}`, itemCode: `I${h.item}`, title: h.title, heading: { page, lineNo }, lines: [] };
}

function tenQSection(h: HeadingMatch, part: 'I' | 'II', current: Section | null, page: number, lineNo: number): Section | null {
  const items: readonly string[] = TEN_Q_ITEMS[part];
  if (!items.includes(h.item)) return null;
  const tag = `10Q-Part${part}-Item-${h.item}`;
  if (current?.itemTag === tag) return null; // a running header repeating the current item
  return { itemTag: tag, itemCode: `P${part === 'I' ? 1 : 2}I${h.item}`, title: h.title, heading: { page, lineNo }, lines: [] };
}
