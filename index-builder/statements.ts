import type { EpistemicStatus, StatementKind } from '../src/format/types';
import type { Section } from './segment';

export interface RawStatement {
  text: string;
  page: number;
  kind: StatementKind;
  status: EpistemicStatus;
}

const MIN_CHARS = 25;
const MAX_CHARS = 900;
// Abbreviations after which a period does not end a sentence.
const ABBREVIATIONS = /\b(?:Inc|Corp|Co|Ltd|No|Nos|U\.S|U\.K|Mr|Ms|Mrs|Dr|Jr|Sr|St|vs|etc|e\.g|i\.e|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Fig|Ref|Rev|Ex)\.$/i;

/** A line of a flattened table: columns separated by 3+ spaces with at least one figure. */
export function isTableRow(line: string): boolean {
  const cols = line.trim().split(/ {3,}/);
  return cols.length >= 2 && cols.slice(1).some((c) => /^[($]*-?[\d,.]+%?\)?$|^—$|^-$/.test(c.replace(/\$\s*/g, '').trim()));
}

function isNoise(line: string): boolean {
  const t = line.trim();
  return (
    /^table of contents$/i.test(t) ||
    /^(page\s+)?\d{1,3}$/i.test(t) ||
    /^[A-Z]?-?\d{1,3}$/.test(t) || // "F-12"
    /^\(?continued\)?$/i.test(t)
  );
}

// Forward-looking cues (the safe-harbour vocabulary of filings). First version; the builder issue refines it.
const PREDICTION_CUES =
  /\b(?:expects?|expected|anticipates?|anticipated|intends?|plans? to|will|forecasts?|projected|outlook|guidance|estimates? that|believes? .{0,40}will|going forward|in (?:fiscal )?20\d\d and beyond|future)\b/i;

export function classifyStatus(text: string, kind: StatementKind): EpistemicStatus {
  if (kind === 'table_row') return 'FACT';
  return PREDICTION_CUES.test(text) ? 'PREDICTION' : 'FACT';
}

/** Turns a table line into a readable statement: "Net sales: $ 4,812 | $ 4,390", keeping the caption context. */
function tableRowText(line: string, context: string | null): string {
  const cols = line.trim().split(/ {3,}/).map((c) => c.trim()).filter(Boolean);
  const [label, ...values] = cols;
  const joined = `${label}: ${values.join(' | ')}`;
  return context ? `${joined} (${context})` : joined;
}

/**
 * Splits one section into statements: prose lines are joined into paragraphs and split into sentences; table rows
 * become one statement each, tagged with the nearest preceding header line (years or "(In millions)").
 */
export function extractStatements(section: Section): RawStatement[] {
  const out: RawStatement[] = [];
  let paragraph: { page: number; text: string } | null = null;
  let tableContext: string | null = null;

  const flush = () => {
    if (!paragraph) return;
    for (const sentence of splitSentences(paragraph.text)) {
      // Too short, or an all-capitals line (company names, running headers): not a claim.
      if (sentence.length < MIN_CHARS || !/[a-z]/.test(sentence) || sentence.split(/\s+/).length < 4) continue;
      const text = sentence.length > MAX_CHARS ? sentence.slice(0, MAX_CHARS) + '…' : sentence;
      out.push({ text, page: paragraph.page, kind: 'sentence', status: classifyStatus(text, 'sentence') });
    }
    paragraph = null;
  };

  for (const { page, text } of section.lines) {
    if (isNoise(text)) continue;
    if (isTableRow(text)) {
      flush();
      const row = tableRowText(text, tableContext);
      if (/[a-z]/i.test(row.split(':')[0] ?? '')) {
        out.push({ text: row, page, kind: 'table_row', status: 'FACT' });
      } else {
        tableContext = text.trim().replace(/ {3,}/g, ' | '); // a header row of years or dates
      }
      continue;
    }
    const trimmed = text.trim();
    if (/^\(?(in|dollars in|amounts in)\s+(millions|thousands|billions)/i.test(trimmed) || /^(19|20)\d\d( {3,}(19|20)\d\d)+$/.test(trimmed)) {
      tableContext = trimmed.replace(/ {3,}/g, ' | ');
      flush();
      continue;
    }
    // A short line in title case with no final period is a heading: it ends the paragraph.
    const isHeading = trimmed.length < 90 && !/[.:;,]$/.test(trimmed) && /^[A-Z]/.test(trimmed) && !/[.!?]\s/.test(trimmed);
    if (isHeading) {
      flush();
      tableContext = null;
      continue;
    }
    if (!paragraph) paragraph = { page, text: trimmed };
    else paragraph.text += (paragraph.text.endsWith('-') ? '' : ' ') + trimmed;
    if (/[.!?]["”)]?$/.test(trimmed) && trimmed.length < 60) flush(); // a short final line closes the paragraph
  }
  flush();
  return out;
}

export function splitSentences(text: string): string[] {
  const parts: string[] = [];
  const re = /[.!?]["”’)]?\s+(?=["“(]?[A-Z0-9])/g;
  let start = 0;
  for (const m of text.matchAll(re)) {
    const end = m.index! + m[0].trimEnd().length;
    const candidate = text.slice(start, end);
    if (ABBREVIATIONS.test(candidate.trimEnd()) || /\b[A-Z]\.$/.test(candidate.trimEnd())) continue;
    parts.push(candidate.trim());
    start = m.index! + m[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) parts.push(rest);
  return parts;
}
