import { financialStatementTitle } from '../../index-format/financial-statements';
import type { SectionLine } from '../segment/segment';

/** Each page's non-blank lines (indexes into the section's lines, in order), by page. */
type PageLines = Map<number, number[]>;

function linesByPage(lines: readonly SectionLine[]): PageLines {
  const pages: PageLines = new Map();
  for (const [i, line] of lines.entries()) if (line.text.trim()) pushTo(pages, line.page, i);
  return pages;
}

/** Adds `value` to the list `map` holds under `key`. */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The pages that `at` (line indexes) are on, counted once each. */
const pageCount = (lines: readonly SectionLine[], at: readonly number[]) => new Set(at.map((i) => lines[i]!.page)).size;

/** A line's text as repeats are compared: trimmed, lower case, one space for any run of whitespace. */
const spelled = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

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
export function runningPageMarks(lines: readonly SectionLine[], pages = linesByPage(lines)): Set<number> {
  // title -> page offset (printed number minus page index) -> the lines that print it
  const byTitle = new Map<string, Map<number, number[]>>();
  for (const [page, at] of pages) {
    for (const i of new Set([at[0]!, at.at(-1)!])) {
      for (const reading of pageMarkReadings(lines[i]!.text.trim())) {
        const title = spelled(reading.title);
        if (!/[a-z]/.test(title)) continue;
        const offset = reading.number - page;
        const offsets = byTitle.get(title) ?? byTitle.set(title, new Map()).get(title)!;
        pushTo(offsets, offset, i);
      }
    }
  }
  const marks = new Set<number>();
  for (const offsets of byTitle.values())
    for (const at of offsets.values()) if (pageCount(lines, at) >= 2) for (const i of at) marks.add(i);
  return marks;
}

/**
 * A page's first lines a running head may take: a title, and the company line under it ("Financial Review" over
 * "Pfizer Inc. and Subsidiary Companies"). Its last lines, for a running foot.
 */
const RUNNING_LINES = 2;
/** Pages of a section that must print a line at their top (foot) for it to read as a running head (foot). */
const RUNNING_PAGES = 3;

/**
 * Whether a line may be a running head without a page number: a title in prose, not a table's line (no column gaps,
 * no figure, no period or scale words: a continued table repeats its header at each page's top), not a financial
 * statement's title or an item's heading (they start what follows them), not a label that runs on (":", ",").
 */
function headShaped(text: string): boolean {
  return (
    footShaped(text) &&
    !/[:,;]$/.test(text) &&
    !/^(?:part|item)\b/i.test(text) &&
    !financialStatementTitle(text) &&
    !/(?<![\p{L}\d])\d/u.test(text) &&
    !/\b(?:ended|months?|years?|quarters?|millions?|thousands?|billions?|percent)\b/i.test(text)
  );
}

/** Whether a line may be a running foot: short, with a letter, no column gaps. */
function footShaped(text: string): boolean {
  return text.length <= 80 && /\p{L}/u.test(text) && !/\s{3,}/.test(text);
}

/**
 * Lines printed word for word, in the same place, on RUNNING_PAGES or more pages of a section: among each page's
 * first RUNNING_LINES lines (`top`) or its last (foot), those `shaped` accepts.
 */
function runningLines(
  lines: readonly SectionLine[],
  pages: PageLines,
  top: boolean,
  shaped: (text: string) => boolean,
): Set<number> {
  const byText = new Map<string, number[]>();
  for (const at of pages.values())
    for (const i of top ? at.slice(0, RUNNING_LINES) : at.slice(-RUNNING_LINES)) {
      const text = lines[i]!.text.trim();
      if (shaped(text)) pushTo(byText, spelled(text), i);
    }
  const running = new Set<number>();
  for (const at of byText.values()) if (pageCount(lines, at) >= RUNNING_PAGES) for (const i of at) running.add(i);
  return running;
}

/** A title a page carries over from the one before ("Fair Value Measurements (Continued)"). */
export const CARRIED_OVER = /\(continued\)\s*$/i;

/**
 * The most lines a page's running header takes before its text goes on: under "Table of Contents", the company, the
 * notes' title, a carried-over title.
 */
export const HEADER_LINES = 4;

/**
 * A title that carries over from the page before, among a page's first lines: a running head however few pages print
 * it (a note over two pages prints its title again on the second).
 */
const carriesOver = (text: string) => CARRIED_OVER.test(text) && footShaped(text);

/**
 * A section's running heads without a page number: lines shaped as titles (headShaped) that three or more of its
 * pages print word for word among their first lines. Pfizer's Financial Review prints "Pfizer Inc. and Subsidiary
 * Companies" under "Financial Review" on every page; read as prose it was a statement of its own, or glued onto the
 * sentence the page opened with.
 */
export function runningHeads(lines: readonly SectionLine[], pages = linesByPage(lines)): Set<number> {
  const heads = runningLines(lines, pages, true, headShaped);
  // A carried-over title printed over two lines ("Item 7—Management's Discussion ... (amounts in millions, except per
  // share," over "share, membership fee, and warehouse count data) (Continued)"): its first line, printed word for word
  // above the second on RUNNING_PAGES or more pages, is the head's too, whatever its shape.
  const firstLines = new Map<string, number[]>();
  for (const at of pages.values()) {
    const top = at.slice(0, HEADER_LINES);
    top.forEach((i, k) => {
      if (!carriesOver(lines[i]!.text.trim())) return;
      heads.add(i);
      if (k === 0) return;
      pushTo(firstLines, spelled(lines[top[k - 1]!]!.text), top[k - 1]!);
    });
  }
  for (const at of firstLines.values()) if (pageCount(lines, at) >= RUNNING_PAGES) for (const i of at) heads.add(i);
  return heads;
}

/**
 * A section's running feet without a page number ("© 2018 Corning Incorporated. All Rights Reserved"): lines three or
 * more of its pages print word for word among their last lines. They are read as before; a paragraph they end does
 * not go on past the running head of the next page.
 */
function runningFeet(lines: readonly SectionLine[], pages: PageLines): Set<number> {
  return runningLines(lines, pages, false, footShaped);
}

/** What a section's pages print around their text: the lines its statements are read without. */
export interface RunningText {
  /** Running heads and feet that carry the page number (runningPageMarks): never read. */
  marks: Set<number>;
  /** Running heads without one (runningHeads): read as headings that a paragraph open across them goes on past. */
  heads: Set<number>;
  /** Whether a paragraph whose last line is `last` goes on past line `i`: a running head, `last` no running foot. */
  goesOnPast(i: number, last: SectionLine): boolean;
}

/** A section's running text, read once before its lines are (statements.ts readSection). */
export function runningText(lines: readonly SectionLine[]): RunningText {
  const pages = linesByPage(lines);
  const heads = runningHeads(lines, pages);
  const feet = new Set([...runningFeet(lines, pages)].map((i) => lines[i]!));
  return { marks: runningPageMarks(lines, pages), heads, goesOnPast: (i, last) => heads.has(i) && !feet.has(last) };
}
