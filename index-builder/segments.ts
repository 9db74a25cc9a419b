/**
 * Business segments named by a filing: "We operate in three reportable segments: Walmart U.S., Walmart
 * International and Sam's Club." They describe the issuer in the glossary. Only an explicit list after
 * "reportable/operating/business segments" counts, and it must be unambiguous: when the sentence gives a count
 * ("three reportable segments") the list must have that many names; otherwise it needs at least three
 * comma-separated names (so "the Safety and Industrial segment" is not read as two segments). A name starts with a
 * capital, has at most six words and no figures.
 */
const LIST = /\b(?:(two|three|four|five|six|seven|eight)\s+)?(?:reportable|operating|business)\s+segments?\b[^.:;]{0,40}?(?::|\bare\b|\bconsisting of\b|\bcomprised of\b)\s*(?:the\s+)?(.{3,220}?)(?:\.(?:\s|$)|;|$)/i;
const COUNTS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 };

export function segmentNames(sentence: string): string[] {
  const m = LIST.exec(sentence);
  if (!m) return [];
  const expected = m[1] ? COUNTS[m[1].toLowerCase()] : undefined;
  const list = m[2]!.replace(/\([^)]*\)/g, ' ').replace(/\s+/g, ' ').trim();
  let names = list.split(/,\s*(?:and\s+)?/).map((n) => n.trim()).filter(Boolean);
  const last = names[names.length - 1] ?? '';
  const splitLast = last.split(/\s+and\s+/);
  if (expected !== undefined && names.length + splitLast.length - 1 === expected) names = [...names.slice(0, -1), ...splitLast];
  else if (expected === undefined && names.length < 3) return [];
  names = names.map((n) => n.replace(/^(?:the|our)\s+/i, '').replace(/\s+(?:segments?|businesses)$/i, ''));
  if (expected !== undefined && names.length !== expected) return [];
  const ok = names.every((n) => /^[A-Z&]/.test(n) && n.split(' ').length <= 6 && !/\d{2,}/.test(n) && !/\b(?:which|that|each|were|was|is|are|Inc)\b/.test(n));
  return ok && names.length >= 2 && names.length <= 8 ? names : [];
}
