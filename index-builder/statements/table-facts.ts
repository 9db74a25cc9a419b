import { fiscalYearLabel } from '../segment/fiscal-year';

/**
 * Financial tables read from layout text (PDF page text or EDGAR HTML flattened to 3-space columns): a row's label,
 * one value per column with the column's period, the table's scale ("in millions") and unit, negatives from
 * parentheses. The builder turns each row into one statement and keeps the cells for consensus across filings.
 */

export type Scale = 'thousands' | 'millions' | 'billions' | null;

export interface TableCell {
  /** As printed, without `$`: "(1,577)", "4,837", "91%", "—". */
  raw: string;
  /** Signed number in the table's scale (parentheses -> negative, dash -> 0), null when not a number. */
  value: number | null;
  /** Human period of the column ("FY2018", "three months ended July 1, 2023"), null when the header is unknown. */
  period: string | null;
  /** Canonical period for matching across filings ("FY2018", "2023-07-01/3M", "2023-07-01"), null when unknown. */
  periodKey: string | null;
  /**
   * The column group the period belongs to, when a table repeats its periods under group headings ("Net Sales",
   * "Operating Income"; "United States", "International"): columnGroups. Part of what the cell matches across filings.
   */
  group?: string;
}

export interface TableFact {
  label: string;
  cells: TableCell[];
  scale: Scale;
  /**
   * "USD", "%", "points" (percentage or basis points, printed with each value), "USD per share" or "shares", from
   * the cells and the label; null when the row gives no hint.
   */
  unit: string | null;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
/** A month's name, in full or abbreviated ("Dec.", "Sept"). */
export const MONTH_RE =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?' +
  '|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';
const YEAR_CELL = /^(?:FY\s?|Fiscal\s+)?((?:19|20)\d\d)(?:\s*\(.*\))?$/i;
/**
 * A row labelled by the year it falls in, as a schedule of future payments prints its rows ("2024   $   1,139   $
 * 127", "2027-2031   7,062": debt maturities, lease payments, benefit payments by year). Its label has no letters.
 */
const YEAR_LABEL = /^(?:19|20)\d\d(?:\s*[-–—]\s*(?:19|20)?\d\d)?$/;
const BARE_YEAR = /^(?:19|20)\d\d$/;
/** A column headed by the filer's fiscal quarter or its year to date, as Intel's MD&A heads them: "Q2 2023". */
const QUARTER_CELL = /^(?:Q([1-4])|YTD)\s+((?:19|20)\d\d)$/i;
/** A label counting shares: it starts with the count's words and names shares, or says what shares are used for. */
const SHARE_COUNT_LABEL = new RegExp(
  String.raw`^(?:(?:weighted[- ]average|average|basic|diluted|shares|number of|common shares)\b.*\bshares\b` +
    String.raw`|shares used\b|denominator\b)`,
  'i',
);
const PER_SHARE_LABEL = /per (?:common |ordinary |diluted |basic )?share|\bEPS\b/i;
/**
 * The price of a share is an amount per share: "Year-end stock price", "Price range of common stock: High", "Market
 * price of common stock: Low" (Item 5's market information and five-year summaries print them under a caption's
 * "(In millions)"). A group label counts only for the columns a price table has ("High", "Low", "Fourth quarter"):
 * "Common stock price: Current ratio" is a group label's leak.
 */
const SHARE_PRICE_LABEL = new RegExp(
  String.raw`^(?:[\w-]+\s+){0,2}(?:stock|share)\s+prices?\b(?!-)|^(?:market\s+)?prices?\s+(?:range\s+)?of\s+` +
    String.raw`(?:our\s+|the\s+)?(?:common\s+)?(?:stock|shares)\b`,
  'i',
);
const PRICE_COLUMN_LABEL =
  /^(?:(?:high|low|close|closing|first|second|third|fourth|quarter|q[1-4]|fiscal|\d{4})\s*)+$/i;
/** A dollar word makes a shares label an amount ("par value", "at cost"); "per share amounts" is what counts serve. */
const DOLLAR_WORD = /\$|\bvalues?\b|\bcosts?\b|\bprices?\b|\bamounts?\b/i;

/**
 * A row naming a ratio ("Tier 1 capital ratio", "Ratio of earnings to fixed charges", "Current ratio", "Allowance for
 * loan losses to period-end loans retained"): its figures are ratios or percentages, not the caption's dollars, when
 * none is beyond 100 ("Average total assets to calculate the Tier 1 leverage ratio: 218.6" is an amount).
 */
const RATIO_LABEL = /\bratios?\b|\bto (?:total|period-end|average) (?:retained )?loans\b/i;
/** A column's date: "December 31, 2021", "Dec 31", and as a balance sheet may head it, "At December 31, 2021". */
const DATE_CELL = new RegExp(`^(?:(?:at|as of)\\s+)?(${MONTH_RE})\\s+(\\d{1,2}),?\\s*((?:19|20)\\d\\d)?$`, 'i');
const SPAN_CELL = new RegExp(
  String.raw`\b(three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|\d{1,2})\s+(months` +
    String.raw`|weeks)\s+ended\b|\b(years?|quarters?)\s+ended\b`,
  'i',
);
/**
 * A span's trailing month and day ("Three Months Ended March 31,"), with the years a title lists after them ("Year
 * Ended December 31, 2015, 2014, and 2013"): the period names the span, then each column's own date.
 */
const TRAILING_MONTH_DAY = new RegExp(
  String.raw`\s*(?:(?:January|February|March|April|May|June|July|August|September|October|November` +
    String.raw`|December)\.?\s+\d{1,2},?)(?:\s*,?\s*(?:and\s+)?(?:19|20)\d\d)*\s*,?\s*$`,
  'i',
);
const NUMBER_TOKEN = /^\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?$|^\(?-?\$?\.\d+\)?%?$/;
const DASH_TOKEN = /^[—–-]+$/;
/**
 * Percentage points and basis points after a figure, as MD&A tables print the drivers of a change ("Net price
 * realization and mix   15 pts", "Contributions from volume growth   (8)pts") and a margin's change ("(130 ) bp").
 */
const POINTS = String.raw`(?:pts?|bps?)\.?`;
const POINT_UNIT = new RegExp(`^${POINTS}$`, 'i');
/** A figure with its point unit, as one token ("(8)pts") or joined by parseRow ("15 pts"); group 1 is the figure. */
const NUMBER_WITH_POINTS = new RegExp(String.raw`^(\(?-?\d[\d,]*(?:\.\d+)?\)?)\s?${POINTS}$`, 'i');
/** A footnote mark ("*" for "less than 1%" or "not meaningful", a letter such as "(b)"). */
const MARKS = String.raw`\*{1,3}|\([a-z]\)`;
/** Cells of words or marks that stand where a figure would: a line of them alone is no row. */
const WORDS = String.raw`nm|n\/m|n\/a|na|${MARKS}`;
/**
 * A cell that holds no figure: "NM" (not meaningful), "N/A", "NA", a dash printed with a percent sign ("—%"), or a
 * footnote mark where a figure would stand. Its column still counts, so the figures after it keep their periods.
 */
const EMPTY_CELL = new RegExp(`^(?:[—–-]+%|${WORDS})$`, 'i');
const WORD_CELL = new RegExp(`^(?:${WORDS})$`, 'i');
/** A footnote mark before the first figure belongs to the label ("Revenue   (a)   1,234"), not to a column. */
const MARK = new RegExp(`^(?:${MARKS})$`, 'i');
/** A figure with footnote marks printed against it; group 1 is the figure. */
const MARKED_FIGURE = /^(\(?-?\$?\d[\d,]*(?:\.\d+)?\)?%?)(?:\([a-z]\))+$/i;
/** A negative figure still waiting for its closing parenthesis ("(390" of "(390 )"). */
const OPEN_NEGATIVE = /^\(-?\$?[\d.,]+%?$/;
/** Whether a row's value is in points (POINT_UNIT). */
function inPoints(value: string): boolean {
  return NUMBER_WITH_POINTS.test(value);
}

/**
 * Whether a row label counts shares or states an amount per share. The row's own label decides first (after its
 * group's: "Diluted earnings per share: Weighted average shares outstanding" is a count, "Shares used in
 * computation: Diluted earnings per share" an amount per share), then the whole label ("Shares used in computing
 * earnings per share: Basic" is a count); "Average price per share" is an amount per share, and so is a share's
 * price ("Year-end stock price"). The denominator of earnings per share counts shares, its numerator is the earnings.
 */
export function shareKind(label: string): 'count' | 'per share' | null {
  const counts = (l: string) =>
    SHARE_COUNT_LABEL.test(l) && !DOLLAR_WORD.test(l.replace(/\bper[- ]share amounts?\b/gi, ''));
  // A label stating the amount per share ("Dividends declared ($4.44 per share)") totals dollars.
  const stated = label.replace(/\$\s?[\d.,]+\s+per (?:common |ordinary )?share/gi, '');
  const own = stated.slice(stated.lastIndexOf(': ') + 1).trim();
  for (const l of [own, stated]) {
    if (counts(l)) return 'count';
    // The numerator of earnings per share is the earnings.
    if (PER_SHARE_LABEL.test(l) && !/^numerator\b/i.test(l)) return 'per share';
  }
  const groups = stated.split(': ');
  const price =
    SHARE_PRICE_LABEL.test(own) || (PRICE_COLUMN_LABEL.test(own) && groups.some((g) => SHARE_PRICE_LABEL.test(g)));
  return price ? 'per share' : null;
}

/** Splits a layout line into columns (3+ spaces). */
export function splitColumns(line: string): string[] {
  return line
    .trim()
    .split(/ {3,}/)
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * A data row: a label with letters (or a year: YEAR_LABEL), then value tokens only. Cells such as "(3,086) $" or
 * "$ 1,577" are split into tokens; "$" tokens are dropped and a lone "%" joins the number before it. `withText`: cells
 * of words next to the label or at the row's end describe the row and join its label ("Medium-term note ($650
 * million)   USD Fixed   1.10 %   2017   648   647", "Inlyta   Advanced RCC   477   298   339", "Tax effect   176
 * 122   197   Provision for income taxes"); `described` counts them.
 */
export function parseRow(
  line: string,
  withText = false,
): { label: string; values: string[]; indent: number; described?: number } | null {
  const cols = splitColumns(line);
  if (cols.length < 2) return null;
  const yearLabel = YEAR_LABEL.test(cols[0]!);
  if (!yearLabel && !/[A-Za-z]/.test(cols[0]!)) return null;
  const cells = cols.slice(1);
  const described: string[] = [];
  if (withText) {
    while (described.length < MAX_TEXT_CELLS && cells.length > 1 && isTextCell(cells[0]!))
      described.push(cells.shift()!);
    if (cells.length > 1 && isTextCell(cells.at(-1)!)) described.push(cells.pop()!);
  }
  const values: string[] = [];
  let label = cols[0]!;
  // "($2,128)": the dollar sign's removal leaves the opening parenthesis a token of its own.
  let opening = '';
  for (const col of cells) {
    if (DURATION_VALUE.test(col) && !opening) {
      values.push(col.replace(/\s+/g, ' '));
      continue;
    }
    for (const raw of col.replace(/\$\s*/g, ' ').split(/\s+/).filter(Boolean)) {
      if (raw === '(' && !opening) {
        opening = '(';
        continue;
      }
      // A footnote mark printed against a figure ("39,240(b)", "(173)(b)") annotates it: the figure is the cell's.
      const tok = (opening + raw).replace(MARKED_FIGURE, '$1');
      if (opening && !NUMBER_TOKEN.test(tok)) return null;
      opening = '';
      if (!values.length && MARK.test(tok)) {
        label = `${label} ${tok}`;
        continue;
      }
      const last = values.length - 1;
      const prev = values[last];
      if (tok === '%' && prev !== undefined) values[last] += '%';
      // "(390 )": the layout split a negative figure's closing parenthesis off.
      else if (tok === ')' && prev !== undefined && OPEN_NEGATIVE.test(prev)) values[last] += ')';
      else if (POINT_UNIT.test(tok) && prev !== undefined && NUMBER_TOKEN.test(prev) && !prev.endsWith('%'))
        values[last] += ` ${tok}`;
      else if (NUMBER_TOKEN.test(tok) || DASH_TOKEN.test(tok) || NUMBER_WITH_POINTS.test(tok) || EMPTY_CELL.test(tok))
        values.push(tok);
      else return null; // words after the label: prose that happens to contain wide spaces
    }
  }
  if (opening || !values.length || values.every((v) => WORD_CELL.test(v))) return null;
  // Years only ("2023   2022   2021") are a header, not a row labelled 2023.
  if (yearLabel && values.every((v) => BARE_YEAR.test(v) || DASH_TOKEN.test(v))) return null;
  // Words beside fewer than two figures are more likely prose set in columns than a row; beside years only, or after
  // a caption ("(Millions)   Total   2016   2017   ...   After 2020"), they are a header's headings.
  if (described.length) {
    const figures = values.filter((v) => !WORD_CELL.test(v));
    if (figures.length < 2 || figures.every((v) => BARE_YEAR.test(v) || DASH_TOKEN.test(v))) return null;
    if (parseScale(cols[0]!) || /^\(/.test(cols[0]!)) return null;
    // A label in lower case, opening as a sentence does or with a sentence's end is prose beside the table (a page
    // set in two columns); a figure ending in a comma is a date's day split from its year (a header's).
    if (/^[a-z]/.test(cols[0]!) || /\.\s|[a-z]{2}\.$/.test(cols[0]!) || SENTENCE_OPENING.test(cols[0]!)) return null;
    if (figures.some((v) => v.endsWith(','))) return null;
  }
  const indent = line.length - line.trimStart().length;
  label = label.replace(/\s*\.{3,}\s*$/, '');
  for (const words of described) label = /:$/.test(label) ? `${label} ${words}` : `${label}, ${words}`;
  return described.length ? { label, values, indent, described: described.length } : { label, values, indent };
}

/** A cell of years: a remaining lease term or a useful life ("12.0 years", "8 years"), a value with its unit. */
const DURATION_VALUE = /^\d[\d,]*(?:\.\d+)?\s?(?:years?|yrs?\.?)$/i;
/** A useful life as a column prints it, one or a range ("3 - 11 years", "5 to 90 years"): it describes a row. */
const DURATION_CELL = /^\d+(?:\.\d+)?(?:\s*(?:-|–|to)\s*\d+(?:\.\d+)?)?\s?(?:years?|yrs?\.?)$/i;

/** At most this many cells of words (isTextCell) stand between a row's label and its first figure. */
const MAX_TEXT_CELLS = 2;

/**
 * A cell of a few words that no figure reads as: not a sentence (no clause punctuation, no full stop but an
 * abbreviation's), at most 48 characters and 6 words.
 */
function isTextCell(cell: string): boolean {
  if (DURATION_CELL.test(cell)) return true;
  if (cell.length > 48 || !/[A-Za-z]{2}/.test(cell) || cell.split(/\s+/).length > 6) return false;
  // A clause, a sentence's end, or words that go on (a comma, "to", "and"): prose or a label wrapped beside the table.
  if (/[;:!?,]|\.\s/.test(cell) || /[a-z]{2}\.$/.test(cell) || GOES_ON.test(cell)) return false;
  const tokens = cell.replace(/\$\s*/g, ' ').split(/\s+/).filter(Boolean);
  // A figure before words is a value beside its unit or a neighbour's text ("12.0 years", "(17) Provision for ...").
  return !VALUE_TOKEN.test(tokens[0]!) && tokens.some((tok) => !VALUE_TOKEN.test(tok));
}

/** The opening of a sentence, not of a row label: "Refer to Note 9 for ...", "Given the remaining uncertainty ...". */
const SENTENCE_OPENING = /^(?:the|refer|given|see|in|as|for|this|these|our|we|it)\s+(?:\S+\s+){3,}/i;

/** Words that end a cell only when its text goes on elsewhere. */
const GOES_ON = /\b(?:to|of|and|or|for|in|on|at|by|with|from|the|a|an)$/i;

/** A token parseRow reads as (part of) a figure or a cell without one. */
const VALUE_TOKEN = new RegExp(
  [NUMBER_TOKEN, DASH_TOKEN, NUMBER_WITH_POINTS, EMPTY_CELL, POINT_UNIT, MARK].map((r) => `(?:${r.source})`).join('|') +
    String.raw`|^[%()]$`,
  'i',
);

/** The number a cell stands for: parentheses or a minus are negative, a dash is zero, an EMPTY_CELL none. */
export function cellValue(raw: string): number | null {
  if (DASH_TOKEN.test(raw)) return 0;
  if (EMPTY_CELL.test(raw)) return null;
  const figure =
    NUMBER_WITH_POINTS.exec(raw)?.[1] ?? (DURATION_VALUE.test(raw) ? raw.replace(/\s?[a-z.]+$/i, '') : raw);
  const negative = /^\(.*\)%?$/.test(figure) || figure.startsWith('-');
  const n = Number(figure.replace(/[()$,%-]/g, ''));
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

/** "(In millions, except per share amounts)", "(Millions)", "in thousands": the scale a caption sets. */
export function parseScale(line: string): Scale {
  const m = /(?:\b(?:in|dollars\s+in|amounts\s+in)\s+|\(\s*)(thousands|millions|billions)\b/i.exec(line);
  return m ? (m[1]!.toLowerCase() as Scale) : null;
}

/**
 * A column-header line of years or dates; the optional first column is a caption such as "(Millions)", or the
 * month-day every year column ends on ("June 30,   2023   2022": `monthDay` "June 30,").
 */
export function parseHeader(
  line: string,
): { cells: string[]; caption: string | null; monthDay?: string; textColumns?: number } | null {
  const cols = splitColumns(line);
  const isPeriod = (c: string) => YEAR_CELL.test(c) || DATE_CELL.test(c) || QUARTER_CELL.test(c);
  const first = cols[0] ?? '';
  const yearless = DATE_CELL.exec(first);
  if (yearless && !yearless[3] && cols.length >= 3 && cols.slice(1).every((c) => YEAR_CELL.test(c)))
    return { cells: cols.slice(1), caption: null, monthDay: first };
  const body = isPeriod(first) ? cols : cols.slice(1);
  if (!body.length || !body.every(isPeriod)) return textColumnHeader(cols);
  // A lone year is a heading or a page artefact, not a column header; a caption with one year column is. A lone "As of
  // December 31, 2022" is a title's date line (a subsidiaries exhibit's), not a column's.
  if (body.length === 1 && !DATE_CELL.test(body[0]!) && (cols.length === 1 || !/[a-z]{3}|\(/i.test(first))) return null;
  if (body.length === 1 && /^(?:at|as of)\s/i.test(body[0]!)) return null;
  return { cells: body, caption: isPeriod(first) ? null : first };
}

/**
 * A header whose text columns come before its years: "(in millions)   Balance Sheet Location   2019   2018", "Type of
 * Derivative   Classification in Consolidated Statements of Operations   2015   2014   2013". The rows under it join
 * their words to their labels (parseRow's `withText`), so their figures line up with the years. The first cell is the
 * caption or the label column's heading; one or two headings of words follow, then two years or more that a header
 * prints (consecutive, once or repeated: "2023   2022   2023   2022"), not the years a row may hold ("2021   2022
 * 2024", a patent's expiry in three markets).
 */
function textColumnHeader(
  cols: readonly string[],
): { cells: string[]; caption: string | null; textColumns: number } | null {
  let years = 0;
  while (years < cols.length && YEAR_CELL.test(cols[cols.length - 1 - years]!)) years++;
  const lead = cols.length - years;
  if (years < 2 || lead < 2 || lead > 3) return null;
  if (!cols.slice(1, lead).every((c) => isHeading(c) && !/\d/.test(c))) return null;
  const cells = cols.slice(lead);
  const ys = cells.map((c) => Number(YEAR_CELL.exec(c)![1]));
  const distinct = new Set(ys);
  const consecutive = Math.max(...ys) - Math.min(...ys) === distinct.size - 1 && ys.length % distinct.size === 0;
  // One year repeated ("2022   2022") dates its columns by month-days printed elsewhere: not this header's periods.
  return consecutive && distinct.size > 1 ? { cells, caption: cols[0]!, textColumns: lead - 1 } : null;
}

/**
 * A line that is one period alone ("Fiscal 2016", "2016", "December 31, 2022"), as a segment table prints one between
 * its blocks of rows when its columns are segments: the period's cell, or null. A month-day without its year
 * ("December 31,") is a header's line, not a period.
 */
export function blockPeriod(line: string): string | null {
  const cols = splitColumns(line);
  if (cols.length !== 1) return null;
  const cell = cols[0]!;
  return YEAR_CELL.test(cell) || DATE_CELL.exec(cell)?.[3] ? cell : null;
}

/** The fair-value hierarchy's columns (ASC 820: "Level 1   Level 2   Level 3   Total"): headings ending in a digit. */
const FAIR_VALUE_LEVEL = /^Level [1-3]$/i;

/**
 * A column's heading: short words that start as a name does. A line starting in lower case, with a figure or a closing
 * parenthesis is the second line of headings wrapped over two ("Commercial" / "and industrial"), which cannot be put
 * together here.
 */
function isHeading(c: string): boolean {
  return (
    c.length <= 60 &&
    /^[A-Z(]/.test(c) &&
    /[A-Za-z]{2}/.test(c) &&
    (c.match(/\(/g)?.length ?? 0) === (c.match(/\)/g)?.length ?? 0) &&
    (!/\d[\d,]*\.?\d*\s*$/.test(c) || FAIR_VALUE_LEVEL.test(c)) &&
    !/[.;]$/.test(c) &&
    !parseSpans(c)
  );
}

/**
 * The group heading of each header cell, when the line above a header names groups of columns that repeat the same
 * periods ("Net Sales   Operating Income" over "2018   2017   2016   2018   2017   2016"; "Net Revenue   Long-Lived
 * Assets" over "2019   2018   2017   2019   2018"). Within a group the years run one way; a year that does not go on
 * that way starts the next group, and there must be as many groups as headings. Null otherwise (a caption over the
 * whole header, a line of prose, headings that do not line up): then the cells keep their periods alone.
 */
export function columnGroups(line: string, cells: readonly string[]): string[] | null {
  const headings = splitColumns(line);
  if (headings.length < 2 || headings.length >= cells.length) return null;
  if (!headings.every(isHeading)) return null;
  const years = cells.map((c) => Number(YEAR_CELL.exec(c)?.[1] ?? DATE_CELL.exec(c)?.[3] ?? Number.NaN));
  if (years.some((y) => !Number.isFinite(y))) return null;
  const step = Math.sign(years[1]! - years[0]!) || -1;
  const group: number[] = [0];
  for (let i = 1; i < years.length; i++) {
    const goesOn = Math.sign(years[i]! - years[i - 1]!) === step;
    group.push(group[i - 1]! + (goesOn ? 0 : 1));
  }
  if (group[group.length - 1]! + 1 !== headings.length) return null;
  return group.map((g) => headings[g]!);
}

/**
 * The headings of a table whose columns are not periods ("Operating Leases   Finance Leases   Total", "Flexibles
 * Rigid Packaging   Total", "Amortized Cost   Fair Value"), read from the line above its first row: one heading per
 * value of that row, after a caption ("In millions", "($ in millions)") or the label column's heading when the
 * line starts with one. Null when the line is anything else: a period header, prose, a row, or headings that do not
 * match the row's values one for one.
 */
export function columnHeadings(line: string, values: number, labelHeading = false): string[] | null {
  let cells = splitColumns(line);
  // One cell more than values: the first is the caption, or (`labelHeading`: no row of the table has a value for it)
  // the label column's own heading ("State or Territory", "Plan category", "Fiscal Year").
  const caption = (c: string) => /millions|thousands|billions|dollars|^\(/i.test(c) || YEAR_STUB.test(c);
  if (cells.length === values + 1 && (caption(cells[0]!) || (labelHeading && isHeading(cells[0]!))))
    cells = cells.slice(1);
  if (cells.length < 2 || cells.length !== values) return null;
  return cells.every(namesColumn) ? cells : null;
}

/** The heading of a schedule's label column when its rows are years ("Fiscal Year" over "2025", "2026", ...). */
const YEAR_STUB = new RegExp(
  String.raw`^(?:fiscal\s+)?years?(?:\s+(?:ending|ended)(?:\s+${MONTH_RE}\s+\d{1,2},?)?)?:?$`,
  'i',
);

/** A heading naming a column, not a period; a cell in parentheses alone is a unit ("(in millions)", "(per share)"). */
function namesColumn(c: string): boolean {
  return isHeading(c) && !YEAR_CELL.test(c) && !DATE_CELL.test(c) && !/^\(.*\)$/.test(c);
}

/**
 * The sub-columns every period of a header repeats, read from the line under it, after a caption ("In Millions")
 * when the line starts with one: at least two headings, the same ones in the same order under each period.
 */
export function subColumns(line: string, periods: number): string[] | null {
  let cells = splitColumns(line);
  if (cells.length % periods !== 0 && /millions|thousands|billions|^\(/i.test(cells[0] ?? '')) cells = cells.slice(1);
  const k = cells.length / periods;
  if (!Number.isInteger(k) || k < 2) return null;
  if (!cells.every(namesColumn)) return null;
  const first = cells.slice(0, k);
  const norm = (c: string) => c.toLowerCase().replace(/\s+/g, ' ');
  return cells.every((c, i) => norm(c) === norm(first[i % k]!)) ? first : null;
}

/**
 * The line under column headings that goes on with every one of them ("Amortized   Estimated" over "Cost   Fair
 * Value"): as many cells as headings, words only. Null otherwise: without column positions, a line with fewer cells
 * ("Common   Retained" over "Stock   Earnings   Total") cannot be lined up.
 */
export function headingsGoOn(line: string, count: number): string[] | null {
  const cells = splitColumns(line);
  if (cells.length !== count) return null;
  const words = (c: string) => c.length <= 60 && /[A-Za-z]{2}/.test(c) && !/\d/.test(c) && !/[.;:]$/.test(c);
  return cells.every(words) ? cells : null;
}

/** A heading and the line that goes on with it: "Weighted-" and "average" join without a space. */
export function joinHeading(top: string, next: string): string {
  return /[A-Za-z]-$/.test(top) ? `${top}${next}` : `${top} ${next}`;
}

/** "Three Months Ended   Nine Months Ended": the duration of each group of columns. */
export function parseSpans(line: string): string[] | null {
  const all = splitColumns(line);
  // A lone one- or two-digit cell before the spans is a layout artefact (a footnote or page number set beside them).
  const cols = all.length > 1 && /^\d{1,2}$/.test(all[0]!) ? all.slice(1) : all;
  // Each column is a short span phrase ("Three Months Ended", "For the Years Ended December 31,"); a prose line that
  // mentions "three months ended" somewhere is not a header.
  const isSpan = (c: string) =>
    c.length <= 60 &&
    SPAN_CELL.test(c) &&
    /^(?:for\s+the\s+|the\s+)?(?:\w+(?:-\w+)?\s+(?:months|weeks)|years?|quarters?|fiscal\s+years?)\b/i.test(c);
  if (!cols.length || !cols.every(isSpan)) return null;
  return cols;
}

/** A line of month-days only ("July 1,   June 25,"), the middle row of a three-line 10-Q header. */
export function parseMonthDays(line: string): string[] | null {
  // Two month-days set closer than a column gap are two columns' ("October 29,  October 30,", "Mar 31, Dec 31,").
  const cols = splitColumns(line).flatMap((c) => TWO_MONTH_DAYS.exec(c)?.slice(1) ?? [c]);
  return cols.length && cols.every((c) => MONTH_DAY_CELL.test(c)) ? cols : null;
}

const MONTH_DAY_CELL = new RegExp(`^${MONTH_RE}\\s+\\d{1,2},?$`, 'i');
/** A month and a day anywhere in a cell. */
const MONTH_DAY_IN = new RegExp(`\\b${MONTH_RE}\\s+\\d`, 'i');
const TWO_MONTH_DAYS = new RegExp(`^(${MONTH_RE}\\s+\\d{1,2},)\\s{1,2}(${MONTH_RE}\\s+\\d{1,2},?)$`, 'i');

/**
 * The period of a column headed "Q2 2023" or "YTD 2023" (QUARTER_CELL): keyed by the fiscal quarter, which is what
 * tells one filing's columns from the next one's ("YTD 2023" is six months in the second quarter's 10-Q and nine in
 * the third's). A year-to-date column takes the quarter the header's quarter columns name, and no period without one:
 * keyed by its year alone it would match every other quarter's year to date.
 */
function quarterPeriod(cell: string, cells: readonly string[]): { period: string; key: string } | null {
  const [, quarter, year] = QUARTER_CELL.exec(cell)!;
  if (quarter) return { period: `Q${quarter} ${year}`, key: `${year}Q${quarter}` };
  const named = new Set(cells.map((c) => QUARTER_CELL.exec(c)?.[1]).filter(Boolean));
  if (named.size !== 1) return null;
  return { period: `YTD ${year}`, key: `${year}Q${[...named][0]}/YTD` };
}

function spanKey(span: string): string {
  const m = SPAN_CELL.exec(span);
  if (!m) return '';
  if (m[3]) return /quarter/i.test(m[3]) ? '3M' : '12M';
  const words: Record<string, number> = {
    three: 3,
    six: 6,
    nine: 9,
    twelve: 12,
    thirteen: 13,
    'twenty-six': 26,
    'thirty-nine': 39,
    'fifty-two': 52,
    'fifty-three': 53,
  };
  const n = words[m[1]!.toLowerCase()] ?? Number(m[1]);
  if (/weeks/i.test(m[2]!)) return n >= 52 ? '12M' : n >= 39 ? '9M' : n >= 26 ? '6M' : '3M';
  return `${n}M`;
}

function isoDate(monthWord: string, day: string, year: string): string | null {
  const month =
    MONTHS[
      monthWord
        .toLowerCase()
        .replace('.', '')
        .slice(0, monthWord.toLowerCase().startsWith('sept') ? 4 : 3)
    ];
  if (!month) return null;
  return `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/** The running state of a table while lines are read: caption scale, spans, month-days and the column header. */
/** A period on a line of its own over a block of rows (blockPeriod), and the headings of the block's columns. */
export interface PeriodBlock {
  cell: string;
  headings: string[];
}

/** A table's column headings read above its first row, and the scale a caption cell before them gives. */
export interface ColumnHeadings {
  headings: string[];
  scale: Scale;
}

export class TableState {
  scale: Scale = null;
  spans: string[] | null = null;
  monthDays: string[] | null = null;
  /** The period of each column, once a header has been read. */
  periods: ({ period: string; key: string | null } | null)[] | null = null;
  /** The group heading of each column (columnGroups), when the header has them. */
  groups: string[] | null = null;
  /** A table without periods: the heading of each column (columnHeadings), read above its first row. */
  columns: string[] | null = null;
  /** The header's columns of words before its years (textColumnHeader): its rows' figures line up one for one. */
  textColumns = 0;
  /** "Years Ended December 31" read above the header: a month-day for bare-year columns. */
  yearEnd: string | null = null;
  parent: string | null = null;
  /** The header was the last line read: the line under it may name each period's sub-columns (subColumns). */
  private underHeader = false;
  /**
   * Sub-columns per period when they were the last line read (0 otherwise): the line under them may go on with their
   * headings (headingsGoOn).
   */
  private underSubColumns = 0;

  constructor(
    readonly formType: string,
    /** The year the filing's fiscal year ends in (extractStatements' `fiscalYear`). */
    readonly fiscalYear: number | null = null,
  ) {}

  /** A new table: nothing of the last one's holds; `scale` is what its introducing sentence says (introducedScale). */
  reset(scale: Scale = null): void {
    this.forgetSpans();
    this.scale = scale;
    this.periods = null;
    this.groups = null;
    this.columns = null;
    this.textColumns = 0;
    this.parent = null;
    this.underHeader = false;
    this.underSubColumns = 0;
  }

  /**
   * Forgets the spans read above the last header (and the month-days and year end under them): a header read next
   * belongs to another table. The scale and the last header's periods stay until that table's own are read.
   */
  forgetSpans(): void {
    this.spans = this.monthDays = null;
    this.yearEnd = null;
  }

  /** Whether read() would take the line as table furniture (without changing the state). */
  static isFurniture(line: string): boolean {
    const trimmed = line.trim();
    return (
      !!parseSpans(line) ||
      !!parseMonthDays(line) ||
      !!parseHeader(line) ||
      (!!parseScale(line) && trimmed.length < 140 && /^\(|^in\s|^dollars|^amounts|^\(?millions/i.test(trimmed))
    );
  }

  /**
   * The column headings read above a table's first row, when there are any (a table after it with no headings of its
   * own keeps them); their caption's scale when the table has none yet.
   */
  takeColumns(read: ColumnHeadings | null): void {
    if (!read) return;
    this.columns = read.headings;
    this.scale ??= read.scale;
  }

  /**
   * Feeds a line that is not a data row. Returns true when the line was table furniture (caption, spans, header, a
   * block's period line: `block`, the period and its columns' headings) and must not be read as prose.
   */
  read(line: string, above: string | null = null, block: PeriodBlock | null = null): boolean {
    if (block) {
      this.readBlock(block.cell, block.headings);
      return true;
    }
    const scale = parseScale(line);
    const trimmed = line.trim();
    const spans = parseSpans(line);
    if (spans) {
      this.spans = spans;
      const md = new RegExp(`(${MONTH_RE})\\s+(\\d{1,2})`, 'i').exec(line);
      this.yearEnd = md ? `${md[1]} ${md[2]}` : this.yearEnd;
      this.monthDays = null;
      if (scale) this.scale = scale;
      return true;
    }
    const monthDays = parseMonthDays(line);
    if (monthDays) {
      this.monthDays = monthDays;
      return true;
    }
    const header = parseHeader(line);
    if (header) {
      // "Three Months Ended September 30,   2023   2022": a caption naming a span shorter than a year is the columns'
      // span, so their periods are the quarter's, not bare years (a year's span keeps the fiscal-year labels).
      const captionSpan = header.caption ? parseSpans(header.caption) : null;
      if (captionSpan?.length === 1 && spanKey(captionSpan[0]!) !== '12M') {
        this.spans = captionSpan;
        this.monthDays = null;
      }
      if (header.caption && parseScale(header.caption)) this.scale = parseScale(header.caption);
      else if (header.caption && /^\(?(millions|thousands|billions)\)?$/i.test(header.caption))
        this.scale = header.caption.replace(/[()]/g, '').toLowerCase() as Scale;
      // A 10-K's year columns are fiscal years (labelled FY<year>, as where the month-day is a heading of its own);
      // a 10-Q's are dates, so the month-day is kept.
      if (header.monthDay && this.formType !== '10-K') this.monthDays = [header.monthDay];
      // "(In millions) (Unaudited)   March 31,   March 31,": month-days after a caption, their years on the next line.
      // A first cell that holds a date too (Corning's "Year ended December 31,   December 31,", a span beside one
      // balance's date) dates only some of the columns below, so its month-days are not the columns'.
      const days = header.cells.map((c) => DATE_CELL.exec(c));
      const datedCaption = header.caption && MONTH_DAY_IN.test(header.caption);
      if (!datedCaption && days.every((d) => d && !d[3])) this.monthDays = days.map((d) => `${d![1]} ${d![2]}`);
      this.periods = this.columnPeriods(header.cells);
      this.textColumns = header.textColumns ?? 0;
      this.groups = above ? columnGroups(above, header.cells) : null;
      this.columns = null;
      this.parent = null;
      this.underHeader = true;
      return true;
    }
    if (scale && trimmed.length < 140 && /^\(|^in\s|^dollars|^amounts|^\(?millions/i.test(trimmed)) {
      this.scale = scale;
      return true;
    }
    return false;
  }

  /**
   * A period printed on a line of its own over a block of rows whose columns are named by `headings` (a segment
   * table: "Digital Media   Marketing   Total" over "Fiscal 2016", its rows, "Fiscal 2015", its rows): every cell of
   * the block is that period's, in its column's group, as a header's column groups are.
   */
  private readBlock(cell: string, headings: readonly string[]): void {
    const period = this.columnPeriods([cell])[0] ?? null;
    this.periods = headings.map(() => period);
    this.groups = [...headings];
    this.columns = [...headings];
    this.parent = null;
    this.underHeader = false;
    this.underSubColumns = 0;
  }

  /**
   * The line under a header that names the same sub-columns under each period ("2023   2022" over "In Millions
   * Dollars   Percent of Total   Dollars   Percent of Total"): each period then spans its sub-columns, and each cell
   * is named by its sub-column as a column group's cells are. Returns false (nothing changed) for any other line.
   */
  readSubColumns(line: string): boolean {
    const under = this.underHeader;
    const k = this.underSubColumns;
    this.underHeader = false;
    this.underSubColumns = 0;
    if (k && this.groups) {
      // Sub-column headings wrapped over lines ("Foreign" / "Exchange" / "Option   Forward" / "Contracts", under each
      // year): each line under them with one word cell per column goes on with them, repeated under every period.
      const more = headingsGoOn(line, this.groups.length);
      const repeats = more?.every((c, i) => c.toLowerCase() === more[i % k]!.toLowerCase());
      if (!more || !repeats) return false;
      this.groups = this.groups.map((g, i) => joinHeading(g, more[i]!));
      this.underSubColumns = k;
      return true;
    }
    const periods = this.periods;
    if (!under || !periods || periods.length < 2 || this.groups) return false;
    const subs = subColumns(line, periods.length);
    if (!subs) return false;
    this.periods = periods.flatMap((p) => subs.map(() => p));
    this.groups = periods.flatMap(() => subs);
    this.scale = parseScale(line) ?? this.scale;
    this.underSubColumns = subs.length;
    return true;
  }

  /**
   * The month-day of year column i of `columns`: the one over them all, each column's own, or its span's when a line
   * prints one per span that names none ("March 31,   March 31," under "Three Months Ended   Nine Months Ended").
   */
  private monthDayOf(days: readonly string[], i: number, columns: number): string | null {
    if (days.length === columns) return days[i]!;
    if (days.length === 1) return days[0]!;
    const per = columns / days.length;
    const spansDated = this.spans?.some((s) => TRAILING_MONTH_DAY.test(s));
    return Number.isInteger(per) && this.spans?.length === days.length && !spansDated
      ? days[Math.floor(i / per)]!
      : null;
  }

  /**
   * The columns of a schedule's future years ("Expected amortization expense ... (Millions) 2016 2017 2018 2019 2020"
   * in the 2015 annual report, a target allocation for next year beside this year's): bare years after the year the
   * filing's fiscal year ends in. Each is its year, keyed by no period, since its figure is an estimate, not that
   * year's amount (another filing's FY2016 row is); a future year printed twice ("2020" under "After") is no column's
   * period. Undefined for a column of any other kind, null when no column is a future year.
   */
  private futureYears(cells: readonly string[]): ({ period: string; key: null } | null | undefined)[] | null {
    if (this.fiscalYear === null) return null;
    const years = cells.map((c) => (/^(?:FY|Fiscal)/i.test(c) ? null : Number(YEAR_CELL.exec(c)?.[1] ?? Number.NaN)));
    const future = (y: number | null): y is number => y !== null && y > this.fiscalYear!;
    if (!years.some(future)) return null;
    return years.map((y, i) => {
      if (!future(y)) return undefined;
      return years.indexOf(y) === i && years.lastIndexOf(y) === i ? { period: String(y), key: null } : null;
    });
  }

  private columnPeriods(cells: string[]): ({ period: string; key: string | null } | null)[] {
    const future = this.futureYears(cells);
    const spanOf = (i: number): string | null => {
      if (!this.spans?.length) return null;
      const per = cells.length / this.spans.length;
      return Number.isInteger(per) ? this.spans[Math.floor(i / per)]! : this.spans.length === 1 ? this.spans[0]! : null;
    };
    return cells.map((cell, i) => {
      if (QUARTER_CELL.test(cell)) return quarterPeriod(cell, cells);
      if (future?.[i] !== undefined) return future[i]!;
      const span = spanOf(i);
      const date = DATE_CELL.exec(cell);
      let day: string | null = null;
      let year: string;
      if (date) {
        year = date[3] ?? '';
        day = `${date[1]} ${date[2]}`;
      } else {
        year = YEAR_CELL.exec(cell)![1]!;
        // One month-day over all columns ("December 31,"), one per column ("July 1,   June 25,"), or one per span
        // that names none ("March 31,   March 31," under "Three Months Ended   Nine Months Ended", over four years).
        const md = this.monthDays ? this.monthDayOf(this.monthDays, i, cells.length) : null;
        if (md) day = md.replace(/,$/, '');
      }
      if (!day && span) {
        const m = new RegExp(`(${MONTH_RE})\\s+(\\d{1,2})`, 'i').exec(span);
        if (m) day = `${m[1]} ${m[2]}`;
      }
      if (!day && this.yearEnd) day = this.yearEnd;
      // "DECEMBER 31," as a header may print it, from whichever line gave it, reads "December 31".
      if (day) day = `${day[0]!.toUpperCase()}${day.slice(1).toLowerCase()}`;
      const spanText = span
        ? span
            .replace(/\s+/g, ' ')
            .replace(/^(?:for|during)\s+(?:the\s+)?/i, '')
            .replace(/\s*\((?:unaudited|[a-z]|\d{1,2})\)/gi, '') // "(unaudited)", a footnote's "(a)"
            .replace(TRAILING_MONTH_DAY, '')
            .toLowerCase()
        : null;
      const dm = day ? /^(\S+)\s+(\d{1,2})$/.exec(day) : null;
      const iso = dm && year ? isoDate(dm[1]!, dm[2]!, year) : null;
      const durationKey = span ? spanKey(span) : '';
      if (iso) {
        const period = spanText ? `${spanText.replace(/^years\b/, 'year')} ${day}, ${year}` : `${day}, ${year}`;
        // A fiscal year's flows and a 10-K's bare-year columns match across filings by fiscal-year label.
        if (durationKey === '12M') return { period, key: `FY${fiscalYearLabel(iso)}` };
        return {
          period,
          key: durationKey ? `${iso}/${durationKey}` : this.formType === '10-K' && !date ? `FY${year}` : iso,
        };
      }
      // A date without a year ("December 31," over a column whose year was lost in extraction): no period.
      if (!year) return null;
      if (this.formType === '10-K' && (!span || durationKey === '12M'))
        return { period: `FY${year}`, key: `FY${year}` };
      return { period: spanText ? `${spanText} ${year}` : year, key: durationKey ? `${year}/${durationKey}` : year };
    });
  }

  /** A data row read with the current header: cells get their periods when the counts line up. */
  toFact(row: { label: string; values: string[]; indent: number }): TableFact {
    this.underHeader = false;
    this.underSubColumns = 0;
    // Values line up with the header, or carry one extra trailing column ("% change") left without a period. Fewer
    // values than columns (blank cells) cannot be placed safely, so they get no period.
    const p = this.periods;
    // Under a header with columns of words, a figure too many is a column of figures the header names in words
    // ("Interest Rate"), before the periods: no period is safe then.
    const extra = this.textColumns ? 0 : 1;
    const aligned = p && (row.values.length === p.length || row.values.length === p.length + extra) ? p : null;
    // A table whose columns are not periods names its cells by their headings instead. Under the one date its header
    // may print over them all ("December 31, 2019") each cell is that date's, in its heading's group, as a block's
    // cells are (readBlock); without one, its heading is all it has and it matches nothing across filings.
    const single = p?.length === 1 ? p[0] : null;
    const headed = !aligned && (!p || single) && this.columns?.length === row.values.length ? this.columns : null;
    const cells = row.values.map<TableCell>((raw, i) => {
      if (headed && single) {
        const group = headed[i]!;
        return {
          raw,
          value: cellValue(raw),
          period: single.period,
          periodKey: single.key ? `${single.key}|${group.toLowerCase()}` : null,
          group,
        };
      }
      if (headed) return { raw, value: cellValue(raw), period: headed[i]!, periodKey: null };
      const col = aligned?.[i];
      const group = col ? this.groups?.[i] : undefined;
      const periodKey = col?.key ? (group ? `${col.key}|${group.toLowerCase()}` : col.key) : null;
      return { raw, value: cellValue(raw), period: col?.period ?? null, periodKey, ...(group ? { group } : {}) };
    });
    const shares = shareKind(row.label);
    const largest = Math.max(0, ...cells.map((c) => Math.abs(c.value ?? 0)));
    // Figures in the thousands under a per-share heading are a group label's leak ("Net income per share: Working
    // capital: 3,028,139"): the caption's scale holds for them.
    const perShare = shares === 'per share' && largest < 1000;
    // A margin's row prints its change in points beside its percentages ("5.4 % | 6.7 % | (130) bp"): still a
    // row of percentages. A row of points (a change's drivers) has points for its unit; a row of dashes alone reads
    // as percentages, as it did before rows in points.
    const blank = (v: string) => DASH_TOKEN.test(v) || EMPTY_CELL.test(v);
    const points = row.values.some(inPoints) && row.values.every((v) => inPoints(v) || blank(v));
    const percent = !points && row.values.every((v) => v.endsWith('%') || inPoints(v) || blank(v));
    // A row of durations ("Weighted-average remaining lease term: 12.0 years | 12.2 years") prints its own unit.
    const years = !points && !percent && row.values.every((v) => DURATION_VALUE.test(v) || blank(v));
    // A count of shares ("Weighted-average shares outstanding: Diluted", "Shares used in computing ... per share") is
    // in the caption's scale but not in dollars.
    const ratio = RATIO_LABEL.test(row.label) && largest <= 100;
    let unit: string | null = this.scale ? 'USD' : null;
    if (points) unit = 'points';
    else if (percent) unit = '%';
    else if (perShare) unit = 'USD per share';
    else if (shares === 'count') unit = 'shares';
    else if (ratio) unit = null;
    else if (years) unit = 'years';
    const scale = points || percent || perShare || ratio || years ? null : this.scale;
    return { label: row.label, cells, scale, unit };
  }
}

/** A dated span's period split before its year: "three months ended March 31, 2023". */
const SPAN_YEAR = /^(.*\bended\b.*?),?\s+((?:19|20)\d\d)$/i;

/**
 * A cell in a run of cells (two or more, without column groups) whose periods share a span and month-day: that span,
 * printed once before the run ("three months ended March 31: 18,299 for 2023 | 16,728 for 2022"), and the cell's year.
 * Null for a cell in no such run.
 */
function spanRun(
  c: TableCell,
  prev: TableCell | undefined,
  next: TableCell | undefined,
): { span: string; year: string; first: boolean } | null {
  const split = (cell: TableCell | undefined) =>
    cell && !cell.group && cell.period ? (SPAN_YEAR.exec(cell.period) ?? null) : null;
  const own = split(c);
  if (!own) return null;
  const before = split(prev)?.[1] === own[1];
  if (!before && split(next)?.[1] !== own[1]) return null;
  return { span: own[1]!, year: own[2]!, first: !before };
}

/**
 * The statement text of a table row: "Purchases of property, plant and equipment (PP&E): (1,577) for FY2018 |
 * (1,373) for FY2017 | (1,420) for FY2016 (USD millions)". Values stay as printed (parentheses = negative) so the
 * text can be checked against the page. A span shared by a run of cells is printed once (spanRun): "Net income: three
 * months ended March 31: 18,299 for 2023 | 16,728 for 2022 | nine months ended March 31: 52,280 for 2023 | ...";
 * `spanOnce` false prints it with every cell, the words the row is indexed by (build.ts lexicalText).
 */
export function factText(fact: TableFact, spanOnce = true): string {
  // A column group's heading leads its first cell: "Russia: Net Revenue: 3,263 for FY2019 | 3,191 for FY2018 |
  // Long-Lived Assets: 4,314 for FY2019 | 3,926 for FY2018".
  // Sub-columns under one period (subColumns) print the period once: "Flexibles 2,812, Rigid Packaging 830, Total
  // 3,642 for three months ended December 31, 2022 | Flexibles 2,713, ...".
  const samePeriod = (a: TableCell | undefined, b: TableCell | undefined) =>
    !!a?.group && !!b?.group && !!a.period && a.period === b.period;
  const values = fact.cells
    .map((c, i) => {
      const prev = fact.cells[i - 1];
      const next = fact.cells[i + 1];
      const sep = i === 0 ? '' : samePeriod(prev, c) ? ', ' : ' | ';
      if (samePeriod(c, prev) || samePeriod(c, next)) {
        return `${sep}${c.group} ${c.raw}${samePeriod(c, next) ? '' : ` for ${c.period}`}`;
      }
      const span = spanOnce ? spanRun(c, prev, next) : null;
      const value = span ? `${c.raw} for ${span.year}` : c.period ? `${c.raw} for ${c.period}` : c.raw;
      if (span?.first) return `${sep}${span.span}: ${value}`;
      return sep + (c.group && c.group !== prev?.group ? `${c.group}: ${value}` : value);
    })
    .join('');
  const unit =
    fact.unit === '%' || fact.unit === 'points'
      ? ''
      : fact.unit === 'USD per share'
        ? ' (USD per share)'
        : fact.scale
          ? fact.unit === 'shares'
            ? ` (${fact.scale} of shares)`
            : ` (${fact.unit ?? 'USD'} ${fact.scale})`
          : '';
  return `${fact.label}: ${values}${unit}`;
}
