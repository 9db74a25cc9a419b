import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { bm25ScoreWithNorm } from '../../index-format/bm25';
import type { TermBounds } from '../impact-bounds';

/**
 * A partition's term bounds, term-major, for the merge to stream (index-builder/shards/lexicon-merge.ts):
 * - `terms.bin`: every term of the partition's statistics in sorted order (JavaScript string order, as the lexicon
 *   sorts), each with its document frequency, how many of the partition's shards hold it, and its frontier: for each
 *   term frequency, the shortest statement with it across those shards, which is all the term's highest impact in the
 *   partition depends on (impact-bounds.ts);
 * - `postings.bin`: for each term with shards, in the same order, each shard (numbered within the partition,
 *   ascending) with its candidates.
 * The merge reads both a buffer at a time, so its memory does not grow with (term, shard) pairs, and it hashes no
 * string per pair: the partition job, whose work grows with its own statements anyway, does the transposing.
 */
export const TERMS_FILE = 'terms.bin';
export const POSTINGS_FILE = 'postings.bin';

const BUFFER_BYTES = 1 << 20;

/** Little-endian fields appended to a file through a fixed buffer. */
class ByteSink {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  private room(n: number): void {
    if (this.at + n > BUFFER_BYTES) this.flush();
  }

  private flush(): void {
    if (this.at) writeSync(this.fd, this.buf, 0, this.at);
    this.at = 0;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }

  u16(v: number): void {
    this.room(2);
    this.at = this.buf.writeUInt16LE(v, this.at);
  }

  u32(v: number): void {
    this.room(4);
    this.at = this.buf.writeUInt32LE(v, this.at);
  }

  str(s: string): void {
    const n = Buffer.byteLength(s);
    if (n > 0xffff) throw new Error(`term of ${n} bytes: the bounds file gives a term 16 bits of length`);
    this.u16(n);
    this.room(n);
    this.at += this.buf.write(s, this.at);
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Reads what a ByteSink wrote, front to back, through a fixed buffer. */
class ByteSource {
  private readonly fd: number;
  private buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;
  private end = 0;
  private filePos = 0;

  constructor(private readonly file: string) {
    this.fd = openSync(file, 'r');
  }

  /** Whether another field follows. */
  more(): boolean {
    this.need(1, false);
    return this.at < this.end;
  }

  private need(n: number, strict = true): void {
    if (this.end - this.at >= n) return;
    this.buf.copy(this.buf, 0, this.at, this.end);
    this.end -= this.at;
    this.at = 0;
    while (this.end < n) {
      const got = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.filePos);
      if (!got) break;
      this.end += got;
      this.filePos += got;
    }
    if (strict && this.end < n)
      throw new Error(`${this.file} ends in the middle of a record: rebuild the partition that wrote it`);
  }

  /** The next `n` bytes, whole in the buffer: `bytes` from `offset` (valid until the next read). */
  span(n: number): { bytes: Buffer; offset: number } {
    if (n > this.buf.length) {
      const grown = Buffer.allocUnsafe(n);
      this.buf.copy(grown, 0, this.at, this.end);
      this.end -= this.at;
      this.at = 0;
      this.buf = grown;
    }
    this.need(n);
    const offset = this.at;
    this.at += n;
    return { bytes: this.buf, offset };
  }

  u8(): number {
    this.need(1);
    return this.buf[this.at++]!;
  }

  u16(): number {
    this.need(2);
    const v = this.buf.readUInt16LE(this.at);
    this.at += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }

  str(): string {
    const n = this.u16();
    this.need(n);
    const s = this.buf.toString('utf8', this.at, this.at + n);
    this.at += n;
    return s;
  }

  /** Closes the file and lets go of the buffer (the merge holds a reader per partition until it is done). */
  close(): void {
    closeSync(this.fd);
    this.buf = Buffer.alloc(0);
    this.at = this.end = 0;
  }
}

/**
 * Writes the partition's term-major bounds into `dir` from its shards' bounds (`shardBounds(p)` for p in
 * 0..shards-1, in the partition's shard order, read twice: to count, then to fill) and its document frequencies.
 * Every term of a shard must have a document frequency.
 */
export function writeTermMajorBounds(
  dir: string,
  shards: number,
  shardBounds: (p: number) => TermBounds,
  df: ReadonlyMap<string, number>,
): void {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  for (const t of df.keys()) {
    ids.set(t, terms.length);
    terms.push(t);
  }
  const pairsOf = new Uint32Array(terms.length + 1);
  const candsOf = new Uint32Array(terms.length + 1);
  const idsOf = (b: TermBounds) =>
    b.terms.map((t) => {
      const id = ids.get(t);
      if (id === undefined) throw new Error(`term "${t}" is in a shard but has no document frequency`);
      return id;
    });
  for (let p = 0; p < shards; p++) {
    const b = shardBounds(p);
    idsOf(b).forEach((id, i) => {
      pairsOf[id]!++;
      candsOf[id]! += b.offsets[i + 1]! - b.offsets[i]!;
    });
  }
  // Exclusive prefix sums: pairsOf[id] becomes the term's first pair, candsOf[id] its first candidate.
  let pairs = 0;
  let cands = 0;
  for (let id = 0; id <= terms.length; id++) {
    const [np, nc] = [pairsOf[id]!, candsOf[id]!];
    pairsOf[id] = pairs;
    candsOf[id] = cands;
    pairs += np;
    cands += nc;
  }
  const pairShard = new Uint32Array(pairs);
  const pairCands = new Uint8Array(pairs);
  const candTf = new Uint8Array(cands);
  const candLen = new Uint16Array(cands);
  const nextPair = pairsOf.slice();
  const nextCand = candsOf.slice();
  for (let p = 0; p < shards; p++) {
    const b = shardBounds(p);
    idsOf(b).forEach((id, i) => {
      const at = nextPair[id]!++;
      pairShard[at] = p;
      pairCands[at] = b.offsets[i + 1]! - b.offsets[i]!;
      for (let k = b.offsets[i]!; k < b.offsets[i + 1]!; k++) {
        const c = nextCand[id]!++;
        candTf[c] = b.tf[k]!;
        candLen[c] = b.len[k]!;
      }
    });
  }
  const order = terms.map((_, id) => id).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const termSink = new ByteSink(join(dir, TERMS_FILE));
  const postingSink = new ByteSink(join(dir, POSTINGS_FILE));
  const shortest = new Uint16Array(256);
  for (const id of order) {
    const [p0, p1, c0, c1] = [pairsOf[id]!, pairsOf[id + 1]!, candsOf[id]!, candsOf[id + 1]!];
    termSink.str(terms[id]!);
    termSink.u32(df.get(terms[id]!)!);
    termSink.u32(p1 - p0);
    // The frontier: the shortest length per term frequency over every shard's candidates.
    shortest.fill(0xffff);
    for (let c = c0; c < c1; c++) if (candLen[c]! < shortest[candTf[c]!]!) shortest[candTf[c]!] = candLen[c]!;
    const frontier: number[] = [];
    for (let tf = 0; tf < 256; tf++) if (shortest[tf] !== 0xffff) frontier.push(tf);
    termSink.u8(frontier.length); // at most 255: a posting's tf is 1..255
    for (const tf of frontier) {
      termSink.u8(tf);
      termSink.u16(shortest[tf]!);
    }
    if (p1 === p0) continue;
    postingSink.u32(4 + 5 * (p1 - p0) + 3 * (c1 - c0)); // the body's bytes, for the reader to take it whole
    postingSink.u32(p1 - p0);
    let c = c0;
    for (let k = p0; k < p1; k++) {
      postingSink.u32(pairShard[k]!);
      postingSink.u8(pairCands[k]!);
      for (const end = c + pairCands[k]!; c < end; c++) {
        postingSink.u8(candTf[c]!);
        postingSink.u16(candLen[c]!);
      }
    }
  }
  termSink.close();
  postingSink.close();
}

/** One term of a partition's terms.bin, as the reader holds it until the next. */
export interface BoundsTerm {
  term: string;
  df: number;
  shards: number;
  /** The frontier: `frontierSize` (tf, shortest length) pairs. */
  frontierSize: number;
  frontierTf: Uint8Array;
  frontierLen: Uint16Array;
}

/** A partition's terms.bin, term by term. */
export class BoundsTermReader {
  private readonly source: ByteSource;
  readonly current: BoundsTerm = {
    term: '',
    df: 0,
    shards: 0,
    frontierSize: 0,
    frontierTf: new Uint8Array(255),
    frontierLen: new Uint16Array(255),
  };
  done = false;

  constructor(dir: string) {
    this.source = new ByteSource(join(dir, TERMS_FILE));
    this.next();
  }

  /** Moves to the next term; `done` when there is none. */
  next(): void {
    const s = this.source;
    if (!s.more()) {
      this.done = true;
      s.close();
      return;
    }
    const c = this.current;
    c.term = s.str();
    // df u32, shards u32, frontier size u8, then (tf u8, length u16) pairs: read from the buffer, a span at a time.
    const head = s.span(9);
    c.df = head.bytes.readUInt32LE(head.offset);
    c.shards = head.bytes.readUInt32LE(head.offset + 4);
    const n = head.bytes[head.offset + 8]!;
    c.frontierSize = n;
    const { bytes: b, offset } = s.span(3 * n);
    for (let k = 0, at = offset; k < n; k++, at += 3) {
      c.frontierTf[k] = b[at]!;
      c.frontierLen[k] = b[at + 1]! | (b[at + 2]! << 8);
    }
  }
}

/** A partition's postings.bin, one term's shard list at a time (the terms of its terms.bin that have shards). */
export class BoundsPostingReader {
  private readonly source: ByteSource;

  constructor(dir: string) {
    this.source = new ByteSource(join(dir, POSTINGS_FILE));
  }

  /**
   * The next term's shards into `shards` (numbered within the partition) and, for each, its impact bound: the best
   * BM25 score over its candidates (bm25ScoreWithNorm with this `idf`, `norms[length]` bm25Norm of each length), into
   * `best`, both from index `from`; returns how many shards. The fields are read byte by byte: this runs once per
   * (term, shard) pair of the corpus.
   */
  readTerm(idf: number, norms: Float64Array, shards: Uint32Array, best: Float64Array, from: number): number {
    const bodyBytes = this.source.u32();
    const { bytes: b, offset } = this.source.span(bodyBytes);
    const count = b.readUInt32LE(offset);
    let at = offset + 4;
    for (let k = from; k < from + count; k++) {
      shards[k] = (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
      const candidates = b[at + 4]!;
      at += 5;
      let top = 0;
      for (let c = 0; c < candidates; c++, at += 3) {
        const v = bm25ScoreWithNorm(idf, b[at]!, norms[b[at + 1]! | (b[at + 2]! << 8)]!);
        if (v > top) top = v;
      }
      best[k] = top;
    }
    return count;
  }

  close(): void {
    this.source.close();
  }
}
