import { TEN_K_ITEM_TITLES, TEN_K_ITEMS, TEN_Q_ITEMS } from '../../index-format/fields';
import { financialStatementTitle, TITLE_LINES, type FinancialStatement } from '../../index-format/financial-statements';
import { segmentByCrossReference } from './cross-reference';

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
const HEADING = /^\s*(?:PART\s+(I{1,3}|IV)\s*[.,:—–-]?\s*)?ITEM\s*(\d{1,2})\s*([A-C])?(?![\w])(?:\s*[.:—–-])*\s*(.*)$/i;
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
  const title = (m[4] ?? '')
    .replace(/[-_=]{3,}/g, ' ')
    .replace(/\s+-\s+(?=\S)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // A heading is followed by its title (capitalised) or nothing; "Item 7 of this report ..." is a reference.
  if (title && !/^[A-Z"“(]/.test(title)) return null;
  if (title.length > 400) return null; // a paragraph that happens to start with "Item 7", not a heading
  // "Item 7. MD&A) can occur ...": a parenthesis opened on the line before closes here, so the line runs on a sentence.
  if (/^[^(]*\)/.test(title)) return null;
  const item = (m[2]! + (m[3] ?? '')).toUpperCase();
  if (continuesSentence(item, title)) return null;
  return { part: m[1]?.toUpperCase() ?? null, item, title };
}

const TEN_K_TITLE_TEXT = TEN_K_ITEM_TITLES[0]![1];
const TEN_K_TITLE = new Map(TEN_K_ITEM_TITLES.map(([item, title]) => [item, title.toLowerCase()]));

/**
 * A line that starts with an item's name and runs on as prose is a reference wrapped to the start of a line ("Item
 * 1A.—Risk Factors and in subsequent securities filings, should not be ..."): after the form's title a heading ends,
 * or gives a page number, never a lowercase continuation. Taken as a heading, it would claim its item early and hide
 * the real headings of the items before it.
 */
function continuesSentence(item: string, title: string): boolean {
  const official = TEN_K_TITLE.get(item);
  if (!official || !title.toLowerCase().startsWith(official)) return false;
  return /^[\s,]+(?:and|or|of|in|for|to|as|which|that|should|is|are|was|were)\b/.test(title.slice(official.length));
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
    if (
      endsInPage ||
      (matchHeading(next) && !PART_LINE.test(next)) ||
      (isShortTitle && matchHeading(after)) ||
      /^\d{1,3}$/.test(next.trim())
    )
      tocLike++;
  });
  const titled = nonEmpty
    .slice(0, 6)
    .some((l) => /\b(TABLE OF CONTENTS|INDEX)\b/i.test(l) || /^\s*CONTENTS\s*$/i.test(l));
  return tocLike >= 3 && tocLike >= headings * (titled ? 0.5 : 0.7);
}

/**
 * Splits a filing's pages into items. 10-K: `10K-Item-<item>` in the order of Form 10-K, accepting a heading only
 * when it moves forward (cross-references and repeated running headers never move the cursor back), then two repairs
 * from the form's structure: an Item 1 whose heading was lost (missingBusiness), and an MD&A or statements printed
 * after Part IV (itemsAfterPartIV). 10-Q: see segmentTenQ.
 * Text before the first item heading (cover page, table of contents) is not assigned to any item.
 */
export function segmentFiling(formType: string, pages: readonly string[]): Section[] {
  if (formType !== '10-K') return segmentTenQ(pages);
  const sections: Section[] = [];
  let current: Section | null = null;
  let lastOrder = -1;

  const tocPages: number[] = [];
  pages.forEach((pageText, page) => {
    const lines = pageText.split('\n');
    const toc = isTocPage(lines);
    if (toc) tocPages.push(page);
    let offset = 0;
    let links = false;
    for (const [lineNo, line] of lines.entries()) {
      const lineOffset = offset;
      offset += line.length + 1;
      links = EDGAR_LINKS.test(line) || (links && line.trim() !== '');
      if (!toc && !links && !runsOn(lines[lineNo - 1])) {
        const h = matchHeading(line);
        if (h) {
          const next = tenKSection(h, lastOrder, page, lineNo);
          if (next) {
            lastOrder = TEN_K_ORDER.get(h.item)!;
            current = next;
            sections.push(current);
            continue;
          }
        }
      }
      if (current && line.trim()) current.lines.push({ page, lineNo, offset: lineOffset, text: line });
    }
  });
  const found = sections.filter((s) => s.lines.length > 0);
  const business = found.length ? missingBusiness(pages, tocPages, found[0]!) : null;
  if (business) found.unshift(business);
  // No item heading at all: an annual-report layout with a cross-reference index
  // (index-builder/segment/cross-reference.ts).
  return found.length ? statementsInMdna(itemsAfterPartIV(found)) : segmentByCrossReference(pages);
}

/**
 * An item this short only says where its disclosure is ("included immediately following Part IV", "see Note 21 ...,
 * incorporated by reference"); a longer one states its own and cites other places in passing.
 */
export const POINTER_ITEM_CHARS = 1500;
/** The first page of financial statements printed after Part IV: their index, or the auditor's report. */
const STATEMENTS_START = new RegExp(
  String.raw`^\s*(?:INDEX\s+TO\s+(?:THE\s+)?(?:CONSOLIDATED\s+)?FINANCIAL\s+STATEMENTS` +
    String.raw`|REPORT\s+OF\s+INDEPENDENT\s+REGISTERED\s+PUBLIC\s+ACCOUNTING\s+FIRM)\b`,
  'i',
);
/**
 * Where the statements and their notes end: the signatures, or the exhibits (agreements and certifications filed with
 * the report, which number their own sections "1. Definitions").
 */
export const STATEMENTS_END =
  /^\s*(?:SIGNATURES?|EXHIBIT\s+INDEX|INDEX\s+TO\s+EXHIBITS|EXHIBIT\s+\d+(?:\.\d+)?)\s*[.:]?\s*$/i;
/** Fewer characters than this after the report are a list of the statements, not the statements. */
const MIN_STATEMENTS_CHARS = 10000;
/** A section's characters, without the lines' indentation: how long an item is (a pointer item is short). */
export const textChars = (s: Pick<Section, 'lines'>) => s.lines.reduce((n, l) => n + l.text.trim().length, 0);

/**
 * A primary statement's page title, with or without the company's name after it: capitalised, no comma (a wrapped line
 * of the auditor's report, "consolidated statements of income, comprehensive income, ...", is prose), no page number.
 * Not financialStatementTitle (index-format/financial-statements.ts): that one reads cells, so a contents line
 * ("Consolidated Statements of Income   75") is a title to it, and here it must not start the statements.
 */
const STATEMENT_TITLE_WORDS =
  /^\s*(?:condensed\s+)?consolidated\s+(?:statements?\s+of|balance\s+sheets?)\b(?!.*\s(?:\d{1,3}|\*)\s*$)/i;
const isStatementPageTitle = (text: string) =>
  /^\s*[A-Z]/.test(text) && !text.includes(',') && STATEMENT_TITLE_WORDS.test(text);
/**
 * The title Item 7 has in the form, printed alone as the heading of an MD&A that follows Part IV; an annual report
 * filed as Exhibit 13 may number it in its own sequence ("Item 2. Management's Discussion and Analysis ...").
 */
const MDNA_TITLE = new RegExp(
  String.raw`^\s*(?:item\s+\d{1,2}[a-z]?\s*[.:—–-]?\s*)?["“]?management[’'${'`'}]?s\s+discussion\s+and\s+analysis` +
    String.raw`\s+of\s+financial\s+condition\s+and\s+results\s+of\s+operations["”]?\s*$`,
  'i',
);
/** The heading a pointer Item 7 names ("under the heading Financial Review in our 2018 Financial Report"). */
const NAMED_HEADING = /under\s+the\s+(?:heading|caption)s?\s+["“]?(.+?)["”]?(?:,|\s+(?:in|of|which|included)\b)/i;

interface Run {
  start: number;
  end: number;
  as: Section;
}

/**
 * Parts of a 10-K printed after Part IV that belong to Items 7 and 8. Many 10-Ks answer Item 8 with one sentence
 * ("The consolidated financial statements ... are included immediately following Part IV") and print the statements
 * and notes after Item 15 or 16; some answer Item 7 the same way and append the annual report's MD&A. The forward
 * pass leaves both under Item 15 or 16. When Item 8 (Item 7) is that short, the run of Item 15 or 16 from the
 * statements' index or auditor's report (from the MD&A's heading: the form's title of Item 7, or the heading the
 * pointer names) up to the signatures, the exhibits or the other run becomes an Item 8 (Item 7) section of its own, and
 * the item it was cut from goes on after it. Item filters, section preferences and the MD&A's evidence-graph edges then
 * find them.
 */
function itemsAfterPartIV(sections: Section[]): Section[] {
  const pointer = (tag: string) => sections.find((s) => s.itemTag === tag && textChars(s) <= POINTER_ITEM_CHARS);
  const [item7, item8] = [pointer('10K-Item-7'), pointer('10K-Item-8') ?? listingItem8(sections)];
  if (!item7 && !item8) return sections;
  const named = item7
    ? NAMED_HEADING.exec(item7.lines.map((l) => l.text.trim()).join(' '))?.[1]
        ?.trim()
        .toLowerCase()
    : undefined;
  const isMdnaHeading = (text: string) =>
    MDNA_TITLE.test(text) || (named !== undefined && text.trim().replace(/[.:]$/, '').toLowerCase() === named);
  // One run of each: the first found (a later one, such as the parent company's condensed statements, stays put).
  let [found7, found8] = [!item7, !item8];
  const out: Section[] = [];
  for (const s of sections) {
    if (s.itemTag !== '10K-Item-15' && s.itemTag !== '10K-Item-16') {
      out.push(s);
      continue;
    }
    const statements = found8 ? null : statementsRun(s);
    const runs: Run[] = statements ? [{ ...statements, as: item8! }] : [];
    if (!found7) {
      const start = s.lines.findIndex((l, j) => isMdnaHeading(l.text) && (!statements || j < statements.start));
      if (start >= 0) {
        let end = statements?.start ?? s.lines.findIndex((l, j) => j > start && STATEMENTS_END.test(l.text));
        if (end < 0) end = s.lines.length;
        if (textChars({ ...s, lines: s.lines.slice(start, end) }) >= MIN_STATEMENTS_CHARS)
          runs.unshift({ start, end, as: item7! });
      }
    }
    found8 ||= runs.some((r) => r.as === item8);
    found7 ||= runs.some((r) => r.as === item7);
    out.push(...cutRuns(s, runs));
  }
  return out;
}

/**
 * Statements printed at the end of the MD&A. Some 10-Ks answer Item 8 with "See Item 15" and print the statements,
 * their notes and the auditor's report after the MD&A with no item heading, so the forward pass leaves them in Item 7
 * (PepsiCo). When Item 8 is that short and no statements were found after Part IV, Item 7 is cut at the first page
 * that opens with a primary statement's title, if three different primary statements open pages after it and the run
 * holds MIN_STATEMENTS_CHARS: from there to Item 7's end is an Item 8 section of its own.
 */
function statementsInMdna(sections: Section[]): Section[] {
  const item8 = sections.filter((s) => s.itemTag === '10K-Item-8');
  const item7 = sections.findIndex((s) => s.itemTag === '10K-Item-7');
  // Two Item 8 sections: itemsAfterPartIV already found the statements.
  if (item8.length !== 1 || textChars(item8[0]!) > POINTER_ITEM_CHARS || item7 < 0) return sections;
  const mdna = sections[item7]!;
  const opensPage = pageTitles(mdna.lines);
  const start = opensPage.findIndex((t, j) => t !== null && isStatementPageTitle(mdna.lines[j]!.text));
  if (start < 0) return sections;
  if (
    primaryCount(opensPage.slice(start)) < PRIMARY_STATEMENTS.length ||
    textChars({ lines: mdna.lines.slice(start) }) < MIN_STATEMENTS_CHARS
  )
    return sections;
  return [
    ...sections.slice(0, item7),
    ...cutRuns(mdna, [{ start, end: mdna.lines.length, as: item8[0]! }]),
    ...sections.slice(item7 + 1),
  ];
}

/**
 * The statement each line titles when it opens its page, else null: a statement's title is among the page's first
 * lines (a running header such as "Table of Contents" may stand above it), not a line of prose or of a table that
 * names a statement.
 */
function pageTitles(lines: Section['lines']): (FinancialStatement | null)[] {
  let [page, rank] = [-1, 0];
  return lines.map((l) => {
    rank = l.page === page ? rank + 1 : 0;
    page = l.page;
    return rank < TITLE_LINES ? financialStatementTitle(l.text) : null;
  });
}

/** Characters up to which an Item 8 that prints no statement page is a list of where they are, with page numbers. */
const LISTING_ITEM_CHARS = 5000;

/**
 * An Item 8 that lists the statements and their pages ("The following documents are filed as part of Item 8 ...
 * Consolidated Balance Sheets   41"), sometimes with the quarterly results, but prints none of them: no line of it is
 * a statement's page title. It answers the item by pointing, as a short one does.
 */
function listingItem8(sections: readonly Section[]): Section | undefined {
  const item8 = sections.filter((s) => s.itemTag === '10K-Item-8');
  const only = item8.length === 1 ? item8[0]! : undefined;
  return only && textChars(only) <= LISTING_ITEM_CHARS && !only.lines.some((l) => isStatementPageTitle(l.text))
    ? only
    : undefined;
}

const PRIMARY_STATEMENTS: readonly FinancialStatement[] = ['income_statement', 'balance_sheet', 'cash_flow_statement'];

/** How many of the primary statements (income statement, balance sheet, cash flow statement) these page titles hold. */
function primaryCount(titles: readonly (FinancialStatement | null)[]): number {
  return PRIMARY_STATEMENTS.filter((t) => titles.includes(t)).length;
}

/**
 * The financial statements printed in an Item 15 or 16, up to the signatures or exhibits: from their index or
 * auditor's report, or, in an annual report that prints the auditor's report after the notes (Exhibit 13), from the
 * first statement's page title when the income statement, balance sheet and cash flow statement all follow.
 */
function statementsRun(s: Section): { start: number; end: number } | null {
  const titles = pageTitles(s.lines);
  for (const [start, line] of s.lines.entries()) {
    // A statement's page title opens its page (financialStatementTitle reads it there too).
    const titled = titles[start] !== null && isStatementPageTitle(line.text);
    // A contents line ("Report of Independent Registered Public Accounting Firm   36") lists the pages, it is not one.
    if ((!titled && !STATEMENTS_START.test(line.text)) || /\s\d{1,3}$/.test(line.text.trim())) continue;
    let end = s.lines.findIndex((l, j) => j > start && STATEMENTS_END.test(l.text));
    if (end < 0) end = s.lines.length;
    // Item 15's list of what is filed names the report and the statements too, in a few hundred characters; the
    // statements and their notes run to tens of thousands.
    const run = s.lines.slice(start, end);
    if (textChars({ ...s, lines: run }) < MIN_STATEMENTS_CHARS) continue;
    if (
      titled
        ? primaryCount(titles.slice(start, end)) === PRIMARY_STATEMENTS.length
        : run.some((l) => isStatementPageTitle(l.text))
    )
      return { start, end };
  }
  return null;
}

/** A section cut at the runs (in order, not overlapping): each run a section like its `as`, the rest keeps s's item. */
function cutRuns(s: Section, runs: readonly Run[]): Section[] {
  const at = (j: number) => ({ page: s.lines[j]!.page, lineNo: s.lines[j]!.lineNo });
  const parts: Section[] = [];
  let from = 0;
  for (const run of runs) {
    parts.push({ ...s, heading: from === 0 ? s.heading : at(from), lines: s.lines.slice(from, run.start) });
    parts.push({ ...run.as, heading: at(run.start), lines: s.lines.slice(run.start, run.end) });
    from = run.end;
  }
  parts.push({
    ...s,
    heading: from === 0 ? s.heading : from < s.lines.length ? at(from) : s.heading,
    lines: s.lines.slice(from),
  });
  return parts.filter((p) => p.lines.length > 0);
}

/**
 * EDGAR's viewer prints "Use these links to rapidly review the document" over a block of links (up to a blank line).
 */
const EDGAR_LINKS = /rapidly review the document/i;

/**
 * Item 1 when the text lost its heading (3M's FY2021 10-K opens its business description with "General" under the
 * page header): the first item found is one of those right after Item 1 and a table of contents comes before it, so the
 * body from the page after the contents up to that heading is Item 1. Null when Item 1 was found or the front matter's
 * end is unknown.
 */
function missingBusiness(pages: readonly string[], tocPages: readonly number[], first: Section): Section | null {
  if (!['1A', '1B', '1C', '2'].includes(first.itemCode.slice(1))) return null;
  const lastToc = tocPages.filter((p) => p < first.heading.page).at(-1);
  if (lastToc === undefined) return null;
  const section: Section = {
    itemTag: '10K-Item-1',
    itemCode: 'I1',
    title: TEN_K_TITLE_TEXT,
    heading: { page: lastToc + 1, lineNo: 0 },
    lines: [],
  };
  for (let page = lastToc + 1; page <= first.heading.page; page++) {
    let offset = 0;
    for (const [lineNo, text] of pages[page]!.split('\n').entries()) {
      if (page === first.heading.page && lineNo >= first.heading.lineNo) break;
      if (text.trim()) section.lines.push({ page, lineNo, offset, text });
      offset += text.length + 1;
    }
  }
  return section.lines.length ? section : null;
}

/**
 * A line directly below a wrapped line of prose continues its sentence: "... Note 4 of the Notes to the Consolidated
 * Financial Statements in" / "Item 8." is a reference, not Item 8's heading. A heading stands after a blank line, a
 * page header or a finished sentence.
 */
function runsOn(previous: string | undefined): boolean {
  const text = previous?.trim() ?? '';
  // Only a line that cannot end a sentence: a comma, or a word that needs its object ("in", "see", "and").
  return (
    text.length >= 50 &&
    /(?:[,;]|\b(?:in|of|to|see|and|or|the|under|from|by|with|at|on|for|within|per|including))$/i.test(text)
  );
}

function tenKSection(h: HeadingMatch, lastOrder: number, page: number, lineNo: number): Section | null {
  const order = TEN_K_ORDER.get(h.item);
  if (order === undefined || order <= lastOrder) return null;
  return {
    itemTag: `10K-Item-${h.item}`,
    itemCode: `I${h.item}`,
    title: h.title,
    heading: { page, lineNo },
    lines: [],
  };
}

type Part = 'I' | 'II';

/** What each 10-Q item's title says; a title names its part, whatever the last "PART" line said. */
const TEN_Q_TITLES: readonly [RegExp, Part, string][] = [
  [/financial statements/i, 'I', '1'],
  [/discussion and analysis/i, 'I', '2'],
  [/quantitative and qualitative/i, 'I', '3'],
  [/controls and procedures/i, 'I', '4'],
  [/legal proceedings/i, 'II', '1'],
  [/risk factors/i, 'II', '1A'],
  [/unregistered sales|purchases of equity/i, 'II', '2'],
  [/defaults upon/i, 'II', '3'],
  [/mine safety/i, 'II', '4'],
  [/other information/i, 'II', '5'],
  [/exhibits/i, 'II', '6'],
];

/**
 * The part of a 10-Q heading. A "PART II" line can be missing, set in another column (two-column pages put
 * "Part II – Other Information" beside Part I Item 3) or come after the heading, so the title decides when it names
 * the item ("Item 3. Defaults Upon Senior Securities" is Part II); then an item only one part has (1A, 5, 6); then the
 * last "PART" line.
 */
function tenQPart(h: HeadingMatch, running: Part): Part {
  for (const [re, part, item] of TEN_Q_TITLES) if (item === h.item && re.test(h.title)) return part;
  if (h.part === 'I' || h.part === 'II') return h.part;
  const items = TEN_Q_ITEMS as Record<Part, readonly string[]>;
  if (!items[running].includes(h.item)) return running === 'I' ? 'II' : 'I';
  return running;
}

/**
 * After the signature block no item starts: exhibits appended to the report (indentures, credit agreements) have
 * their own "Item 1." lines. Their text stays in the last item (Part II Item 6, Exhibits), where the form puts them.
 */
const SIGNATURES = /^\s*SIGNATURES?\s*[:.]?\s*$/i;
/** The first financial statement's title: where Part I Item 1 starts when the filing prints no Item 1 heading. */
const STATEMENT_TITLE = new RegExp(
  String.raw`^\s*(?:condensed\s+)?consolidated\s+(?:condensed\s+)?(?:statements?\s+of\s+(?:income|operations` +
    String.raw`|earnings|comprehensive\s+(?:income|loss|\(loss\)\s+income|income\s+\(loss\)))|balance\s+sheets?)` +
    String.raw`(?:\s*\((?:unaudited|in millions[^)]*)\))?(?:\s{2,}\S.*)?$`,
  'i',
);
const isStatementTitle = (text: string) => STATEMENT_TITLE.test(text) && !/\s\d{1,3}$/.test(text);
/** Item titles printed alone as headings, without "Item <n>" (Intel's layout). */
const TITLE_ONLY: readonly [RegExp, Part, string][] = [
  [
    /^management.s discussion and analysis(?: of financial condition and results of operations)?(?:\s*\(MD&A\))?$/i,
    'I',
    '2',
  ],
  [/^quantitative and qualitative disclosures about market risk$/i, 'I', '3'],
  [/^controls and procedures$/i, 'I', '4'],
  [/^legal proceedings$/i, 'II', '1'],
  [/^risk factors$/i, 'II', '1A'],
  [
    /^(?:unregistered sales of equity securities and use of proceeds|issuer purchases of equity securities)$/i,
    'II',
    '2',
  ],
  [/^defaults upon senior securities$/i, 'II', '3'],
  [/^mine safety disclosures$/i, 'II', '4'],
  [/^other information$/i, 'II', '5'],
  [/^exhibits$/i, 'II', '6'],
];

interface Injected {
  part: Part;
  item: string;
  title: string;
}
const at = (page: number, lineNo: number) => `${page}:${lineNo}`;

/**
 * 10-Q: `10Q-Part<I|II>-Item-<item>`. Item headings first (part from the title, the item or the last "PART" line;
 * a running header repeating the current item is skipped, and a bare "Item 1" header gives way to the titled heading
 * below it on the same page). Then, only for what is still missing, three layouts without headings:
 * - no heading at all (Intel): item titles printed alone are headings, Part I Item 1 at the first statement title;
 * - no Item 1 heading: Part I Item 1 starts at the first statement title before the first heading;
 * - no Item 2 heading and the statements come late (JPMorgan puts its MD&A first): the pages between the table of
 *   contents and Item 1 are Part I Item 2.
 * No item starts after the SIGNATURES heading (appended exhibits stay in Item 6).
 */
function segmentTenQ(pages: readonly string[]): Section[] {
  const pageLines = pages.map((p) => p.split('\n'));
  const toc = pageLines.map(isTocPage);
  const injected = new Map<string, Injected>();
  let sections = tenQPass(pageLines, toc, injected);
  const has = (tag: string) => sections.some((s) => s.itemTag === tag);

  if (sections.length === 0) {
    const seen = new Set<string>();
    let statements = false;
    pageLines.forEach((lines, page) => {
      if (page === 0 || toc[page]) return;
      lines.forEach((line, lineNo) => {
        const text = line.trim();
        if (!statements && isStatementTitle(text)) {
          statements = true;
          injected.set(at(page, lineNo), { part: 'I', item: '1', title: text });
          return;
        }
        for (const [re, part, item] of TITLE_ONLY) {
          const tag = `${part}-${item}`;
          // In order statements, MD&A, the rest: a ToC lists the same titles before the statements, and Part II
          // titles also head subsections of the notes ("Legal Proceedings").
          if (!re.test(text) || seen.has(tag) || (tag === 'I-2' ? !statements : !seen.has('I-2'))) continue;
          seen.add(tag);
          injected.set(at(page, lineNo), { part, item, title: text });
        }
      });
    });
    if (injected.size) sections = tenQPass(pageLines, toc, injected);
  }

  if (sections.length && !has('10Q-PartI-Item-1')) {
    const first = sections[0]!.heading;
    const start = findLine(pageLines, toc, first, isStatementTitle);
    if (start) {
      // The statement's header starts with the company name on the line(s) above its title.
      for (let k = start.lineNo - 1, seen = 0; k >= 0 && seen < 2; k--) {
        const text = pageLines[start.page]![k]!.trim();
        if (!text) continue;
        seen++;
        if (text.length > 60 || /\d$|table of contents|^index$|^part\s/i.test(text)) break;
        start.lineNo = k;
      }
      injected.set(at(start.page, start.lineNo), {
        part: 'I',
        item: '1',
        title: pageLines[start.page]![start.lineNo]!.trim(),
      });
      sections = tenQPass(pageLines, toc, injected);
    }
  }

  const item1 = sections.find((s) => s.itemTag === '10Q-PartI-Item-1');
  if (item1 && !has('10Q-PartI-Item-2') && sections[0] === item1) {
    const body = pageLines.findIndex((lines, page) => page > 0 && !toc[page] && lines.some((l) => l.trim()));
    if (body > 0 && item1.heading.page - body >= 3 && !toc.slice(body, item1.heading.page).some(Boolean)) {
      const lineNo = pageLines[body]!.findIndex((l) => l.trim());
      injected.set(at(body, lineNo), { part: 'I', item: '2', title: '' });
      sections = tenQPass(pageLines, toc, injected);
    }
  }
  return sections;
}

/** The first line (cover page and ToC pages skipped) before `before` that passes `test`. */
function findLine(
  pageLines: string[][],
  toc: boolean[],
  before: { page: number; lineNo: number },
  test: (text: string) => boolean,
) {
  for (let page = 1; page <= before.page; page++) {
    if (toc[page]) continue;
    const lines = pageLines[page]!;
    const end = page === before.page ? before.lineNo : lines.length;
    for (let lineNo = 0; lineNo < end; lineNo++) if (test(lines[lineNo]!.trim())) return { page, lineNo };
  }
  return null;
}

function tenQPass(pageLines: string[][], toc: boolean[], injected: ReadonlyMap<string, Injected>): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  let part: Part = 'I';
  let ended = false;
  const open = (p: Part, item: string, title: string, page: number, lineNo: number) => {
    current = {
      itemTag: `10Q-Part${p}-Item-${item}`,
      itemCode: `P${p === 'I' ? 1 : 2}I${item}`,
      title,
      heading: { page, lineNo },
      lines: [],
    };
    sections.push(current);
  };
  pageLines.forEach((lines, page) => {
    let offset = 0;
    for (const [lineNo, line] of lines.entries()) {
      const lineOffset = offset;
      offset += line.length + 1;
      const inj = injected.get(at(page, lineNo));
      if (inj && !ended) {
        part = inj.part;
        open(inj.part, inj.item, inj.title, page, lineNo);
        continue;
      }
      if (!toc[page] && !ended) {
        if (SIGNATURES.test(line) && (current as Section | null)?.itemTag.startsWith('10Q-PartII-')) ended = true;
        const partLine = PART_LINE.exec(line);
        if (partLine && !/^\s*PART\s+\S+\s+ITEM/i.test(line) && (partLine[2] ?? '').length < 80) {
          const p = partLine[1]!.toUpperCase();
          if (p === 'I' || p === 'II') part = p;
        }
        const h = matchHeading(line);
        if (h) {
          const p = tenQPart(h, part);
          const prev = current as Section | null;
          // Inferred Part II (no PART II line) only after Part I's last items: earlier, "Item 1A. Risk Factors—..."
          // at the start of a line is a wrapped cross-reference in the MD&A, or a ToC line.
          const switches = p === 'II' && part === 'I' && !/^\s*PART\s+II\b/i.test(line);
          const afterPartI = /^10Q-PartI-Item-[34]$/.test(prev?.itemTag ?? '');
          // Never back from Part II to Part I without a PART I line: "Item 1. “Financial Statements” in Part I." in
          // Part II Item 1 is a cross-reference.
          const goesBack = p === 'I' && part === 'II' && h.part !== 'I';
          if (
            (!switches || afterPartI) &&
            !goesBack &&
            (TEN_Q_ITEMS as Record<Part, readonly string[]>)[p].includes(h.item)
          ) {
            part = p;
            const cur = current as Section | null;
            if (cur?.itemTag !== `10Q-Part${p}-Item-${h.item}`) {
              open(p, h.item, h.title, page, lineNo);
              continue;
            }
            // A bare running header ("Item 1") opened the section; the titled heading below it is the real one.
            if (!cur.title && h.title && cur.heading.page === page) {
              cur.heading = { page, lineNo };
              cur.title = h.title;
              continue;
            }
          }
        }
      }
      const cur = current as Section | null;
      if (cur && line.trim()) cur.lines.push({ page, lineNo, offset: lineOffset, text: line });
    }
  });
  return sections.filter((s) => s.lines.length > 0);
}
