import type { SectionLine } from '../segment/segment';

/**
 * A page's first or last line read as a running head or foot: a title and the printed page number, in either order
 * ("MD&A   35", "2017 Financial Report   45", "41   Verizon 2022 Annual Report on Form 10-K", "2019 FORM 10-K 27",
 * "26 NIKE, INC."). A line with a number at both ends ("2019 FORM 10-K 27") has both readings; only the one whose
 * number moves with the page finds its title on another page.
 */
const LEADING_NUMBER = /^(\d{1,3})\s+(\S.{0,79})$/;
const TRAILING_NUMBER = /^(\S.{0,79}?)\s+(\d{1,3})$/;

function pageMarkReadings(text: string): { title: string; number: number }[] {
  const out: { title: string; number: number }[] = [];
  const lead = LEADING_NUMBER.exec(text);
  if (lead) out.push({ title: lead[2]!, number: Number(lead[1]) });
  const trail = TRAILING_NUMBER.exec(text);
  if (trail) out.push({ title: trail[1]!, number: Number(trail[2]) });
  return out;
}

/**
 * The lines of a section that are its pages' running heads or feet carrying a page number: a page's first or last
 * line read as a title and a number (pageMarkReadings), whose title another page of the section prints at its top or
 * bottom as well, the number moving with the page (the same difference between printed number and page index). Read
 * as a row, such a line was a statement ("MD&A: 35"); a title that repeats without its number moving is a table's
 * line.
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
      for (const reading of pageMarkReadings(lines[i]!.text.trim())) {
        const title = reading.title.replace(/\s+/g, ' ').toLowerCase();
        if (!/[a-z]/.test(title)) continue;
        const offset = reading.number - page;
        const offsets = byTitle.get(title) ?? byTitle.set(title, new Map()).get(title)!;
        const printing = offsets.get(offset);
        if (printing) printing.push(i);
        else offsets.set(offset, [i]);
      }
    }
  }
  const marks = new Set<number>();
  for (const offsets of byTitle.values())
    for (const at of offsets.values())
      if (new Set(at.map((i) => lines[i]!.page)).size >= 2) for (const i of at) marks.add(i);
  return marks;
}
