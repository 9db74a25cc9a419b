/**
 * Entity name matching shared by the builder (counting the statements that mention each extracted entity: its
 * support) and the Worker (listing in <entity_glossary> the entities the returned entries mention), so both sides
 * agree on what "mentions" means. Pure: no node:/cloudflare: imports.
 *
 * A mention is the exact name (case-sensitive: entity names are proper nouns, and "Gorilla" the glass brand must
 * not match "gorilla") bounded by non-word characters on both sides, so "Sam's Club" matches in "Sam's Club's
 * sales" and "Apple" does not match in "Applebee's". A trailing ®/™ after the name is allowed (it is a boundary).
 *
 * A segment named by one capitalised common word ("International", "Consumer", "Space", "King") is also an
 * ordinary word in filing text ("International sales", "Consumer demand"): such a name is a mention only when
 * the word "segment" is within SEGMENT_CONTEXT_CHARS characters of it (`guarded`, from segmentNeedsContext).
 * Multi-word names ("Consumer Health") and acronyms ("AWS", "MFC") are distinctive and match alone.
 */
export const SEGMENT_CONTEXT_CHARS = 80;

/** Whether a segment name is one capitalised word, which needs "segment" nearby to count as a mention. */
export function segmentNeedsContext(kind: EntityKind, name: string): boolean {
  return kind === 'segment' && /^[A-Z][a-z]+$/.test(name);
}

function segmentNear(text: string, at: number, length: number): boolean {
  const window = text.slice(Math.max(0, at - SEGMENT_CONTEXT_CHARS), at + length + SEGMENT_CONTEXT_CHARS);
  return /segment/i.test(window);
}

export type EntityKind = 'segment' | 'product' | 'counterparty';
export const ENTITY_KINDS: readonly EntityKind[] = ['segment', 'product', 'counterparty'];

const WORD = /[\p{L}\p{N}]/u;

export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  // ASCII letters and digits without the Unicode property test (the common case); other ASCII is never a word char.
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return WORD.test(ch);
}

export interface EntityMatcher {
  /** Indexes (into the names given to entityMatcher) of the names mentioned in the text, ascending. */
  mentioned(text: string): number[];
}

/**
 * Builds a matcher over the names (`guarded[i]`: name i needs "segment" nearby). Lookup is by the name's first word, so
 * a text is scanned once however many names there are (the builder runs it over every statement of a company).
 */
export function entityMatcher(names: readonly string[], guarded: readonly boolean[] = []): EntityMatcher {
  const byFirstWord = new Map<string, number[]>();
  names.forEach((name, i) => {
    if (!name) return;
    const first = firstWord(name, 0);
    const list = byFirstWord.get(first);
    if (list) list.push(i);
    else byFirstWord.set(first, [i]);
  });
  return {
    mentioned(text: string): number[] {
      const found = new Set<number>();
      for (let i = 0; i < text.length; i++) {
        if (!isWordChar(text[i]) || isWordChar(text[i - 1])) continue;
        const candidates = byFirstWord.get(firstWord(text, i));
        if (!candidates) continue;
        for (const n of candidates) {
          const name = names[n]!;
          if (found.has(n) || !text.startsWith(name, i) || isWordChar(text[i + name.length])) continue;
          if (guarded[n] && !segmentNear(text, i, name.length)) continue;
          found.add(n);
        }
      }
      return [...found].sort((a, b) => a - b);
    },
  };
}

/** The run of word characters starting at `at` (the first word of a name, or of a text position). */
function firstWord(text: string, at: number): string {
  let end = at;
  while (end < text.length && isWordChar(text[end])) end++;
  return text.slice(at, end);
}
