/** A piece of a sentence: its text and where it starts in the sentence. */
export interface Piece {
  text: string;
  start: number;
}

interface Span {
  from: number;
  to: number;
}

/** Before a bullet mark inside a run-on list ("... including: •   limiting ...; •   exposing ..."), sub-bullets too. */
const BULLET = /\s(?=[•◦▪●]\s)/g;

/** Where a long piece may be cut, strongest first: after a list's semicolon, after a comma, at a space. */
const CUTS = [';', ',', ''] as const;

/**
 * A sentence too long for one statement, as consecutive pieces of at most `max` characters with none of its text
 * dropped. A filing's run-on lists (risk factors, an MD&A's drivers "partially offset by: ◦ ...", a definition's
 * clauses "(a) ...; (b) ...") print one sentence of a thousand characters or more; cut at a fixed length, the rest of
 * it reached no statement. Cut before each bullet mark first (each item answers on its own), then each piece still too
 * long after the last semicolon, comma or word within the limit. A piece too short to be a claim (`tooShort`, the
 * builder's own test of a sentence) joins the next one. A sentence within the limit is one piece, bullets and all.
 */
export function sentencePieces(sentence: string, max: number, tooShort: (text: string) => boolean): Piece[] {
  if (sentence.length <= max) return [{ text: sentence, start: 0 }];
  const spans = bulletSpans(sentence).flatMap((s) => cutToLength(sentence, s, max));
  return joinShort(sentence, spans, max, tooShort).map(({ from, to }) => ({
    text: sentence.slice(from, to),
    start: from,
  }));
}

function bulletSpans(text: string): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (const m of text.matchAll(BULLET)) {
    spans.push({ from, to: m.index });
    from = m.index;
  }
  spans.push({ from, to: text.length });
  return spans.map((s) => trim(text, s)).filter((s) => s.to > s.from);
}

function cutToLength(text: string, span: Span, max: number): Span[] {
  const out: Span[] = [];
  let rest = span;
  while (rest.to - rest.from > max) {
    const at = cutAt(text, rest.from, max);
    out.push(trim(text, { from: rest.from, to: at }));
    rest = trim(text, { from: at, to: rest.to });
  }
  if (rest.to > rest.from) out.push(rest);
  return out;
}

/** The end of the first piece from `from`: after the strongest cut within `max` characters, half of them at least. */
function cutAt(text: string, from: number, max: number): number {
  const window = text.slice(from, from + max + 1);
  for (const mark of CUTS) {
    const at = window.lastIndexOf(`${mark} `);
    if (at >= max / 2) return from + at + mark.length;
  }
  return from + max;
}

function joinShort(text: string, spans: readonly Span[], max: number, tooShort: (text: string) => boolean): Span[] {
  const out: Span[] = [];
  let held: Span | null = null;
  for (const s of spans) {
    let next = s;
    if (held) {
      if (s.to - held.from <= max) next = { from: held.from, to: s.to };
      else out.push(held);
      held = null;
    }
    if (tooShort(text.slice(next.from, next.to))) held = next;
    else out.push(next);
  }
  if (held) out.push(held);
  return out;
}

function trim(text: string, { from, to }: Span): Span {
  let a = from;
  let b = to;
  while (a < b && /\s/.test(text[a]!)) a++;
  while (b > a && /\s/.test(text[b - 1]!)) b--;
  return { from: a, to: b };
}
