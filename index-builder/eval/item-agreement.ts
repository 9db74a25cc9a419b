import { TEN_K_ITEMS } from '../../index-format/fields';
import { POINTER_ITEM_CHARS, segmentFiling } from '../segment/segment';

/** One filing split into items by someone else (edgar-items): the reference we measure segmentation against. */
export interface ReferenceItem {
  itemTag: string;
  text: string;
}

export interface ItemAgreement {
  /** Characters (non-space) of the reference text. */
  chars: number;
  /** Of those, characters our segmenter put in the same item. */
  correct: number;
  perItem: Map<string, { chars: number; correct: number }>;
}

const ORDER = new Map<string, number>(TEN_K_ITEMS.map((item, i) => [`10K-Item-${item}`, i]));

/** Lines per pseudo-page when the joined items are cut into pages (the reference has no page breaks). */
export const LINES_PER_PAGE = 40;

/**
 * Joins a filing's reference items in Form 10-K order, cuts the text into pages, segments it with the real
 * segmenter and counts, line by line, the non-space characters that land in the item the reference put them in.
 * Lines the segmenter leaves unassigned (before the first heading) count as wrong.
 */
export function measureItemAgreement(items: readonly ReferenceItem[], options: { toc?: boolean } = {}): ItemAgreement {
  const sorted = [...items].sort((a, b) => (ORDER.get(a.itemTag) ?? 99) - (ORDER.get(b.itemTag) ?? 99));
  const lines: { text: string; truth: string }[] = [];
  if (options.toc) {
    // A table of contents made of the items' own heading lines with page numbers, as filings print it: a
    // segmenter that takes it for headings consumes the item order and loses the body. Not scored (truth '').
    lines.push({ text: 'TABLE OF CONTENTS', truth: '' });
    sorted.forEach((item, k) => {
      lines.push({ text: `${item.text.split('\n')[0]!.slice(0, 120)}   ${k + 3}`, truth: '' });
    });
    while (lines.length % LINES_PER_PAGE) lines.push({ text: '', truth: '' });
  }
  for (const item of sorted) for (const text of item.text.split('\n')) lines.push({ text, truth: item.itemTag });
  const pages: string[] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE)
    pages.push(
      lines
        .slice(i, i + LINES_PER_PAGE)
        .map((l) => l.text)
        .join('\n'),
    );

  // Map each (page, line-in-page) back to the segment that took it.
  const assigned = new Map<number, string>(); // global line index -> our tag
  for (const section of segmentFiling('10-K', pages)) {
    // The heading line opens the section and belongs to it.
    assigned.set(section.heading.page * LINES_PER_PAGE + section.heading.lineNo, section.itemTag);
    for (const line of section.lines) assigned.set(line.page * LINES_PER_PAGE + line.lineNo, section.itemTag);
  }
  // Where the reference's Item 7 or 8 only points at an MD&A or statements printed after Part IV, it leaves them in
  // Item 15 or 16 by their position; segmentFiling gives them to Item 7 or 8 on purpose (docs/DECISIONS.md
  // "Segmentation"), which agrees.
  const pointsAway = new Set(
    ['10K-Item-7', '10K-Item-8'].filter((tag) => {
      const item = sorted.find((i) => i.itemTag === tag);
      return item !== undefined && item.text.trim().length <= POINTER_ITEM_CHARS;
    }),
  );
  const agrees = (ours: string | undefined, truth: string) =>
    ours === truth ||
    (ours !== undefined && pointsAway.has(ours) && (truth === '10K-Item-15' || truth === '10K-Item-16'));
  const result: ItemAgreement = { chars: 0, correct: 0, perItem: new Map() };
  lines.forEach((line, i) => {
    const n = line.text.replace(/\s+/g, '').length;
    if (!n || !line.truth) return;
    let per = result.perItem.get(line.truth);
    if (!per) result.perItem.set(line.truth, (per = { chars: 0, correct: 0 }));
    per.chars += n;
    result.chars += n;
    if (agrees(assigned.get(i), line.truth)) {
      per.correct += n;
      result.correct += n;
    }
  });
  return result;
}

export function mergeAgreement(into: ItemAgreement, add: ItemAgreement): void {
  into.chars += add.chars;
  into.correct += add.correct;
  for (const [tag, v] of add.perItem) {
    const per = into.perItem.get(tag) ?? { chars: 0, correct: 0 };
    per.chars += v.chars;
    per.correct += v.correct;
    into.perItem.set(tag, per);
  }
}
