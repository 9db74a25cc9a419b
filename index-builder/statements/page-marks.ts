import type { SectionLine } from '../segment/segment';

/**
 * A page's first or last line shaped as a running head or foot: a title and the printed page number, in either order
 * ("MD&A   35", "2017 Financial Report   45", "41   Verizon 2022 Annual Report on Form 10-K").
 */
const PAGE_MARK = /^(?:(\d{1,3})\s{3,}(\S.{0,79}?)|(\S.{0,79}?)\s{3,}(\d{1,3}))$/;

/**
 * The lines of a section that are its pages' running heads or feet carrying a page number: a page's first or last line
 * shaped as a title and a number (PAGE_MARK), whose title another page of the section prints at its top or bottom as
 * well, the number moving with the page (the same difference between printed number and page index). Read as a row,
 * such a line was a statement ("MD&A: 35"); a title that repeats without its number moving is a table's line.
 */
export function runningPageMarks(lines: readonly SectionLine[]): Set<number> {
  const ends = new Map<number, number[]>(); // page -> indexes of its first and last non-blank lines
  for (const [i, line] of lines.entries()) {
    if (!line.text.trim()) continue;
    const at = ends.get(line.page);
    if (!at) ends.set(line.page, [i]);
    else at[1] = i;
  }
  // title -> page offset (printed number minus page index) -> the lines that print it
  const byTitle = new Map<string, Map<number, number[]>>();
  for (const [page, at] of ends) {
    for (const i of new Set(at)) {
      const m = PAGE_MARK.exec(lines[i]!.text.trim());
      if (!m) continue;
      const title = (m[2] ?? m[3]!).replace(/\s+/g, ' ').toLowerCase();
      if (!/[a-z]/.test(title)) continue;
      const offset = Number(m[1] ?? m[4]) - page;
      const offsets = byTitle.get(title) ?? byTitle.set(title, new Map()).get(title)!;
      const printing = offsets.get(offset);
      if (printing) printing.push(i);
      else offsets.set(offset, [i]);
    }
  }
  const marks = new Set<number>();
  for (const offsets of byTitle.values())
    for (const at of offsets.values())
      if (new Set(at.map((i) => lines[i]!.page)).size >= 2) for (const i of at) marks.add(i);
  return marks;
}
