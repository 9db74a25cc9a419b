/** A statement of one shard and its score in one retrieval leg. */
export interface ScoredStatement {
  local: number;
  score: number;
}

/**
 * The best k of a stream of (statement, score) pairs, in rank order at the end (score highest first, then statement:
 * the order every leg ranks in): the same result as sorting them all and taking k (a test checks). A bounded heap on
 * typed arrays, so a leg that scores thousands of statements allocates nothing per statement and compares numbers,
 * not objects through a callback: a fresh isolate runs this before it has optimized anything, and the
 * object-and-comparator version was its largest first-query cost.
 */
export class TopK {
  private readonly scores: Float64Array;
  private readonly locals: Int32Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.scores = new Float64Array(Math.max(0, k));
    this.locals = new Int32Array(Math.max(0, k));
  }

  /** Whether entry i ranks after entry j (the heap keeps its latest-ranked entry at the root). */
  private later(i: number, j: number): boolean {
    const si = this.scores[i]!;
    const sj = this.scores[j]!;
    return si < sj || (si === sj && this.locals[i]! > this.locals[j]!);
  }

  private swap(i: number, j: number): void {
    const s = this.scores[i]!;
    this.scores[i] = this.scores[j]!;
    this.scores[j] = s;
    const l = this.locals[i]!;
    this.locals[i] = this.locals[j]!;
    this.locals[j] = l;
  }

  offer(local: number, score: number): void {
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.locals[i] = local;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.later(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (this.k === 0) return;
    const root = this.scores[0]!;
    if (score < root || (score === root && local > this.locals[0]!)) return;
    this.scores[0] = score;
    this.locals[0] = local;
    this.siftDown(0);
  }

  private siftDown(from: number): void {
    for (let i = from; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.later(l, m)) m = l;
      if (r < this.size && this.later(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  /** The kept pairs, best first: the heap popped, latest-ranked first, into the output from its end. Empties it. */
  sorted(): ScoredStatement[] {
    const out = new Array<ScoredStatement>(this.size);
    while (this.size > 0) {
      out[this.size - 1] = { local: this.locals[0]!, score: this.scores[0]! };
      const last = --this.size;
      this.scores[0] = this.scores[last]!;
      this.locals[0] = this.locals[last]!;
      this.siftDown(0);
    }
    return out;
  }
}

/** The k best of `items` in rank order (TopK over an array). */
export function topK(items: readonly ScoredStatement[], k: number): ScoredStatement[] {
  const top = new TopK(k);
  for (const item of items) top.offer(item.local, item.score);
  return top.sorted();
}
