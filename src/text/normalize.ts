/**
 * Query normalization as DESIGN.md section 2 fixes it: NFKC, runs of whitespace collapsed to one space, trimmed.
 * Limits on query length count code points of the normalized string.
 */
export function normalizeQuery(raw: string): string {
  return raw.normalize('NFKC').replace(/\s+/gu, ' ').trim();
}

/** Length in Unicode code points (what the 4,000-character limit counts), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
