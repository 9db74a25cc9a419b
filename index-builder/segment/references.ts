import { TEN_K_ITEM_TITLES } from '../../index-format/fields';
import { POINTER_ITEM_CHARS, STATEMENTS_END, textChars, type Section } from './segment';

/**
 * Items incorporated by reference from a note. Regulation S-K lets a 10-K answer an item by pointing at the notes
 * to the financial statements: Item 3 is often one sentence, "For a discussion of legal proceedings, see Note 21 to
 * our Consolidated Financial Statements, which is incorporated by reference", and a 10-Q's Part II Item 1 does the
 * same. A question about the company's legal matters then finds the pointer, while what it points at sits among
 * dozens of notes. The builder links each such pointer to the opening sentences of the note it names (evidence-graph
 * edges of kind `refers`), so the chain the pointer anchors carries the disclosure.
 */

/** Sentences of the note a pointer is linked to: a medium chain shows the pointer and two of them. */
export const REFERRED_SENTENCES = 3;

/**
 * Sections that hold the financial statements and their notes: a 10-K that prints them after Part IV ("included
 * immediately following Part IV") has them under its last item, 15 or 16.
 */
const STATEMENTS_ITEMS = new Set(['10K-Item-8', '10K-Item-15', '10K-Item-16', '10Q-PartI-Item-1']);

const NOTE_HEADING = /^\s*note\s+(\d{1,2})[A-Z]?\s*[.:—–-]*\s*(.*)$/i;
const NUMBERED_HEADING = /^\s*(\d{1,2})\s*[.:—–-]\s*(.*)$/;
/** A numbered note may skip a few numbers (a heading the extraction lost), not leap: "25. Revenue ..." is a list. */
const MAX_NOTE_STEP = 10;
/** "Note 21", "Notes 2 and 17", "Note 17A": the first number names the note. */
const NOTE_REFERENCE = /\bNotes?\s+(\d{1,2})[A-Z]?\b/g;

/**
 * A note heading's title, or null when the line is none: capitalised, short, title-cased (most words of four letters
 * or more start with a capital), not a contents line (a trailing page number), not a list's lead-in (a colon).
 */
export function noteTitle(rest: string): string | null {
  let title = rest.trim().replace(/\s*\(continued\)\s*$/i, '');
  const runIn = /^(.*?[a-z)])\.\s+\S/i.exec(title);
  if (runIn) title = runIn[1]!;
  title = title.replace(/\.$/, '').trim();
  if (!/^[A-Z]/.test(title) || title.length > 100 || /\s\d{1,3}$/.test(title) || title.endsWith(':')) return null;
  const words = title.split(/\s+/);
  if (words.length > 12) return null;
  const long = words.filter((w) => /^[A-Za-z]{4,}/.test(w));
  if (!long.length || long.filter((w) => /^[A-Z]/.test(w)).length < long.length * 0.6) return null;
  return title;
}

/** Where a note starts in its section (page and character offset), and where it ends (the next start), by number. */
export interface NoteSpan {
  number: number;
  title: string;
  section: Section;
  /** Index into section.lines of the heading and of the first line after the note. */
  from: number;
  to: number;
}

/**
 * The numbered notes of one financial-statements section, in order. A number that does not move forward is a running
 * "(continued)" header or a list, not a new note.
 */
export function noteSpans(section: Section): NoteSpan[] {
  const spans: NoteSpan[] = [];
  let number = 0;
  for (const [i, line] of section.lines.entries()) {
    if (STATEMENTS_END.test(line.text)) {
      if (spans.length) spans[spans.length - 1]!.to = i;
      break;
    }
    const m = NOTE_HEADING.exec(line.text) ?? NUMBERED_HEADING.exec(line.text);
    if (!m) continue;
    const n = Number(m[1]);
    const title = noteTitle(m[2] ?? '');
    if (!title || n <= number || (number && n > number + MAX_NOTE_STEP)) continue;
    if (spans.length) spans[spans.length - 1]!.to = i;
    number = n;
    spans.push({ number: n, title, section, from: i, to: section.lines.length });
  }
  return spans;
}

/** The notes a filing prints, by number (the first span of a number wins: a 10-K restating a note's number is rare). */
export function filingNotes(sections: readonly Section[]): Map<number, NoteSpan> {
  const notes = new Map<number, NoteSpan>();
  for (const s of sections) {
    if (!STATEMENTS_ITEMS.has(s.itemTag)) continue;
    for (const span of noteSpans(s)) if (!notes.has(span.number)) notes.set(span.number, span);
  }
  return notes;
}

/** The words an item's official title is printed as, lowercased ("legal proceedings"), for 10-K and 10-Q items. */
function itemTitle(itemTag: string): string | null {
  if (itemTag === '10Q-PartII-Item-1') return 'legal proceedings';
  const item = /^10K-Item-(\w+)$/.exec(itemTag)?.[1];
  const title = TEN_K_ITEM_TITLES.find(([i]) => i === item)?.[1];
  return title ? title.toLowerCase() : null;
}

const bare = (text: string) => text.trim().replace(/[.:]$/, '').replace(/\s+/g, ' ').toLowerCase();

/**
 * Subsections a pointer names besides its note: quoted ("see “Litigation” in Note 18", "under the heading
 * “Contingencies”") or dash-joined after the note's title ("Note 12 — Commitments and Contingencies – Litigation and
 * Other Legal Matters"). Bare (lowercased, no end punctuation).
 */
export function namedSubsections(pointer: string): string[] {
  const names = [...pointer.matchAll(/[“"‘]{1,2}([^”"’]{3,80})[”"’]{1,2}/g)].map((m) => m[1]!);
  for (const m of pointer.matchAll(/\bNotes?\s+\d{1,2}[A-Z]?\s*[—–-]\s*([^,.;“”"]{3,120})/g))
    names.push(...m[1]!.split(/\s+[—–-]\s+|\s*[—–]\s*/));
  return names.map((n) => bare(n.replace(/[,;]$/, ''))).filter((n) => n.length >= 3);
}

/**
 * A note's subheading: a short title-cased line of its own, or a run-in title ("Legal Proceedings: The Company ...").
 */
function subheading(text: string): string | null {
  const runIn = /^([^:]{3,80}):(?:\s|$)/.exec(text.trim());
  const title = noteTitle(runIn ? runIn[1]! : text);
  return title && title.split(/\s+/).length <= 8 ? bare(title) : null;
}

/** Words of five letters or more of an official item title that has at most three words ("legal", "proceedings"). */
function titleWords(title: string): string[] {
  const words = title.split(/\s+/);
  return words.length <= 3 ? words.filter((w) => /^[a-z]{5,}$/.test(w)) : [];
}

/**
 * The line of a note where what a pointer refers to starts; -1 when no line of the note is marked for it. In order:
 * a subheading the pointer names (`names`, from namedSubsections); a subheading that repeats the pointing item's
 * official title (Item 3 -> "Legal Proceedings" inside "Commitments and Contingencies"); the note's heading when the
 * note is titled so ("17. Legal Proceedings"); a subheading sharing a word of a short item title ("Litigation and
 * Regulatory Proceedings", "Legal Matters"), unless it is the note's "Other ..." remainder.
 */
function titledLine(note: NoteSpan, names: readonly string[], pointerTag: string): number {
  const title = itemTitle(pointerTag);
  const lines = note.section.lines;
  const heads: [number, string][] = [];
  for (let i = note.from + 1; i < note.to; i++) {
    const head = subheading(lines[i]!.text);
    if (head) heads.push([i, head]);
  }
  const noteName = bare(note.title);
  const own = names.filter((n) => n !== noteName && !noteName.startsWith(n));
  const named = heads.find(([, h]) => own.some((n) => h === n || h.startsWith(`${n} `)));
  if (named) return named[0];
  if (!title) return -1;
  const same = heads.find(([, h]) => h === title);
  if (same) return same[0];
  if (noteName.includes(title)) return note.from;
  // "Other Legal Proceedings" closes a note whose named matters came before it, under its heading.
  const words = titleWords(title);
  return heads.find(([, h]) => !h.startsWith('other ') && words.some((w) => h.split(' ').includes(w)))?.[0] ?? -1;
}

/**
 * What a pointer refers to: of the notes it names that the filing prints, the first with a line marked for it
 * (titledLine), from that line; else the first note named, from its heading. Item 3 often names two ("Note 14
 * (contingencies related to our income taxes) and Note 17 (legal contingencies)"), and the legal note is the one
 * Item 3 answers with.
 */
export function referredTo(
  named: readonly NoteSpan[],
  pointer: string,
  pointerTag: string,
): { note: NoteSpan; page: number; offset: number } | null {
  const names = namedSubsections(pointer);
  for (const note of named) {
    const at = titledLine(note, names, pointerTag);
    if (at >= 0) return { note, page: note.section.lines[at]!.page, offset: note.section.lines[at]!.offset };
  }
  const first = named[0];
  if (!first) return null;
  const heading = first.section.lines[first.from]!;
  return { note: first, page: heading.page, offset: heading.offset };
}

/** A statement as referencesOf needs it: where it stands, its kind and text, and its section. */
export interface PlacedStatement {
  text: string;
  page: number;
  offset: number;
  kind: string;
  section: Section;
}

/**
 * For each statement of a filing (in filing order), the statements its pointer is linked to, as offsets from its own
 * index (the shard keeps a filing's statements together and in order): a sentence of an item no longer than
 * POINTER_ITEM_CHARS (index-builder/segment/segment.ts) that names a note the filing prints -> the first
 * REFERRED_SENTENCES sentences from where the referred disclosure starts. Empty for every other statement.
 */
export function referenceLinks(sections: readonly Section[], statements: readonly PlacedStatement[]): number[][] {
  const out: number[][] = statements.map(() => []);
  const notes = filingNotes(sections);
  if (!notes.size) return out;
  const chars = new Map(sections.map((s) => [s, textChars(s)]));
  const after = (p: { page: number; offset: number }, s: PlacedStatement) =>
    s.page > p.page || (s.page === p.page && s.offset >= p.offset);
  statements.forEach((s, i) => {
    if (s.kind !== 'sentence' || STATEMENTS_ITEMS.has(s.section.itemTag) || chars.get(s.section)! > POINTER_ITEM_CHARS)
      return;
    const printed = [...s.text.matchAll(NOTE_REFERENCE)].flatMap((m) => notes.get(Number(m[1])) ?? []);
    const start = referredTo(printed, s.text, s.section.itemTag);
    if (!start) return;
    const named = start.note;
    const end = named.section.lines[named.to] ?? null;
    for (let j = 0; j < statements.length && out[i]!.length < REFERRED_SENTENCES; j++) {
      const t = statements[j]!;
      if (t.section !== named.section || t.kind !== 'sentence' || !after(start, t)) continue;
      if (end && after(end, t)) break;
      out[i]!.push(j - i);
    }
  });
  return out;
}
