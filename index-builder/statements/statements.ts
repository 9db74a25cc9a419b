import type { EpistemicStatus, StatementKind } from '../../index-format/types';
import { financialStatementTitle, TITLE_LINES, type FinancialStatement } from '../../index-format/financial-statements';
import { metricCodes } from '../../index-format/metrics';
import type { Section, SectionLine } from '../segment/segment';
import { CARRIED_OVER, HEADER_LINES, runningText } from './page-marks';
import { isColumnLine, readingOrder } from './columns';
import { sentencePieces } from './sentence-pieces';
import { classifyStatus } from './status';
import {
  blockPeriod,
  columnHeadings,
  headingsGoOn,
  joinHeading,
  factText,
  parseHeader,
  MONTH_RE,
  parseMonthDays,
  parseRow,
  parseScale,
  type Scale,
  splitColumns,
  TableState,
  type ColumnHeadings,
  type PeriodBlock,
  type TableFact,
} from './table-facts';

export { classifyStatus } from './status';

export interface RawStatement {
  text: string;
  page: number;
  /** Character offset of the statement's first character in its page's text. */
  offset: number;
  /** Where the statement's last character ends: page and offset there (a sentence can cross a page break). */
  endPage: number;
  endOffset: number;
  kind: StatementKind;
  status: EpistemicStatus;
  /** Metric codes (index-format/metrics.ts) the statement names, most specific first. */
  metrics: number[];
  /** Table rows: the label, cells with periods, scale and unit. */
  fact?: TableFact;
  /** Table rows printed on a primary financial statement's page (its title at the top of the page). */
  statement?: FinancialStatement;
}

const MIN_CHARS = 25;
/** A sentence's end: a final stop, with its closing quote or parenthesis. */
const SENTENCE_END = /[.!?]["”)]?$/;
/** A run of spaces between two words: the layout's gap between a table's cells. */
const COLUMN_GAP = /\S\s{3,}\S/;
/** A sentence longer than this is read as pieces (sentence-pieces.ts). */
const MAX_CHARS = 900;
/** isChangeHeadings: years, then change headings only. */
const CHANGE_HEADINGS = new RegExp(
  String.raw`^[^.;]{0,60}?(?:(?:FY\s?)?(?:19|20)\d\d\s+){2}(?:(?:FY\s?)?(?:19|20)\d\d|[%$/()]|change|percent(?:age)?` +
    String.raw`|increase|decrease|vs\.?|\s)*$`,
  'i',
);

// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS = new RegExp(
  String.raw`\b(?:Inc|Corp|Co|Ltd|No|Nos|U\.S|U\.K|Mr|Ms|Mrs|Dr|Jr|Sr|St|vs|etc|e\.g|i\.e|approx|Jan|Feb|Mar` +
    String.raw`|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Fig|Ref|Rev|Ex)\.$`,
  'i',
);
/** A legal citation's abbreviations: "City of Pontiac ... System v. Wal-Mart Stores", "Sup. Ct.", "Cty. of Ulster". */
const CITATION = /\b(?:v|Ct|Cty|Cnty|Cmty|Cir|Dist|Sup|Mun|Pharm)\.$/;

/** A line of a flattened table: a label and value columns (3+ spaces apart). */
export function isTableRow(line: string): boolean {
  return parseRow(line) !== null;
}

function isNoise(line: string): boolean {
  const t = line.trim();
  return (
    /^table of contents$/i.test(t) ||
    /^(page\s+)?\d{1,3}$/i.test(t) ||
    /^[A-Z]?-?\d{1,3}$/.test(t) || // "F-12"
    /^-\s*\d{1,3}\s*-$/.test(t) || // "- 7 -"
    /^\(?continued\)?$/i.test(t) ||
    // Running footers: "Apple Inc. | Q3 2023 Form 10-Q | 15", "Zenharrow Foods Company | 2023 Form 10-K | 7".
    (t.length < 120 && /\|\s*(?:page\s*)?[A-Z]?-?\d{1,3}$/i.test(t) && /form\s+10-?[kq]|annual report|\|.*\|/i.test(t))
  );
}

/** A paragraph being assembled from lines; `parts` map paragraph character positions back to page offsets. */
interface Paragraph {
  text: string;
  parts: { at: number; line: SectionLine; lead: number }[];
}

function locate(p: Paragraph, index: number): { page: number; offset: number } {
  let part = p.parts[0]!;
  for (const candidate of p.parts) {
    if (candidate.at > index) break;
    part = candidate;
  }
  return { page: part.line.page, offset: part.line.offset + part.lead + Math.max(0, index - part.at) };
}

/** The paragraph with a line appended (a new paragraph when there is none); a hyphen at the end joins the words. */
function withLine(p: Paragraph | null, line: SectionLine): Paragraph {
  const out = p ?? { text: '', parts: [] };
  if (out.text && !out.text.endsWith('-')) out.text += ' ';
  out.parts.push({ at: out.text.length, line, lead: line.text.length - line.text.trimStart().length });
  out.text += line.text.trim();
  return out;
}

/**
 * Splits one section into statements: prose lines are joined into paragraphs and split into sentences; table rows
 * become one statement each, read with the table's caption (scale), header (period of each column) and the label
 * of the row group they belong to. Every statement keeps its page and character offsets. `filingText`, the filing's
 * text (wrappingText), lines up column headings wrapped over lines; without it the section's own lines do.
 * `fiscalYear`, the year the filing's fiscal year ends in: a column of a later year is a schedule's future year, not a
 * period.
 */
export function extractStatements(
  section: Section,
  formType = '10-K',
  filingText?: string,
  fiscalYear: number | null = null,
): RawStatement[] {
  const lines = readingOrder(section.lines, isTableRow);
  const read = lines === section.lines ? section : { ...section, lines };
  if (filingText !== undefined) sectionTexts.set(read.lines, filingText);
  return readSection(read, formType, fiscalYear);
}

/** extractStatements' reading of the section's lines, once the text wrappedOver reads is set. */
function readSection(section: Section, formType: string, fiscalYear: number | null): RawStatement[] {
  const out: RawStatement[] = [];
  const table = new TableState(formType, fiscalYear);
  let paragraph: Paragraph | null = null;
  // A label wrapping onto the next line or lines ("... marketable" / " securities, net   669"), joined where it starts.
  let pendingLabel: SectionLine | null = null;
  // Lines up to this index are a wrapped label's, already held.
  let labelEnd = -1;
  // The last line read was a table row: a label may wrap onto the next row even in a table whose header names no
  // periods (a statement of equity's columns are its components).
  let afterRow = false;
  // The financial statement the current page prints: its title is among the page's first lines (a statement page
  // may hold a second one further down: income and comprehensive income often share a page). Prose ends it: a note
  // that starts below the statement on the same page is not part of it.
  let page = -1;
  let pageLines = 0;
  let printedOn: FinancialStatement | null = null;
  // The statement whose title was read last, over pages: its continuation pages keep its header.
  let lastTitle: FinancialStatement | null = null;
  const groups = new RowGroups(section.lines);
  // The index of the line `pendingLabel` holds when it is one line of the section as it stands.
  let heldAt = -1;
  // The index of the first line of `pendingLabel`, however it was held.
  let labelStart = -1;
  let bareRow = -1; // the line of figures alone that a long held label is the row of (wrappedLabel's `bare`)
  const running = runningText(section.lines);

  const flush = () => {
    if (!paragraph) return;
    const read = paragraphStatements(paragraph, section.itemTag);
    paragraph = null;
    out.push(...read.statements);
    // Prose between tables ends the table: the next table brings its own caption and header.
    if (read.sawProse) table.reset(introducedScale(read.statements));
    if (read.sawSentence) printedOn = null;
  };

  for (const [i, line] of section.lines.entries()) {
    const { text } = line;
    if (isNoise(text) || running.marks.has(i)) continue;
    if (line.page !== page) [page, pageLines, printedOn] = [line.page, 0, null];
    if (text.trim() && (++pageLines <= TITLE_LINES || printedOn)) {
      const title = financialStatementTitle(text);
      if (title) {
        flush(); // prose before the title (the previous page's last paragraph) ends before the statement starts
        // Another statement brings its own header: the spans of the one before ("Three Months Ended   Six Months
        // Ended" over comprehensive income) are not the balance sheet's dates'. A continued statement keeps its own.
        if (title !== lastTitle) table.forgetSpans();
        printedOn = lastTitle = title;
      }
    }
    if (i < labelEnd) continue;
    groups.passed(i);
    const row = rowOfLine(text, i === bareRow ? pendingLabel : null) ?? textColumnRow(section.lines, i);
    const total = row ? null : groups.total(i, text);
    if (row || total) {
      flush();
      // A table's first row, under no period header (or one date): the line above its label may name its columns; a
      // table after it with no headings of its own (a heading line between them) keeps them.
      if (row && !afterRow && (table.periods?.length ?? 0) <= 1) {
        const held = pendingLabel ? { heldAt, start: labelStart } : null;
        table.takeColumns(headingsAbove(section.lines, i, held, row.values.length));
      }
      const labelled = row ? groups.labelled(row, pendingLabel, heldAt) : total!;
      out.push(rowStatement(labelled, line, row ? pendingLabel : null, table, printedOn));
      pendingLabel = null;
      afterRow = true;
      continue;
    }
    // The held line was not a wrapped label after all: a group label ("Net sales:"), a heading, or the first line of
    // a paragraph that this lower-case line goes on with ("We repurchased shares under the program approved" / "by
    // the Board ...").
    let resumed = false;
    if (pendingLabel) {
      const held = pendingLabel.text.trim();
      if (/:$/.test(held) && !proseAfterColon(section.lines, i, table)) table.parent = held.replace(/:$/, '');
      else if (/:$/.test(held) || goesOnAsProse(held, text.trim())) {
        paragraph = withLine(paragraph, pendingLabel);
        resumed = true;
      }
      pendingLabel = null;
    }
    const inTable = !resumed && (!!table.periods || afterRow);
    afterRow = false;
    if (table.readSubColumns(text)) continue;
    const block = periodBlock(section.lines, i, table); // its headings line above was read as prose
    if (block || TableState.isFurniture(text)) {
      flush(); // before reading: prose ending here resets the table state, the new caption/header must survive it
      table.read(text, lineAbove(section.lines, i), block);
      continue;
    }
    const trimmed = text.trim();
    const wrapped = inTable ? wrappedLabel(section.lines, i, table.periods?.length ?? 0) : null;
    if (wrapped) {
      flush();
      [pendingLabel, heldAt, labelStart, labelEnd] = [wrapped.label, -1, i, wrapped.row];
      bareRow = wrapped.bare ? wrapped.row : -1;
      continue;
    }
    // Inside a table, a short line without a final period is a group label or a wrapped row label: hold it.
    if (!resumed && table.periods && heldAsLabel(section.lines, i, paragraph?.text)) {
      flush();
      [pendingLabel, heldAt, labelStart] = [line, i, i];
      continue;
    }
    // A page's running header between the two halves of a sentence ("... requires that we consider events or" / "ADOBE
    // INC." / "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Continued)" / "circumstances including ...") is skipped, as
    // is a running head the paragraph goes on past (runningText); with none open, a head ends what a heading ends.
    const pastHead = paragraph && running.goesOnPast(i, paragraph.parts.at(-1)!.line);
    if (paragraph && (pastHead || runningHeader(section.lines, i, paragraph))) continue;
    if (running.heads.has(i) || isHeading(section.lines, i, paragraph?.text)) {
      flush();
      continue;
    }
    paragraph = withLine(paragraph, line);
    if (SENTENCE_END.test(trimmed) && trimmed.length < 60) flush(); // a short final line closes the paragraph
  }
  flush();
  return out;
}

/**
 * A short line in title case with no final period is a heading: it ends the paragraph. Not a column's line that the
 * next line goes on with a lower-case word, or that ends with a word no heading ends with: a sentence wrapping in a
 * narrow column ("Lending- and deposit-related fees increased largely as a" / "result of higher ..."); nor, in any
 * line, a sentence's first line (sentenceEndsBeforeTable).
 */
function isHeading(lines: readonly SectionLine[], i: number, open?: string): boolean {
  const trimmed = lines[i]!.text.trim();
  if (trimmed.length >= 90 || /[.:;,]$/.test(trimmed) || !/^[A-Z]/.test(trimmed) || /[.!?]\s/.test(trimmed))
    return false;
  const nextLower = /^[a-z]/.test(lines[i + 1]?.text.trim() ?? '');
  const wrapping = WRAPPING_WORD.test(trimmed);
  // The middle line of a sentence that an open paragraph left mid-phrase, starting with a name ("... costs for esports
  // initiatives and the" / "Destiny franchise, partially offset by ...; and" / a bullet's blank line).
  if (wrapping && open && WRAPPING_WORD.test(open.trim())) return false;
  if (isColumnLine(lines[i]!) && (nextLower || wrapping)) return false;
  return !(wrapping && nextLower && sentenceEndsBeforeTable(lines, i));
}

/** The most lines a sentence that a heading-like line starts may take to end, read on from that line. */
const SENTENCE_LINES = 4;

/**
 * A line ending with a word no heading ends with ("ASU eliminates the presumption that a"), whose next line goes on in
 * lower case, starts a sentence when that sentence ends within a few lines with no table line between: it is not a
 * heading. A table's header of that shape ("Gains (losses) associated with, defined benefit pension and" / "plans
 * amortization", then rows) ends in no sentence.
 */
function sentenceEndsBeforeTable(lines: readonly SectionLine[], i: number): boolean {
  for (let j = i + 1; j < lines.length && j <= i + SENTENCE_LINES; j++) {
    const text = lines[j]!.text;
    if (COLUMN_GAP.test(text) || isTableRow(text)) return false;
    if (SENTENCE_END.test(text.trim())) return true;
  }
  return false;
}

/**
 * Line `i` opens a page after a paragraph that stops mid-sentence, among the page's first lines of capitals, page
 * numbers or headings, and is in capitals or before a line that goes on with a lower-case word: a running header (the
 * company's name, "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS (Continued)"), not a heading of the text.
 */
function runningHeader(lines: readonly SectionLine[], i: number, paragraph: Paragraph): boolean {
  const line = lines[i]!;
  const last = paragraph.parts.at(-1)!.line;
  if (line.page === last.page || !/[a-z,]$/.test(paragraph.text) || !headerLike(lines, i)) return false;
  // Only the page's first lines: whatever stands above it on the page is a header's too.
  for (let k = i - 1; k >= 0 && lines[k]!.page === line.page; k--) if (!headerLike(lines, k)) return false;
  // Capitals alone or a title carried over never head the text the paragraph goes on with; a heading in title case
  // does unless the text goes on with a lower-case word.
  if (!/[a-z]/.test(line.text) || CARRIED_OVER.test(line.text)) return true;
  for (let j = i + 1; j < lines.length && j <= i + HEADER_LINES; j++) {
    const next = lines[j]!;
    if (next.page !== line.page) return false;
    if (headerLike(lines, j)) continue;
    return /^[a-z]/.test(next.text.trim());
  }
  return false;
}

/**
 * A line a running header may hold: noise (a page number), a heading, capitals alone ("ADOBE INC."), or a title
 * carried over ("3. Acquisitions (Continued)").
 */
function headerLike(lines: readonly SectionLine[], i: number): boolean {
  const { text } = lines[i]!;
  return isNoise(text) || !/[a-z]/.test(text) || CARRIED_OVER.test(text) || isHeading(lines, i);
}

/** A word a line of running text may end with but a heading does not: an article, a preposition, a conjunction. */
const WRAPPING_WORD = /\b(?:a|an|the|and|or|but|of|to|in|on|at|by|for|from|with|as|that|which|its|our|their)$/;

type Row = NonNullable<ReturnType<typeof parseRow>>;

/**
 * A row group under a label line of its own, closed by its total (subgroupAt): its rows carry the label. An unlabeled
 * total's line is the label's row ("Data Center Group" / rows / "   26,103   23,481"); a total of its own ("Segment
 * Operating Profit" / rows / "Total   4,078.6") keeps its line, a bare "Total" taking the label.
 */
class RowGroups {
  private open: { label: string; total: number } | null = null;

  constructor(private readonly lines: readonly SectionLine[]) {}

  /** Closes a group whose total lies before line `i`. */
  passed(i: number): void {
    if (this.open && i > this.open.total) this.open = null;
  }

  /** A row as its group names it; a held line (at `heldAt`) that is not part of the row's label may open a group. */
  labelled(row: Row, held: SectionLine | null, heldAt: number): Row {
    if (held && heldAt >= 0 && !continuesLabel(held.text, row.label)) {
      const total = subgroupAt(this.lines, heldAt);
      if (total !== null) this.open = { label: held.text.trim(), total };
    }
    // A total names what it totals ("Total net sales"), except a bare "Total", which takes the group's label.
    const named = /^total\b/i.test(row.label) && !/^total$/i.test(row.label.trim());
    return this.open && !named ? { ...row, label: `${this.open.label}: ${row.label}` } : row;
  }

  /** The open group's total as its label's row, when line `i` is that total; the group then closes. */
  total(i: number, text: string): Row | null {
    if (!this.open || i !== this.open.total) return null;
    const row = {
      label: this.open.label,
      values: unlabeledValues(text)!,
      indent: text.length - text.trimStart().length,
    };
    this.open = null;
    return row;
  }
}

/**
 * A line of column headings that compare periods ("2016   2015   2014   % Change   % Change", "(Millions)   2022
 * 2021   Change", "2018   2017   2016   2018 vs. 2017   2017 vs. 2016"): a short caption at most, then years and at
 * least one change heading; or a line of periods alone. It reads as prose to the paragraph (it still ends the table
 * before it) but states nothing.
 */
function isChangeHeadings(sentence: string): boolean {
  if (CHANGE_HEADINGS.test(sentence) && /change|increase|decrease|\bvs\b/i.test(sentence)) return true;
  // Or a line of periods alone, two years at least: a schedule's ("2024   2025   2026   Thereafter   Total") or a
  // span's ("Year Ended December 31,   2023   2022").
  const words = sentence.match(/[A-Za-z]+/g) ?? [];
  return (sentence.match(/\b(?:19|20)\d\d\b/g)?.length ?? 0) >= 2 && words.every((w) => PERIOD_HEADING_WORD.test(w));
}

/** The words a line of column headings naming periods holds besides its figures. */
const PERIOD_HEADING_WORD = new RegExp(
  String.raw`^(?:${MONTH_RE}|thereafter|total|and|fiscal|fy|years?|ended|ending|quarters?|q[1-4]|` +
    String.raw`first|second|third|fourth|three|six|nine|twelve|months|weeks|v|vs|versus|change|percent|percentage|` +
    String.raw`increase|decrease)$`,
  'i',
);

/** Too short to be a claim: under MIN_CHARS characters or four words. */
function tooShort(text: string): boolean {
  return text.length < MIN_CHARS || text.split(/\s+/).length < 4;
}

/** A finished paragraph's sentences as statements, and whether it held prose and a sentence that ends. */
function paragraphStatements(
  p: Paragraph,
  itemTag: string,
): { statements: RawStatement[]; sawProse: boolean; sawSentence: boolean } {
  const statements: RawStatement[] = [];
  let sawProse = false;
  let sawSentence = false;
  for (const { text: sentence, start } of splitSentencesAt(p.text)) {
    // Too short, or an all-capitals line (company names, running headers): not a claim.
    if (tooShort(sentence) || !/[a-z]/.test(sentence)) continue;
    sawProse = true;
    if (isChangeHeadings(sentence)) continue;
    // A statement page's name lines ("Arbelion Utilities, Inc. and Subsidiaries") read as prose but end no sentence.
    if (SENTENCE_END.test(sentence)) sawSentence = true;
    for (const piece of sentencePieces(sentence, MAX_CHARS, tooShort)) {
      const from = locate(p, start + piece.start);
      const to = locate(p, start + piece.start + piece.text.length);
      statements.push({
        text: piece.text,
        page: from.page,
        offset: from.offset,
        endPage: to.page,
        endOffset: to.offset,
        kind: 'sentence',
        status: classifyStatus(piece.text, 'sentence', itemTag),
        metrics: metricCodes(piece.text),
      });
    }
  }
  return { statements, sawProse, sawSentence };
}

/**
 * A table row as a statement, read with the table's state. `pendingLabel` is the line held before it: the start of
 * a label that wraps onto this row's line, or a group label ("Net sales:") that the table's `parent` takes.
 */
function rowStatement(
  row: NonNullable<ReturnType<typeof parseRow>>,
  line: SectionLine,
  pendingLabel: SectionLine | null,
  table: TableState,
  printedOn: FinancialStatement | null,
): RawStatement {
  let label = row.label;
  let first: SectionLine = line;
  if (pendingLabel && (!label || continuesLabel(pendingLabel.text, label))) {
    label = label ? joinLabel(pendingLabel.text, label) : pendingLabel.text.trim();
    first = pendingLabel;
  } else if (pendingLabel && /:$/.test(pendingLabel.text.trim())) {
    table.parent = pendingLabel.text.trim().replace(/:$/, '');
  }
  // Indented rows under a "Net sales:" group label carry the group ("Net sales: Products"); a total row or an
  // unindented row (a wrapped label counts from its first line) ends the group.
  const indent = first === line ? row.indent : first.text.length - first.text.trimStart().length;
  if (/^total\b/i.test(label)) table.parent = null;
  else if (indent > 0 && table.parent) label = `${table.parent}: ${label}`;
  else if (indent === 0) table.parent = null;
  const fact = table.toFact({ ...row, label });
  return {
    text: factText(fact),
    page: first.page,
    offset: first.offset + (first.text.length - first.text.trimStart().length),
    endPage: line.page,
    endOffset: line.offset + line.text.trimEnd().length,
    kind: 'table_row',
    status: 'FACT',
    metrics: rowMetrics(fact.label),
    fact,
    ...(printedOn ? { statement: printedOn } : {}),
  };
}

/**
 * Does a held line start a paragraph that this line goes on with? Both read as prose: the held line starts with a
 * capital and breaks off mid-sentence, this one goes on in lower case to a sentence's end or for a full line (a
 * short lower-case line is the rest of a group label: "Adjustments to reconcile ... to net cash" / "provided by
 * operating activities"), and neither is cut into cells (the layout separates table cells by runs of spaces).
 */
function goesOnAsProse(held: string, next: string): boolean {
  const sentence = SENTENCE_END.test(next) || next.length >= 80;
  return (
    /^[A-Z]/.test(held) &&
    /[a-z]$/.test(held) &&
    /^[a-z]/.test(next) &&
    sentence &&
    next.split(/\s+/).length >= 4 &&
    !COLUMN_GAP.test(held) &&
    !COLUMN_GAP.test(next)
  );
}

/**
 * The line above a header that may name its column groups (columnGroups): the nearest line that is not noise, past a
 * line of month-days ("July 1,   June 25,") between them.
 */
function lineAbove(lines: readonly SectionLine[], i: number): string | null {
  const k = indexAbove(lines, i);
  return k >= 0 ? lines[k]!.text : null;
}

/**
 * The column headings (columnHeadings) above a table's first row at line i, for its `values` values: on the line
 * above its label, or on the label line held before it (under a one-date header the headings line is held as a
 * possible label). Headings wrapped over lines ("Retained" / "Earnings") are left alone: without the page's column
 * positions their lines cannot be put together, and the last line alone names the column wrong.
 */
function headingsAbove(
  lines: readonly SectionLine[],
  i: number,
  held: { heldAt: number; start: number } | null,
  values: number,
): ColumnHeadings | null {
  const labelHeading = widestRow(lines, i) <= values;
  for (const k of [held?.heldAt ?? -1, indexAbove(lines, held ? held.start : i)]) {
    if (k < 0) continue;
    const lower = columnHeadings(lines[k]!.text, values, labelHeading);
    if (!lower) continue;
    // Without its label column's heading the line no longer lines up with a wrapped line above it ("As Previously
    // Restatement   Restatement" over "Reported   Impacts   Reference   As Restated"): no headings rather than wrong.
    const stubbed = labelHeading && !columnHeadings(lines[k]!.text, values);
    if (stubbed && splitColumns(lines[indexAbove(lines, k)]?.text ?? '').length > 1) continue;
    let headings: string[] = lower;
    // Headings wrapped over lines join cell by cell when each line above has a cell for every column ("Amortized
    // Estimated" over "Cost   Fair Value"), or where the filing's own text joins them (wrappedOver); a line above
    // that can be lined up neither way leaves the columns without headings. A line of one cell is a caption or a
    // title unless the filing's text joins it ("Accumulated" over "Other Comprehensive Income (Loss)").
    let over = indexAbove(lines, k);
    let byText = false;
    for (let n = 0; over >= 0 && n < MAX_HEADING_LINES; n++) {
      const cells = splitColumns(lines[over]!.text).filter((c) => /[A-Za-z]/.test(c));
      if (!cells.length) break;
      const top = cells.length > 1 ? headingsGoOn(lines[over]!.text, headings.length) : null;
      const joined: string[] | null = top
        ? headings.map((h, j) => joinHeading(top[j]!, h))
        : (wrappedOver(lines, over, headings) ?? spanningGroups(lines[over]!.text, headings));
      if (!joined && cells.length === 1) break;
      if (!joined) return null;
      byText ||= !top;
      headings = joined;
      over = indexAbove(lines, over);
    }
    // Two columns named alike after a join by text: one of them is named wrong.
    if (byText && new Set(headings.map(spelled)).size < headings.length) return null;
    // The headings line may start with the table's caption ("(Millions)   Employee-Related   Asset-Related   Total").
    return { headings, scale: parseScale(splitColumns(lines[k]!.text)[0] ?? '') };
  }
  return null;
}

/** The most values a row of the table starting at line i has (its rows up to the first line that is none). */
function widestRow(lines: readonly SectionLine[], i: number): number {
  let widest = 0;
  for (let k = i; k >= 0 && k < lines.length; k = indexBelow(lines, k)) {
    const row = parseRowLine(lines[k]!.text);
    if (!row) break;
    widest = Math.max(widest, row.values.length);
  }
  return widest;
}

/**
 * Headings whose upper line has fewer cells than columns: only some headings wrap ("Latin" over "America", "Bottling"
 * over "Investments", beside one-line "Asia Pacific"). Without column positions the cells cannot be lined up by
 * place, so each upper cell joins a heading after the previous one's with which the filing's own text writes it on one
 * line ("Latin America", "Bottling Investments" in MD&A's segment discussion). Taken only when that placing is the
 * only one (the earliest and the latest placing agree), null otherwise; headingsAbove then leaves the columns without
 * headings, as it does when the joins leave two columns named alike: a wrong heading is worse evidence than none.
 */
function wrappedOver(lines: readonly SectionLine[], over: number, headings: readonly string[]): string[] | null {
  const upper = splitColumns(lines[over]!.text);
  if (upper.length >= headings.length || !upper.every((c) => /[A-Za-z]{2}/.test(c) && !/\d/.test(c))) return null;
  const text = sectionText(lines);
  const written = (u: number, h: number) => text.includes(spelled(joinHeading(upper[u]!, headings[h]!)));
  const earliest: number[] = [];
  for (let u = 0, h = 0; u < upper.length; u++, h++) {
    while (h < headings.length && !written(u, h)) h++;
    if (h === headings.length) return null;
    earliest.push(h);
  }
  for (let u = upper.length - 1, h = headings.length - 1; u >= 0; u--, h--) {
    while (h >= 0 && !written(u, h)) h--;
    if (h !== earliest[u]) return null;
  }
  const out = [...headings];
  upper.forEach((cell, u) => {
    out[earliest[u]!] = joinHeading(cell, headings[earliest[u]!]!);
  });
  return out;
}

/**
 * Headings that repeat one run of sub-columns under each of a line of group names ("Principal Concentrate and/or
 * Syrup Plants   Manufacturing/Bottling Plants   Distribution and Storage Warehouses" over "Owned   Leased" three
 * times; "Goodwill   Indefinite-Lived Tradenames" over "Domestic   International   Total" twice): each column is its
 * group's sub-column, "Manufacturing/Bottling Plants Leased". Only when the run repeats exactly once per group name and
 * the names differ: a name repeated over each run ("Fair Value   Fair Value" over "Shares   Per Share" twice) is a
 * heading wrapped over one column of each run, and a name with a figure ("2016 Quarters") names periods, not groups.
 */
function spanningGroups(line: string, headings: readonly string[]): string[] | null {
  const groups = splitColumns(line);
  const k = groups.length;
  const run = headings.length / k;
  if (k < 2 || !Number.isInteger(run) || run < 2) return null;
  if (!groups.every((c) => /[A-Za-z]{2}/.test(c) && !/\d/.test(c))) return null;
  if (new Set(groups.map(spelled)).size < k) return null;
  if (!headings.every((h, j) => spelled(h) === spelled(headings[j % run]!))) return null;
  return headings.map((h, j) => joinHeading(groups[Math.floor(j / run)]!, h));
}

/** Text as wrappedOver compares it: lower case, one space for any run of whitespace. */
const spelled = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * A filing's text as wrappedOver reads it, one spelled line per line, to pass to extractStatements: a note's table
 * often heads its columns with names only MD&A writes out in prose ("Europe, Middle East & Africa").
 */
export function wrappingText(pages: readonly string[]): string {
  return pages.map((page) => page.split('\n').map(spelled).join('\n')).join('\n');
}

/** The text wrappedOver reads for a section's lines: its filing's (wrappingText), else the section's own. */
const sectionTexts = new WeakMap<readonly SectionLine[], string>();

/** A section's lines, spelled, one per line (a heading joined across two lines is not a line's text). */
function sectionText(lines: readonly SectionLine[]): string {
  let text = sectionTexts.get(lines);
  if (text === undefined) {
    text = lines.map((l) => spelled(l.text)).join('\n');
    sectionTexts.set(lines, text);
  }
  return text;
}

/**
 * A period on a line of its own over a block of rows (blockPeriod) whose columns have headings: those of the block
 * before it, or the line above it. Null for a lone year over anything else (a title's year, a page artefact) or over
 * rows whose columns have no headings: their cells would all be one period's, and nothing tells them apart.
 */
function periodBlock(lines: readonly SectionLine[], i: number, table: TableState): PeriodBlock | null {
  const cell = blockPeriod(lines[i]!.text);
  if (!cell) return null;
  // Its first row, or a group label over it ("Net operating revenues:").
  let below = indexBelow(lines, i);
  if (below >= 0 && /:$/.test(lines[below]!.text.trim())) below = indexBelow(lines, below);
  const row = below >= 0 ? parseRowLine(lines[below]!.text) : null;
  if (!row) return null;
  const n = row.values.length;
  const kept = table.columns?.length === n && table.groups?.length === n ? table.columns : null;
  const headings = kept ?? headingsAbove(lines, i, null, n)?.headings;
  return headings && headings.length === n ? { cell, headings } : null;
}

/** The index of the next line that is not noise or blank, within three lines, or -1. */
function indexBelow(lines: readonly SectionLine[], i: number): number {
  return nearestLine(lines, i, 1, () => false);
}

/**
 * The scale a table's introducing sentence gives it ("... were as follows (in millions):", "... (dollars in
 * thousands):"): the table that follows prints none of its own. Null when the paragraph does not end by introducing
 * a table.
 */
function introducedScale(statements: readonly RawStatement[]): Scale {
  const last = statements.at(-1)?.text;
  return last && /:$/.test(last) ? parseScale(last) : null;
}

/**
 * A sentence that introduces a table: "... were as follows:", "... the following (in millions):", "The following
 * table shows the changes in AOCI by component for 2018 and 2017 (in millions):".
 */
const INTRODUCES_TABLE = /\b(?:as follows|the following|below)\b.*:$/i;

/**
 * Line i, inside a table, is a group label or a wrapped row label to hold: short, without a final period, and not a
 * sentence introducing the next table ("... are as follows:" over its own caption or headings: prose, which ends this
 * table; over rows, it is this table's group label, "... consist of the following:").
 */
function heldAsLabel(lines: readonly SectionLine[], i: number, open: string | undefined): boolean {
  if (readsAsProse(lines[i]!.text.trim()) || introducesTable(lines, i)) return false;
  // A paragraph begun after the table (`open`) goes on through its short lines ("... Contract Services Group;" /
  // "and"), unless the line heads rows of its own; one that ended on a colon introduced what follows.
  if (open === undefined || /:$/.test(open.trim())) return true;
  const below = indexBelow(lines, i);
  return below >= 0 && !!parseRowLine(lines[below]!.text);
}

/** A line as long as a line of running text, or one ending a sentence: no row label. */
function readsAsProse(trimmed: string): boolean {
  return trimmed.length >= 100 || /[.;]$/.test(trimmed);
}

/**
 * A held line ending in a colon opens a group of rows ("Net sales:"), unless line i, under it, is prose (readsAsProse:
 * "... increased $25 million, or 7.4%, primarily due to a:" over "•   $7 million increase in employee-related costs
 * ..."), not a row nor a row's label wrapping onto its figures. The colon's line is then that paragraph's first; read
 * as a group label it was no statement at all.
 */
function proseAfterColon(lines: readonly SectionLine[], i: number, table: TableState): boolean {
  if (parseRowLine(lines[i]!.text) || wrappedLabel(lines, i, table.periods?.length ?? 0)) return false;
  return readsAsProse(lines[i]!.text.trim());
}

/** Line i introduces a table of its own: it ends as INTRODUCES_TABLE and the line under it is no row. */
function introducesTable(lines: readonly SectionLine[], i: number): boolean {
  if (!INTRODUCES_TABLE.test(lines[i]!.text.trim())) return false;
  const below = indexBelow(lines, i);
  return below < 0 || !parseRowLine(lines[below]!.text);
}

/** Lines a column heading may wrap over above its last line. */
const MAX_HEADING_LINES = 3;

/** The index of lineAbove's line, or -1. */
function indexAbove(lines: readonly SectionLine[], i: number): number {
  return nearestLine(lines, i, -1, (text) => !!parseMonthDays(text));
}

/** The first line within three of line i in direction `step` that is not noise, blank or `skipped`; -1 if none. */
function nearestLine(
  lines: readonly SectionLine[],
  i: number,
  step: 1 | -1,
  skipped: (text: string) => boolean,
): number {
  for (let j = i + step; j >= 0 && j < lines.length && Math.abs(j - i) <= 3; j += step) {
    const text = lines[j]!.text;
    if (isNoise(text) || !text.trim() || skipped(text)) continue;
    return j;
  }
  return -1;
}

/** A table row parsed from a line; a header line ("(Millions)   2018   2017   2016") also parses as numbers: none. */
function parseRowLine(text: string): ReturnType<typeof parseRow> {
  return parseHeader(text) ? null : parseRow(text);
}

/** Lines a wrapped row label may span before its row. */
const MAX_LABEL_LINES = 4;

/**
 * A row label wrapped over lines of its own, from line i ("Cash and cash" / "equivalents at" / "beginning of" / "year
 * 5,309 4,704"): each next line continues it, and so does the row it ends on. Its lines joined, at its first line's
 * place, and the index of that row; null when the lines are anything else (a heading, a group label, prose).
 */
function wrappedLabel(
  lines: readonly SectionLine[],
  i: number,
  columns: number,
): { label: SectionLine; row: number; bare?: boolean } | null {
  const first = lines[i]!;
  let text = first.text.trim();
  // A label starts with a capital or a parenthesis; a line starting in lower case is the tail of something else.
  if (/[.;:]$/.test(text) || !/^[A-Z(]/.test(text)) return null;
  // The first line's indent stays: an indented row belongs to the group label above it ("Net sales:").
  const indent = first.text.slice(0, first.text.length - first.text.trimStart().length);
  if (text.length >= 100) {
    // A label as long as a line of prose wraps once, onto its row ("Common stock ... Shares issued: 10,644 and" /
    // "10,242 shares outstanding)   106   108") or onto its figures alone ("... Shares issued: 0 and" /
    // "2,300   2,300", as many as the header's columns). Read as prose, it would end the table and leave the rows
    // after it without their periods.
    const next = lines[i + 1]?.text ?? '';
    const label = { ...first, text: indent + text };
    const row = parseRowLine(next);
    if (row) return continuesLabel(text, row.label) ? { label, row: i + 1 } : null;
    if (unlabeledValues(next)?.length === columns) return { label, row: i + 1, bare: true };
    // Or it breaks inside a date, whose day and year start the line of figures ("... outstanding as of December" /
    // "31, 2022)   34,330   31,580"): the date's rest is the label's.
    const tail = dateRest(text, next);
    if (tail && unlabeledValues(next.slice(tail.length))?.length === columns) {
      return { label: { ...first, text: `${indent}${text} ${tail.trim()}` }, row: i + 1, bare: true };
    }
    return null;
  }
  for (let j = i + 1; j < lines.length && j <= i + MAX_LABEL_LINES; j++) {
    const next = lines[j]!.text;
    const row = parseRowLine(next);
    if (row) return continuesLabel(text, row.label) ? { label: { ...first, text: indent + text }, row: j } : null;
    if (!continuesLabel(text, next.trim())) return null;
    text = joinLabel(text, next);
  }
  return null;
}

/**
 * The row a line of a section reads as, if any. A long held label's line of figures (wrappedLabel's `bare`, `held`)
 * is its row, even when it starts with the rest of the label's date ("31, 2022)   34,330   31,580" is not a row
 * labelled "31,").
 */
function rowOfLine(text: string, held: SectionLine | null): Row | null {
  if (!held) return parseRowLine(text);
  const bare = bareFigures(held, text);
  return bare && takenRest(held, text) ? bare : (parseRowLine(text) ?? bare);
}

/**
 * A row with cells of words beside its figures (parseRow's `withText`): a debt's currency and kind, a product's
 * indication, the line item a reclassification went to. Taken only where a row next to it (within three lines) has
 * words and figures in the same places, so the words are a column of the table, not prose or another table's label
 * set beside it (a page set in two columns).
 */
function textColumnRow(lines: readonly SectionLine[], i: number): Row | null {
  const row = parseRow(lines[i]!.text, true);
  if (!row?.described) return null;
  const sameShape = (k: number) => {
    const other = k >= 0 ? parseRow(lines[k]!.text, true) : null;
    return other?.described === row.described && other?.values.length === row.values.length;
  };
  return sameShape(indexAbove(lines, i)) || sameShape(indexBelow(lines, i)) ? row : null;
}

/** A month name, or a month and its day, ending a line: a date the layout broke before its day or its year. */
const MONTH_AT_END = new RegExp(String.raw`\b${MONTH_RE}$`);
const MONTH_DAY_AT_END = new RegExp(String.raw`\b${MONTH_RE}\s+\d{1,2},?$`);
/** What a line starts with that can be the rest of a broken date: a day and a year ("31, 2022)"), or a year. */
const DAY_YEAR = /^\s*\d{1,2},\s*\d{4}\)?/;
const YEAR = /^\s*\d{4}\)?/;
const YEAR_REST = /^\s*(?:\d{1,2},\s*)?\d{4}\)?/;

/** The rest of the date a long label breaks inside, at the start of the line under it ("31, 2022)", "2021)"). */
function dateRest(label: string, next: string): string | undefined {
  if (MONTH_AT_END.test(label)) return DAY_YEAR.exec(next)?.[0];
  return MONTH_DAY_AT_END.test(label) ? YEAR.exec(next)?.[0] : undefined;
}

/** The start of a held label's line of figures that the label already took as its date's rest (wrappedLabel). */
function takenRest(held: SectionLine, text: string): string | undefined {
  const rest = YEAR_REST.exec(text)?.[0];
  return rest && held.text.trimEnd().endsWith(rest.trim()) ? rest : undefined;
}

/**
 * A long label's figures on the line under it, as its row: the label is the held line's (rowStatement joins it),
 * after the rest of a date the label took (wrappedLabel).
 */
function bareFigures(held: SectionLine, text: string): Row | null {
  const values = unlabeledValues(text.slice(takenRest(held, text)?.length ?? 0));
  return values ? { label: '', values, indent: held.text.length - held.text.trimStart().length } : null;
}

/**
 * Does this text continue a row label held on the lines above it? When it starts in lower case or with a
 * parenthesis ("equivalents at end", "(loss)"), or the label so far breaks off after a joining word, a comma or a
 * hyphen ("Cash and", "Unrealized gains (losses) on available-").
 */
function continuesLabel(held: string, next: string): boolean {
  const t = next.trim();
  return (
    t.length > 0 &&
    t.length < 100 &&
    (/^[a-z(]/.test(t) || /(?:\b(?:and|of|or|for|in|the|to|from|net of|on|at|by|with)|[,-])$/i.test(held.trim()))
  );
}

/** Rows a group under a label line of its own may hold before its total. */
const MAX_SUBGROUP_ROWS = 12;

/**
 * Is line i the label of a row group that its own unlabeled total closes? Segment and balance tables print a group as
 * a label line, its rows, then the group's total with no label ("Data Center Group" / "Platform   $ 23,056" /
 * "Adjacent   3,047" / "   26,103"): the label is a short line of words (no figures, no cells, no final colon or
 * period), one or more rows (none a "Total" row) follow, and then a line of figures alone with as many values as
 * the first row. The index of that total's line, or null.
 */
function subgroupAt(lines: readonly SectionLine[], i: number): number | null {
  const label = lines[i]!.text.trim();
  if (
    label.length >= 60 ||
    /\d/.test(label) ||
    COLUMN_GAP.test(label) ||
    /[.:;,]$/.test(label) ||
    !/^[A-Z]/.test(label)
  )
    return null;
  let width = -1;
  for (let j = i + 1; j < lines.length && j <= i + MAX_SUBGROUP_ROWS + 1; j++) {
    const text = lines[j]!.text;
    if (isNoise(text)) continue;
    const row = parseRowLine(text);
    if (row) {
      // A total of the group's own, bare or naming the group ("Total   4,078.6   100 %", "Total current assets"
      // under "Current assets"), closes it as an unlabeled one does; any other total is an enclosing group's.
      if (/^total\b/i.test(row.label)) {
        const words = (t: string) => t.trim().replace(/\s+/g, ' ').toLowerCase();
        const own = words(row.label) === 'total' || words(row.label) === `total ${words(label)}`;
        return own && width > 0 && row.values.length === width ? j : null;
      }
      if (width < 0) width = row.values.length;
      continue;
    }
    const values = unlabeledValues(text);
    return width > 0 && values?.length === width ? j : null;
  }
  return null;
}

/** The figures of a line that holds figures alone ("   26,103   23,481   22,991"), or null. */
function unlabeledValues(text: string): string[] | null {
  const t = text.trim();
  if (!t || /[A-Za-z]/.test(t) || !/\d/.test(t)) return null;
  return parseRow(`Total   ${t}`)?.values ?? null;
}

/** A held label and its continuation as one label; a word the layout hyphenated at the line end is joined whole. */
function joinLabel(held: string, next: string): string {
  const h = held.trim();
  return /[a-z]-$/i.test(h) ? `${h}${next.trim()}` : `${h} ${next.trim()}`;
}

/** Sentences of a paragraph with their start positions. */
export function splitSentencesAt(text: string): { text: string; start: number }[] {
  const parts: { text: string; start: number }[] = [];
  const re = /[.!?]["”’)]?\s+(?=["“(]?[A-Z0-9])/g;
  let start = 0;
  for (const m of text.matchAll(re)) {
    const end = m.index + m[0].trimEnd().length;
    const candidate = text.slice(start, end);
    const last = candidate.trimEnd();
    if (ABBREVIATIONS.test(last) || CITATION.test(last) || /\b[A-Z]\.$/.test(last)) continue;
    const lead = candidate.length - candidate.trimStart().length;
    parts.push({ text: candidate.trim(), start: start + lead });
    start = m.index + m[0].length;
  }
  const rest = text.slice(start);
  if (rest.trim()) parts.push({ text: rest.trim(), start: start + (rest.length - rest.trimStart().length) });
  return parts;
}

export function splitSentences(text: string): string[] {
  return splitSentencesAt(text).map((p) => p.text);
}

/**
 * A table row's metrics: those its own label names first, then its group label's ("Net sales: Americas" is
 * revenue). Own first so the cash-flow statement's "Cash flows from operating activities: Net income" row is net
 * income, not cash from operations. A row under a reconciling group ("Adjustments to reconcile net income to net
 * cash provided by operating activities: Stock-based compensation") keeps the group's metric: the evidence graph
 * links it to the MD&A sentence that quotes it; retrieval does not treat it as the metric's own row
 * (src/search/retrieve.ts rowBoost).
 */
export function rowMetrics(label: string): number[] {
  const parts = label.split(': ');
  const own = metricCodes(parts[parts.length - 1]!);
  if (parts.length === 1) return own;
  const group = metricCodes(parts.slice(0, -1).join(': '));
  return [...new Set([...own, ...group])].slice(0, 3);
}
