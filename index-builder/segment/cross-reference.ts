import { TEN_K_ITEMS, TEN_K_ITEM_TITLES } from '../../index-format/fields';
import type { Section } from './segment';

/**
 * 10-Ks laid out as an annual report (McDonald's, Intel) print no "Item 7" headings in the body: a "Form 10-K
 * Cross-Reference Index" near the end maps each item to printed page numbers ("Item 7 ... Pages 8-35"; Intel lists
 * sub-topics under an item, each with its pages). The heading-based segmenter finds nothing there (the index
 * itself is a table of contents) and the whole filing would be lost, so this reads the index instead:
 *   1. the index: the page titled "cross-reference index" whose Item lines carry page references;
 *   2. printed page numbers: the offset between the PDF page and the number its last line ends with, taken as
 *      the most common one (page footers "McDonald's Corporation 2022 Annual Report 35");
 *   3. each page goes to the item with the narrowest reference range that contains it (Intel's MD&A "Pages
 *      17-41" inside "Description of business Pages 2-36" is MD&A); a page no item names continues the previous
 *      page's item; pages before the first named page (cover, contents) stay unassigned; pages after the last
 *      named one (signatures, appended exhibits) go to Item 15 when the index names it.
 * Consecutive pages of one item form one section; an item whose pages come back later gets another section.
 */
export interface CrossReferenceItem {
  item: string;
  title: string;
  /** Printed page ranges, inclusive. */
  ranges: [number, number][];
}

const INDEX_TITLE = /cross[- ]reference index/i;
const ITEM_LINE = /^\s*Item\s+(\d{1,2})\s*([A-C])?\.?(?:\s{2,}|\s*$)(.*)$/i;
const PAGE_REFS = /\bPages?\s+(\d{1,3}(?:\s*[-–]\s*\d{1,3})?(?:\s*,\s*\d{1,3}(?:\s*[-–]\s*\d{1,3})?)*)/i;
const STANDARD_TITLES = new Map(TEN_K_ITEM_TITLES.map(([item, title]) => [item, title]));

function parseRanges(refs: string): [number, number][] {
  return refs
    .split(',')
    .map((part) => {
      const [a, b] = part.split(/[-–]/).map((n) => Number(n.trim()));
      return [a!, b ?? a!] as [number, number];
    })
    .filter(([a, b]) => a > 0 && b >= a);
}

/** The cross-reference index of a filing: its page and the items with their printed page ranges, or null. */
export function parseCrossReferenceIndex(
  pages: readonly string[],
): { page: number; items: CrossReferenceItem[] } | null {
  for (let p = pages.length - 1; p >= 0; p--) {
    const lines = pages[p]!.split('\n');
    const start = lines.findIndex((l) => INDEX_TITLE.test(l));
    if (start < 0) continue;
    const items: CrossReferenceItem[] = [];
    let current: CrossReferenceItem | null = null;
    for (const line of lines.slice(start + 1)) {
      if (/^\s*Signatures\b/i.test(line)) break;
      const m = ITEM_LINE.exec(line);
      if (m) {
        const item = (m[1]! + (m[2] ?? '')).toUpperCase();
        if (!TEN_K_ITEMS.includes(item)) continue;
        const rest = m[3] ?? '';
        // The standard title: index lines wrap titles around the item number ("Management's Discussion ..." above
        // "Item 7.   Operations:"), so the line's own words are often a fragment.
        current = { item, title: STANDARD_TITLES.get(item) ?? '', ranges: [] };
        items.push(current);
        const refs = PAGE_REFS.exec(rest);
        if (refs) current.ranges.push(...parseRanges(refs[1]!));
        continue;
      }
      // Sub-topic lines under an item ("   Liquidity   Pages 4-5, 42-44") add their pages to it.
      const refs = PAGE_REFS.exec(line);
      if (refs && current) current.ranges.push(...parseRanges(refs[1]!));
    }
    const referenced = items.filter((i) => i.ranges.length);
    // An index names most items; three with pages rules out a stray sentence mentioning the phrase.
    if (referenced.length >= 3) return { page: p, items: referenced };
  }
  return null;
}

/** PDF page index minus printed page number, the most common over pages whose last line ends in a number. */
export function printedPageOffset(pages: readonly string[]): number | null {
  const counts = new Map<number, number>();
  let numbered = 0;
  pages.forEach((text, i) => {
    const lines = text.split('\n').filter((l) => l.trim());
    const m = /(?:^|\s)(\d{1,3})\s*$/.exec(lines[lines.length - 1] ?? '');
    if (!m) return;
    numbered++;
    const d = i - Number(m[1]);
    counts.set(d, (counts.get(d) ?? 0) + 1);
  });
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  // Most numbered pages must agree, or the numbers are something else (table totals, exhibit page counts).
  return best && best[1] >= Math.max(5, numbered * 0.4) ? best[0] : null;
}

export function segmentByCrossReference(pages: readonly string[]): Section[] {
  const index = parseCrossReferenceIndex(pages);
  if (!index) return [];
  const offset = printedPageOffset(pages);
  if (offset === null) return [];
  const itemOfPage: (CrossReferenceItem | null)[] = pages.map((_, i) => {
    if (i === index.page) return null;
    const printed = i - offset;
    let best: CrossReferenceItem | null = null;
    let width = Infinity;
    for (const it of index.items) {
      for (const [a, b] of it.ranges) {
        if (printed >= a && printed <= b && b - a < width) {
          best = it;
          width = b - a;
        }
      }
    }
    return best;
  });
  const named = itemOfPage.map((it, i) => (it ? i : -1)).filter((i) => i >= 0);
  if (!named.length) return [];
  const first = named[0]!;
  const last = named[named.length - 1]!;
  const exhibits = index.items.find((it) => it.item === '15') ?? null;
  const sections: Section[] = [];
  let current: Section | null = null;
  let currentItem: CrossReferenceItem | null = null;
  for (let page = first; page < pages.length; page++) {
    if (page === index.page) continue;
    const item: CrossReferenceItem | null = page > last ? exhibits : (itemOfPage[page] ?? currentItem);
    if (!item) continue;
    let offsetInPage = 0;
    for (const [lineNo, text] of pages[page]!.split('\n').entries()) {
      const lineOffset = offsetInPage;
      offsetInPage += text.length + 1;
      if (!text.trim()) continue;
      if (item !== currentItem || !current) {
        current = {
          itemTag: `10K-Item-${item.item}`,
          itemCode: `I${item.item}`,
          title: item.title,
          heading: { page, lineNo },
          lines: [],
        };
        sections.push(current);
        currentItem = item;
      }
      current.lines.push({ page, lineNo, offset: lineOffset, text });
    }
  }
  return sections;
}
