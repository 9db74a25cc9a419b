import { metricCodes } from '../../index-format/metrics';
import type { Section, SectionLine } from './segment';
import { classifyStatus, extractStatements, type RawStatement } from '../statements/statements';

/**
 * The cover page of a 10-K or 10-Q: the registrant's name, state of incorporation and address, the securities
 * registered under Section 12(b) of the Exchange Act (each class, its trading symbol and exchange), the shares
 * outstanding and (10-K) the market value held by non-affiliates. No item holds these facts, so the item
 * segmentation leaves the page out; this section puts it back under its own tag.
 *
 * The cover is the first page (of the first three) that prints the form's header (the Commission's name and "FORM
 * 10-K" / "FORM 10-Q"), and the page after it when that page continues the cover, up to the first item heading or
 * table of contents. The form's check-box questions ("Indicate by check mark whether the registrant ...") are the
 * same words in every filing and answer nothing about the company: their lines are left out (isCheckBoxLine).
 */
export const COVER_TAGS = { '10-K': '10K-Item-Cover', '10-Q': '10Q-Cover' } as const;

/**
 * Whether a statement's words teach the word vectors: not a cover page's. Its words are the form's (registrant,
 * exchange act, pursuant to) in every filing alike, and say nothing of what the company's words mean.
 */
export function learnsMeaning(itemTag: string): boolean {
  return itemTag !== COVER_TAGS['10-K'] && itemTag !== COVER_TAGS['10-Q'];
}

const COMMISSION = /SECURITIES\s+AND\s+EXCHANGE\s+COMMISSION/i;
const FORM = /FORM\s+10\s*-\s*[KQ]\b/i;
/** Where the cover's continuation ends: a table of contents, or the first item or part heading. */
const COVER_END = /^\s*(?:table\s+of\s+contents|index)\s*$|^\s*(?:PART\s+I\b|ITEM\s*1\b)/i;
const MAX_PAGES = 2;

/** The cover page section of a filing, or null (no page of the first three prints the form's header). */
export function coverSection(
  formType: string,
  pages: readonly string[],
  firstItem: Section | undefined,
): Section | null {
  const itemTag = formType === '10-Q' ? COVER_TAGS['10-Q'] : COVER_TAGS['10-K'];
  const start = pages.slice(0, 3).findIndex((p) => COMMISSION.test(p) && FORM.test(p));
  if (start < 0) return null;
  const stop = firstItem?.heading ?? { page: pages.length, lineNo: 0 };
  if (stop.page < start) return null;
  const lines: SectionLine[] = [];
  let skipping = false;
  for (let page = start; page < Math.min(pages.length, start + MAX_PAGES); page++) {
    let offset = 0;
    const pageLines = pages[page]!.split('\n');
    for (const [lineNo, text] of pageLines.entries()) {
      const lineOffset = offset;
      offset += text.length + 1;
      if (page === stop.page && lineNo >= stop.lineNo) return section(itemTag, start, lines);
      // The continuation page ends where the report proper begins.
      if (page > start && COVER_END.test(text)) return section(itemTag, start, lines);
      if (!text.trim()) continue;
      // A check-box question runs over a few lines and ends with its answer ("Yes x No o", or the boxes).
      const question = CHECK_BOX_QUESTION.test(text);
      if (question || (skipping && !startsNewFact(text)) || CHECK_BOX.test(text)) {
        skipping = (question || skipping) && !ANSWER.test(text);
        continue;
      }
      skipping = false;
      // The form's field captions under each blank ("(Exact name of registrant as specified in its charter)").
      if (FIELD_CAPTION.test(text)) continue;
      lines.push({ page, lineNo, offset: lineOffset, text });
    }
  }
  return section(itemTag, start, lines);
}

function section(itemTag: string, page: number, lines: SectionLine[]): Section | null {
  if (!lines.length) return null;
  return { itemTag, itemCode: 'C', title: 'Cover page', heading: { page, lineNo: 0 }, lines };
}

const FIELD_CAPTION = /^\s*(?:\([^()]*\)\s*)+$/;
const CHECK_BOX_QUESTION = /\bindicate\s+by\s+check\s+mark\b/i;
/** Check boxes (filer status, the report's kind) and a question's answer. */
const CHECK_BOX = /[☐☒☑þ¨]/;
const ANSWER = /[☐☒☑þ¨]|\bYes\b[\s\S]*\bNo\b|\bNo\s*[xo☐☒]\s*$/i;
const isCheckBoxLine = (text: string) => CHECK_BOX_QUESTION.test(text) || CHECK_BOX.test(text);

/**
 * After a check-box question, the cover's facts resume at a line that states one: the aggregate market value held by
 * non-affiliates, the shares outstanding, or the documents incorporated by reference.
 */
const NEW_FACT = new RegExp(
  String.raw`^\s*(?:the\s+)?(?:aggregate\s+market\s+value|as\s+of\b|on\s+\w+\s+\d|number\s+of\s+shares` +
    String.raw`|shares\s+of\b|documents\s+incorporated|class\b|common\s+stock)`,
  'i',
);
function startsNewFact(text: string): boolean {
  return NEW_FACT.test(text) || /\boutstanding\b/i.test(text);
}

const SECTION_12B = /registered\s+pursuant\s+to\s+section\s+12\s*\(b\)/i;
const TABLE_END = /section\s+12\s*\(g\)|^\s*note\b/i;
const COLUMN_HEADER = /title\s+of\s+each\s+class|trading\s+symbol|name\s+of\s+each\s+exchange/i;

/**
 * The cover's statements. Each line of the Section 12(b) table (a class of securities, its trading symbol, the
 * exchange) is one statement, its columns joined by " | " and read with the table's title ("Securities
 * registered pursuant to Section 12(b) of the Act: ..."): the prose reader would drop those lines as headings (short,
 * title case, no period) or run them together. The rest of the cover is read as any other text.
 */
export function coverStatements(section: Section, formType: string): RawStatement[] {
  const rows: RawStatement[] = [];
  const rest: SectionLine[] = [];
  let inTable = false;
  for (const line of section.lines) {
    const text = line.text.trim();
    if (SECTION_12B.test(text)) {
      inTable = true;
      rest.push(line);
      continue;
    }
    // The table ends at the Section 12(g) line, or at the next sentence (the shares outstanding).
    if (
      inTable &&
      (TABLE_END.test(text) || isCheckBoxLine(text) || (/\.$/.test(text) && text.split(/\s+/).length >= 6))
    )
      inTable = false;
    if (!inTable) {
      rest.push(line);
      continue;
    }
    if (COLUMN_HEADER.test(text)) continue;
    const cells = text.split(/\s{2,}/).filter((c) => c && !/^[—–-]+$/.test(c));
    if (!cells.length || !/[A-Za-z]/.test(text)) continue;
    const statement = `Securities registered pursuant to Section 12(b) of the Act: ${cells.join(' | ')}`;
    const lead = line.text.length - line.text.trimStart().length;
    rows.push({
      text: statement,
      page: line.page,
      offset: line.offset + lead,
      endPage: line.page,
      endOffset: line.offset + line.text.trimEnd().length,
      kind: 'sentence',
      status: classifyStatus(statement, 'sentence', section.itemTag),
      metrics: metricCodes(statement),
    });
  }
  const prose = extractStatements({ ...section, lines: rest }, formType);
  return [...prose, ...rows].sort((a, b) => a.page - b.page || a.offset - b.offset);
}
