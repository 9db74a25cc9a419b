import { ArtifactFormatError } from './container';

/**
 * Newline-separated strings (a shard's term dictionary, its row labels) held as the one string they were stored as,
 * plus where each line starts. An array of thousands of short strings costs some 40 bytes per string in V8 (header,
 * padding, a pointer); this costs the characters and 4 bytes a line, so a cached shard head costs about what its
 * bytes are. Lines are read by index (a slice) and, when sorted, found by binary search without slicing.
 */
export class PackedLines {
  private constructor(
    private readonly text: string,
    /** Start of each line, plus one past the end of the last (text.length + 1): line i is at[i]..at[i + 1] - 1. */
    private readonly at: Uint32Array,
  ) {}

  /** `text` split at '\n' into exactly `lines` lines (none when lines is 0, which needs an empty text). */
  static of(text: string, lines: number, what: string): PackedLines {
    const at = new Uint32Array(lines + 1);
    if (lines === 0) {
      if (text !== '') throw new ArtifactFormatError(`${what} has text but no lines`);
      return new PackedLines('', at);
    }
    let n = 1;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
      if (n === lines) throw new ArtifactFormatError(`${what} has more than ${lines} lines`);
      at[n++] = nl + 1;
    }
    if (n !== lines) throw new ArtifactFormatError(`${what} has ${n} lines, expected ${lines}`);
    at[lines] = text.length + 1;
    return new PackedLines(text, at);
  }

  get length(): number {
    return this.at.length - 1;
  }

  /**
   * Memory held: the characters (a byte each while the text is Latin-1, as terms and labels nearly always are), the
   * offsets.
   */
  get bytes(): number {
    return this.text.length + this.at.byteLength;
  }

  line(i: number): string {
    return this.text.slice(this.at[i]!, this.at[i + 1]! - 1);
  }

  isEmpty(i: number): boolean {
    return this.at[i + 1]! - 1 === this.at[i]!;
  }

  /**
   * Whether line i is not empty and each of its space-separated words is one of `words`. Compares characters in
   * place: ranking asks this of every table row a query term matches (thousands per query), and slicing each word to
   * look it up in a Set allocated and hashed a string per row.
   */
  everyWordIn(i: number, words: readonly string[]): boolean {
    const end = this.at[i + 1]! - 1;
    let from = this.at[i]!;
    if (from === end) return false;
    while (from <= end) {
      let to = this.text.indexOf(' ', from);
      if (to < 0 || to > end) to = end;
      if (!this.isOneOf(from, to, words)) return false;
      from = to + 1;
    }
    return true;
  }

  /** Whether text[from..to) equals one of `words`. */
  private isOneOf(from: number, to: number, words: readonly string[]): boolean {
    const len = to - from;
    for (const w of words) {
      if (w.length !== len) continue;
      let k = 0;
      while (k < len && this.text.charCodeAt(from + k) === w.charCodeAt(k)) k++;
      if (k === len) return true;
    }
    return false;
  }

  /** Line i against s, in the order of JavaScript's string comparison (UTF-16 code units): <0, 0 or >0. */
  compare(i: number, s: string): number {
    const from = this.at[i]!;
    const len = this.at[i + 1]! - 1 - from;
    const n = Math.min(len, s.length);
    for (let k = 0; k < n; k++) {
      const d = this.text.charCodeAt(from + k) - s.charCodeAt(k);
      if (d !== 0) return d;
    }
    return len - s.length;
  }

  /** The index of the line equal to s, or -1; the lines must be strictly sorted (the builder writes them so). */
  find(s: string): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.compare(mid, s);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Every line, as an array (the builder's reuse path; the Worker reads lines one at a time). */
  toArray(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.line(i));
  }
}
