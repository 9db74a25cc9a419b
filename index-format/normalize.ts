/**
 * Query normalization as DESIGN.md section 2 fixes it: NFKC, runs of whitespace collapsed to one space, trimmed.
 * Two additions (docs/DECISIONS.md): invisible format characters (zero-width spaces and joiners, bidi overrides,
 * BOM: Unicode category Cf) are removed, and control characters count as whitespace, so a query made only of
 * them is empty and text cannot hide from the length limit or the search. Limits count code points of the result.
 */
export function normalizeQuery(raw: string): string {
  return raw
    .normalize('NFKC')
    .replace(/\p{Cf}+/gu, '')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/** Length in Unicode code points (what the 4,000-character limit counts), not UTF-16 units. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
