import type { EmbeddingModel } from '../src/format/types';
import { normalizeInPlace, quantizeUnit } from '../src/text/embed';

/** Knobs of the word-vector learner; see docs/PARAMETERS.md for the trade-offs. */
export interface EmbeddingOptions {
  /** Output dimension. Defaults to 128: int8 vectors of 128 bytes keep a 5,000-statement shard at 640 KB. */
  dim: number;
  /** Words kept in the vocabulary (most frequent first). Defaults to 30,000. */
  maxVocab: number;
  /** Minimum corpus count of a vocabulary word. Defaults to 3. */
  minCount: number;
  /** Context words (columns of the co-occurrence matrix). Defaults to 2,000. */
  contexts: number;
  /** Co-occurrence window on each side, within one statement. Defaults to 5. */
  window: number;
  seed: number;
  /**
   * Filings whose statements the co-occurrences are counted from, at most (a deterministic sample when the corpus
   * has more; index-builder/model-store.ts). Defaults to 400, about the shared corpus, so that a model's cost stays
   * bounded at any corpus size. The vocabulary and pooling weights come from every filing.
   */
  sampleFilings: number;
}

export const DEFAULT_EMBEDDING_OPTIONS: EmbeddingOptions = {
  dim: 128,
  maxVocab: 30_000,
  minCount: 3,
  contexts: 2_000,
  window: 5,
  seed: 20261121,
  sampleFilings: 400,
};

/** Small deterministic PRNG (mulberry32) so identical input gives byte-identical vectors. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * Learns word vectors from the statements themselves: positive PMI of (word, context word) co-occurrence within a
 * window, with context-distribution smoothing (counts^0.75), projected to `dim` dimensions by a seeded Gaussian
 * random projection (which preserves cosines between PPMI rows). Pooling weights are inverse document frequencies.
 * No pretrained model is needed or downloadable here (DESIGN.md section 6).
 */
export function learnEmbeddings(docs: readonly string[][], options: Partial<EmbeddingOptions> = {}): EmbeddingModel {
  const learner = new EmbeddingLearner(options);
  for (const tokens of docs) learner.count(tokens);
  learner.fixVocabulary();
  for (const tokens of docs) learner.cooccur(tokens);
  return learner.finish();
}

/**
 * The same learning in two streamed passes, so a builder never holds every statement at once: `count` every
 * statement's tokens, `fixVocabulary`, then `cooccur` every statement again in the same order, then `finish`. The
 * co-occurrence matrix (vocabulary x contexts) is the only large state and does not grow with the corpus.
 */
export class EmbeddingLearner {
  private readonly opt: EmbeddingOptions;
  get options(): Readonly<EmbeddingOptions> {
    return this.opt;
  }
  private readonly counts = new Map<string, number>();
  private readonly docFreq = new Map<string, number>();
  private docs = 0;
  private vocab: string[] = [];
  private vocabIndex = new Map<string, number>();
  private cooc: Float32Array | null = null;
  private C = 0;

  constructor(options: Partial<EmbeddingOptions> = {}) {
    this.opt = { ...DEFAULT_EMBEDDING_OPTIONS, ...options };
  }

  count(tokens: readonly string[]): void {
    this.docs++;
    const seen = new Set<string>();
    for (const t of tokens) {
      this.counts.set(t, (this.counts.get(t) ?? 0) + 1);
      if (!seen.has(t)) {
        seen.add(t);
        this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
      }
    }
  }

  /** The pass-1 counts, to be summed with another part of the corpus (a partitioned build). */
  countsSnapshot(): { counts: [string, number][]; docFreq: [string, number][]; docs: number } {
    return { counts: [...this.counts], docFreq: [...this.docFreq], docs: this.docs };
  }

  addCounts(snapshot: { counts: [string, number][]; docFreq: [string, number][]; docs: number }): void {
    for (const [t, n] of snapshot.counts) this.counts.set(t, (this.counts.get(t) ?? 0) + n);
    for (const [t, n] of snapshot.docFreq) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + n);
    this.docs += snapshot.docs;
  }

  fixVocabulary(): void {
    const byFrequency = [...this.counts.entries()]
      .filter(([, c]) => c >= this.opt.minCount)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    this.vocab = byFrequency.slice(0, this.opt.maxVocab).map(([t]) => t);
    this.vocabIndex = new Map(this.vocab.map((t, i) => [t, i]));
    this.C = Math.min(this.opt.contexts, this.vocab.length);
    this.cooc = new Float32Array(this.vocab.length * this.C);
    this.counts.clear();
  }

  cooccur(tokens: readonly string[]): void {
    const cooc = this.cooc;
    if (!cooc) throw new Error('EmbeddingLearner: fixVocabulary() before cooccur()');
    const { C } = this;
    const ids = tokens.map((t) => this.vocabIndex.get(t) ?? -1);
    for (let i = 0; i < ids.length; i++) {
      const w = ids[i]!;
      if (w < 0) continue;
      const lo = Math.max(0, i - this.opt.window);
      const hi = Math.min(ids.length - 1, i + this.opt.window);
      for (let j = lo; j <= hi; j++) {
        const c = ids[j]!;
        if (j === i || c < 0 || c >= C) continue;
        cooc[w * C + c]! += 1 / Math.abs(i - j); // nearer words count more
      }
    }
  }

  finish(): EmbeddingModel {
    const cooc = this.cooc;
    if (!cooc) throw new Error('EmbeddingLearner: fixVocabulary() before finish()');
    const { opt, C, vocab, vocabIndex, docFreq } = this;
    const V = vocab.length;
    const rowSum = new Float64Array(V);
    const colSum = new Float64Array(C);
    let total = 0;
    for (let w = 0; w < V; w++) {
      for (let c = 0; c < C; c++) {
        const v = cooc[w * C + c]!;
        rowSum[w]! += v;
        colSum[c]! += v;
        total += v;
      }
    }
    let colSmoothedTotal = 0;
    const colSmoothed = new Float64Array(C);
    for (let c = 0; c < C; c++) {
      colSmoothed[c] = Math.pow(colSum[c]!, 0.75);
      colSmoothedTotal += colSmoothed[c]!;
    }

    const rand = mulberry32(opt.seed);
    const projection = new Float32Array(C * opt.dim);
    for (let i = 0; i < projection.length; i++) projection[i] = gaussian(rand);

    const vectors = new Int8Array(V * opt.dim);
    const row = new Float32Array(opt.dim);
    for (let w = 0; w < V; w++) {
      row.fill(0);
      if (rowSum[w]! > 0 && total > 0) {
        for (let c = 0; c < C; c++) {
          const v = cooc[w * C + c]!;
          if (v <= 0) continue;
          const pmi = Math.log((v / total) / ((rowSum[w]! / total) * (colSmoothed[c]! / colSmoothedTotal)));
          if (pmi <= 0) continue;
          const base = c * opt.dim;
          for (let d = 0; d < opt.dim; d++) row[d]! += pmi * projection[base + d]!;
        }
      }
      // A word with no positive context (rare, isolated) gets a random direction of its own: it then matches only
      // statements that contain it, like a lexical term.
      if (row.every((x) => x === 0)) for (let d = 0; d < opt.dim; d++) row[d] = gaussian(rand);
      quantizeUnit(normalizeInPlace(row), vectors, w * opt.dim);
    }

    const n = this.docs || 1;
    const weights = new Float32Array(V);
    vocab.forEach((t, i) => (weights[i] = Math.log(1 + n / (docFreq.get(t) ?? 1))));
    this.cooc = null;
    return { dim: opt.dim, vocab, vocabIndex, weights, vectors, byteSize: vectors.byteLength };
  }
}
