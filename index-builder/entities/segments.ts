import type { EntityCandidate } from './candidate';
import { cleanName } from './names';

/**
 * Business segments.
 *  - An explicit list: "We operate in three reportable segments: A, B and C", "organized into two segments: A and
 *    B". Accepted only when unambiguous: when the sentence gives a count the list must have that many names;
 *    without a count a qualifier (reportable/operating/business) and at least three comma-separated names are
 *    needed (so "the Safety and Industrial segment" is not read as two segments). A name starts with a capital, has
 *    at most six words and no figures. Without a count and without ", and", the last "and" of the last item is the
 *    list's conjunction ("consist of the Americas, Europe, Japan and Rest of Asia Pacific").
 *  - A named segment: "the Americas segment", "our Pharmaceutical segment" — a candidate only; the collector keeps
 *    it when a company has no list and the name recurs as a segment in many sentences of several filings (a
 *    segment mentioned in passing is not enough).
 */
const COUNT = '(two|three|four|five|six|seven|eight)';
const LIST = new RegExp(
  `\\b(?:(?:${COUNT}\\s+)?(?:(?:reportable|operating|business|reporting)\\s+){1,2}segments|${COUNT}\\s+segments)` +
    `\\b[^.:;]{0,40}?(?::|\\bare\\b|\\bconsisting ` +
    `of\\b|\\bconsists? of\\b|\\bcomprised of\\b|\\bwhich ` +
    `are\\b)\\s*(?:the\\s+)?(.{3,220}?)(?:\\.(?:\\s|$)|;|$)`,
  'i',
);
const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };

export function segmentNames(sentence: string): string[] {
  const m = LIST.exec(sentence);
  if (!m) return [];
  // A list inside one named segment ("Our Market-Based Businesses is comprised of four operating segments: ...",
  // "the Verizon Business segment ...") describes sub-units, not the company's segments.
  if (/\bnon-reportable\b|\bsub-?segments\b/i.test(sentence)) return [];
  if (
    /\b[A-Z][\w-]*\s+(?:[Ss]egment|Businesses|Group)\s+(?:is|are|includes?|consists?|comprises?|is comprised)\b/.test(
      sentence.slice(0, m.index + 1),
    )
  )
    return [];
  const countWord = m[1] ?? m[2];
  const expected = countWord ? COUNTS[countWord.toLowerCase()] : undefined;
  const list = m[3]!
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  let names = list
    .split(/,\s*(?:and\s+)?/)
    .map((n) => n.trim())
    .filter(Boolean);
  const last = names[names.length - 1] ?? '';
  const splitLast = last.split(/\s+and\s+/);
  if (expected !== undefined && names.length + splitLast.length - 1 === expected)
    names = [...names.slice(0, -1), ...splitLast];
  else if (expected === undefined && names.length < 3) return [];
  else if (expected === undefined && !/,\s*and\s/.test(list) && splitLast.length === 2) {
    // No count and no ", and": the list's own "and" must be inside the last item ("Americas, Europe, Japan and
    // Rest of Asia Pacific"), so its last "and" joins the final two names. With an Oxford comma the last item is
    // whole ("..., and Safety and Industrial"). A last item with two "and"s is ambiguous and yields no list.
    names = [...names.slice(0, -1), ...splitLast];
  } else if (expected === undefined && !/,\s*and\s/.test(list) && splitLast.length > 2) return [];
  names = names.map((n) => n.replace(/^(?:the|our)\s+/i, '').replace(/\s+(?:segments?|businesses)$/i, ''));
  if (expected !== undefined && names.length !== expected) return [];
  const ok = names.every(
    (n) =>
      /^[A-Z&]/.test(n) &&
      n.split(' ').length <= 6 &&
      !/\d{2,}/.test(n) &&
      !/\b(?:which|that|each|were|was|is|are|Inc)\b/.test(n),
  );
  return ok && names.length >= 2 && names.length <= 8 ? names : [];
}

const NAMED = new RegExp(
  String.raw`\b(?:the|our|its)\s+((?:[A-Z][\w'’\-.]*|&)(?:\s+(?:&|and|of)?\s*[A-Z][\w'’\-.]*){0,3})\s+` +
    String.raw`(?:reportable\s+|operating\s+|business\s+)?segment(?:[’']s)?\b(?!s)`,
  'g',
);
const NOT_SEGMENT = new RegExp(
  String.raw`^(?:Company|Company[’']s|Corporate|Other|Total|Each|Reportable|Operating|Business|Segment|New|Same` +
    '|Prior|Current|Largest|Smallest)$',
);

export function namedSegmentCandidates(sentence: string): EntityCandidate[] {
  const out: EntityCandidate[] = [];
  for (const m of sentence.matchAll(NAMED)) {
    const name = cleanName(m[1]!);
    if (!name || NOT_SEGMENT.test(name) || name.split(' ').some((w) => NOT_SEGMENT.test(w))) continue;
    if (!out.some((c) => c.name === name))
      out.push({ kind: 'segment', name, role: 'segment', detail: 'named as a segment' });
  }
  return out;
}

/**
 * A table row label that may name a segment: "FedEx Ground segment", "Total FedEx Express segment", or a bare row
 * label ("Other International"), as the key the collector compares with recurring "the X segment" names, and
 * whether the row label itself says "segment" (`explicit`). Footnote markers and a group prefix ("Net sales:
 * Americas") are dropped.
 */
export function segmentRowKey(label: string): { key: string; explicit: boolean } {
  const row = label
    .split(': ')
    .pop()!
    .replace(/\s*\(\w{1,2}\)\s*$/, '')
    .replace(/^Total\s+/, '')
    .trim();
  const key = row.replace(/\s+(?:reportable\s+|operating\s+)?segment$/i, '').trim();
  return { key, explicit: key !== row };
}
