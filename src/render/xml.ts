const NEEDS_ESCAPE = /[&<>]/;

/** Escapes text for element content: filing text can hold "<", "&" or a literal "</evidence_chain>". */
export function escapeText(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value for either quote style. */
export function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
