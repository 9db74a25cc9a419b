import type { SectionLine } from '../segment/segment';

/**
 * A page set in two columns of prose, as its text was extracted: each line holds the left column's line, a gap, then
 * the right column's ("Investment banking fees increased across products in CIB,   Lending- and deposit-related fees
 * increased largely as a"). Read line by line, every sentence interleaves two. A line of the right column alone is
 * indented ("   fee waivers; and in CCB ..."); one of the left column alone is not.
 */
type Kind = 'both' | 'left' | 'right';

interface Part {
  kind: Kind;
  /** both: where the gap starts (the left column's end) and where the right column starts. */
  gapStart: number;
  split: number;
}

/** A gap of three spaces or more between a word (or its punctuation) and the next word. */
const GAP = /(?<=[A-Za-z0-9,;:.)%”"’]) {3,}(?=[A-Za-z(•“"$-])/g;

/** The least number of lines showing both columns, and their least share of the run. */
const MIN_BOTH = 4;
const BOTH_SHARE = 0.5;
/** The left column's lines fill its width: most of them end near the longest one. */
const MIN_LEFT_WIDTH = 40;
const FULL_LINE = 0.75;
const FULL_SHARE = 0.6;
/** A line this much longer than the left column is as wide as the page. */
const FULL_SLACK = 8;
/** Prose wraps: a fair share of the columns' lines go on with a lower-case word (a list of names does not). */
const WRAP_SHARE = 0.3;

const hasWords = (text: string) => /[a-z]{2,}/.test(text);
const startsLower = (text: string) => /^[a-z]/.test(text.trim());

/**
 * A line that may belong to a page of prose columns: words, not a table's row (isRow), at most one gap, and none in an
 * indented line (a header's "   June 30,   December 31," and "(in millions)   2021   2020   Change" end the run).
 */
function mayBeColumns(line: SectionLine, isRow: (text: string) => boolean): boolean {
  const { text } = line;
  const gaps = [...text.matchAll(GAP)].length;
  const indented = text.length - text.trimStart().length >= 3;
  return hasWords(text) && gaps <= (indented ? 0 : 1) && !isRow(text);
}

/** Each line of a run as one column's or both (at its one gap). */
function partsOf(run: readonly SectionLine[]): Part[] {
  return run.map(({ text }) => {
    const lead = text.length - text.trimStart().length;
    const gap = [...text.matchAll(GAP)][0];
    if (lead < 3 && gap && hasWords(text.slice(0, gap.index)) && hasWords(text.slice(gap.index))) {
      return { kind: 'both', gapStart: gap.index, split: gap.index + gap[0].length };
    }
    return { kind: lead >= 3 ? 'right' : 'left', gapStart: -1, split: -1 };
  });
}

/** The left column's width: the widest left part of a line with one gap. */
function leftWidth(run: readonly SectionLine[]): number {
  let widest = 0;
  for (const { text } of run) {
    const gaps = [...text.matchAll(GAP)];
    if (gaps.length === 1 && text.length - text.trimStart().length < 3) widest = Math.max(widest, gaps[0]!.index);
  }
  return widest;
}

/** Lines of a column, as readingOrder made them: a narrow column's line that wraps is no heading (isColumnLine). */
const columnLines = new WeakSet<SectionLine>();

export function isColumnLine(line: SectionLine): boolean {
  return columnLines.has(line);
}

function columnLine(line: SectionLine): SectionLine {
  columnLines.add(line);
  return line;
}

function columnsOf(run: readonly SectionLine[], parts: readonly Part[]): { left: SectionLine[]; right: SectionLine[] } {
  const left: SectionLine[] = [];
  const right: SectionLine[] = [];
  run.forEach((line, i) => {
    const p = parts[i]!;
    if (p.kind === 'left') left.push(columnLine({ ...line }));
    else if (p.kind === 'right') right.push(columnLine({ ...line }));
    else {
      left.push(columnLine({ ...line, text: line.text.slice(0, p.gapStart) }));
      right.push(columnLine({ ...line, offset: line.offset + p.split, text: line.text.slice(p.split) }));
    }
  });
  return { left, right };
}

/**
 * The run cut around its lines as wide as the page: a line with no gap, not indented, longer than the left column (a
 * full-width sentence above a table, "The table below summarizes ...") is neither column's, and a caption and header
 * below it belong to the table, not to the columns above.
 */
function splitAtFullLines(run: readonly SectionLine[]): SectionLine[][] {
  const width = leftWidth(run);
  const parts: SectionLine[][] = [[]];
  for (const line of run) {
    const { text } = line;
    const full = width > 0 && text.search(GAP) < 0 && !/^\s{3}/.test(text) && text.trim().length > width + FULL_SLACK;
    if (full) parts.push([line], []);
    else parts.at(-1)!.push(line);
  }
  return parts.filter((p) => p.length > 0);
}

/** The run's two columns, or null when it does not read as two columns of prose (see the constants above). */
function twoColumns(run: readonly SectionLine[]): { left: SectionLine[]; right: SectionLine[] } | null {
  const width = leftWidth(run);
  if (width < MIN_LEFT_WIDTH) return null;
  const parts = partsOf(run);
  const both = parts.filter((p) => p.kind === 'both');
  if (both.length < MIN_BOTH || both.length < BOTH_SHARE * run.length) return null;
  if (both.filter((p) => p.gapStart >= FULL_LINE * width).length < FULL_SHARE * both.length) return null;
  const columns = columnsOf(run, parts);
  const wraps = (col: readonly SectionLine[]) => col.slice(1).filter((l) => startsLower(l.text)).length;
  return wraps(columns.left) + wraps(columns.right) >= WRAP_SHARE * both.length ? columns : null;
}

/**
 * The section's lines in reading order: a run of adjacent lines of one page that reads as two columns of prose is
 * replaced by its left column's lines, then its right column's, each part keeping its page and its offset there.
 * `isRow` tells a table's row (a run of columns stops at one). Other lines are returned as they are (the same array
 * when nothing is two columns).
 */
export function readingOrder(lines: SectionLine[], isRow: (text: string) => boolean): SectionLine[] {
  const out: SectionLine[] = [];
  let changed = false;
  let i = 0;
  while (i < lines.length) {
    if (!mayBeColumns(lines[i]!, isRow)) {
      out.push(lines[i++]!);
      continue;
    }
    let j = i + 1;
    for (; j < lines.length; j++) {
      const prev = lines[j - 1]!;
      const line = lines[j]!;
      if (line.page !== prev.page || line.lineNo !== prev.lineNo + 1 || !mayBeColumns(line, isRow)) break;
    }
    for (const part of splitAtFullLines(lines.slice(i, j))) {
      const columns = part.length > 1 ? twoColumns(part) : null;
      if (columns) {
        out.push(...columns.left, ...columns.right);
        changed = true;
      } else out.push(...part);
    }
    i = j;
  }
  return changed ? out : lines;
}
