import type { EmbeddingModel } from '../../index-format/types';
import { normalizeInPlace, quantizeUnit } from '../../index-format/embed';
import { randomizedSvd, symmetricEigen } from './svd';

/**
 * How word vectors are learned from the PPMI matrix. `projection` (the default): a seeded Gaussian random projection
 * of its rows, pooled with IDF weights. `svd`: its top singular vectors, pooled with SIF weights, the common
 * component removed (docs/decisions/embeddings.md says why it is not the default).
 */
export type EmbeddingMethod = 'projection' | 'svd';

/** Knobs of the word-vector learner; see docs/PARAMETERS.md for the trade-offs. */
export interface EmbeddingOptions {
  method: EmbeddingMethod;
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
  /** Seed of the projection (or of the SVD's random sketch) and of the directions of words without context. */
  seed: number;
  /**
   * Filings the model is learned from (vocabulary, pooling weights and co-occurrences), at most: a deterministic
   * sample when the corpus has more (index-builder/vectors/model-store.ts). Defaults to 400, about the shared corpus,
   * so that a model's cost stays bounded at any corpus size and a job of its own can learn it (pipeline.ts learnModel).
   */
  sampleFilings: number;
  /**
   * svd only: power iterations of the randomized SVD. Defaults to 3: the leading directions no longer depend on the
   * seed.
   */
  powerIterations: number;
  /**
   * svd only: exponent of the singular values that scale the word vectors (0: the singular vectors alone). Defaults to
   * 0.
   */
  singularPower: number;
  /**
   * svd only: SIF pooling weight of a word: a / (a + p(word)), p its share of the corpus's tokens. Defaults to 1e-3.
   */
  sifA: number;
  /**
   * svd only: every how many co-occurrence statements one is kept to estimate the common component from. Defaults to 8.
   */
  commonStride: number;
}

export const DEFAULT_EMBEDDING_OPTIONS: EmbeddingOptions = {
  method: 'projection',
  dim: 128,
  maxVocab: 30_000,
  minCount: 3,
  contexts: 2_000,
  window: 5,
  seed: 20261121,
  sampleFilings: 400,
  powerIterations: 3,
  singularPower: 0,
  sifA: 1e-3,
  commonStride: 8,
};

/** A model as the builder holds it: what the Worker reads of it, and the common component taken out of it. */
export type LearnedModel = EmbeddingModel & { common: Float32Array | null };

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
 * Learns the model from the statements themselves (no pretrained model is needed or downloadable here; DESIGN.md
 * section 6). Both methods start from the positive PMI of (word, context word) co-occurrence within a window, with
 * context-distribution smoothing (counts^0.75).
 * - projection: each word's PPMI row projected to `dim` dimensions by a seeded Gaussian random projection (which
 *   preserves cosines between rows); pooling weights are inverse document frequencies.
 * - svd: the top `dim` left singular vectors of the PPMI matrix, by randomized SVD; pooling weights are smooth
 *   inverse frequency, a / (a + p(word)) (Arora, Liang and Ma, 2017); the common component, the first principal
 *   direction of a sample of pooled statement vectors, which every text shares whatever it says, is taken out of
 *   every word vector, so the statement vectors and the Worker's query vectors, both weighted sums of word vectors,
 *   lose it alike.
 */
export function learnEmbeddings(docs: readonly string[][], options: Partial<EmbeddingOptions> = {}): LearnedModel {
  const learner = new EmbeddingLearner(options);
  for (const tokens of docs) learner.count(tokens);
  learner.fixVocabulary();
  for (const tokens of docs) learner.cooccur(tokens);
  return learner.finish();
}

/** A growable list of int32 word ids with statement boundaries: the statements kept for the common component. */
class StatementSample {
  private ids = new Int32Array(1 << 16);
  private length = 0;
  readonly ends: number[] = [];
  add(ids: readonly number[]): void {
    while (this.length + ids.length > this.ids.length) {
      const grown = new Int32Array(this.ids.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    for (const id of ids) this.ids[this.length++] = id;
    this.ends.push(this.length);
  }
  forEach(fn: (ids: Int32Array) => void): void {
    let start = 0;
    for (const end of this.ends) {
      fn(this.ids.subarray(start, end));
      start = end;
    }
  }
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
  private tokens = 0;
  private vocab: string[] = [];
  private vocabCounts = new Float64Array(0);
  private vocabIndex = new Map<string, number>();
  private cooc: Float32Array | null = null;
  private C = 0;
  private cooccurred = 0;
  private readonly sample = new StatementSample();

  constructor(options: Partial<EmbeddingOptions> = {}) {
    this.opt = { ...DEFAULT_EMBEDDING_OPTIONS, ...options };
  }

  count(tokens: readonly string[]): void {
    this.docs++;
    this.tokens += tokens.length;
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
  countsSnapshot(): { counts: [string, number][]; docFreq: [string, number][]; docs: number; tokens: number } {
    return { counts: [...this.counts], docFreq: [...this.docFreq], docs: this.docs, tokens: this.tokens };
  }

  addCounts(snapshot: {
    counts: [string, number][];
    docFreq: [string, number][];
    docs: number;
    tokens?: number;
  }): void {
    if (this.opt.method === 'svd' && typeof snapshot.tokens !== 'number') {
      throw new Error(
        'a partial build segmented by an older builder has no token count for the svd pooling weights: ' +
          'rebuild the partition',
      );
    }
    for (const [t, n] of snapshot.counts) this.counts.set(t, (this.counts.get(t) ?? 0) + n);
    for (const [t, n] of snapshot.docFreq) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + n);
    this.docs += snapshot.docs;
    this.tokens += snapshot.tokens ?? 0;
  }

  fixVocabulary(): void {
    const byFrequency = [...this.counts.entries()]
      .filter(([, c]) => c >= this.opt.minCount)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, this.opt.maxVocab);
    this.vocab = byFrequency.map(([t]) => t);
    this.vocabCounts = Float64Array.from(byFrequency, ([, c]) => c);
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
    if (this.opt.method === 'svd' && this.cooccurred++ % this.opt.commonStride === 0)
      this.sample.add(ids.filter((w) => w >= 0));
  }

  finish(): LearnedModel {
    const cooc = this.cooc;
    if (!cooc) throw new Error('EmbeddingLearner: fixVocabulary() before finish()');
    const { opt } = this;
    const rand = mulberry32(opt.seed);
    const dim = opt.dim;
    const V = this.vocab.length;
    const raw = opt.method === 'svd' ? this.singularVectors(cooc, rand) : this.projectedRows(cooc, rand);
    this.cooc = null;
    withRandomDirections(raw, dim, rand);
    const vectors = new Int8Array(V * dim);
    if (opt.method === 'projection') {
      const n = this.docs || 1;
      const weights = Float32Array.from(this.vocab, (t) => Math.log(1 + n / (this.docFreq.get(t) ?? 1)));
      foldCommonComponent(raw, weights, dim, null, vectors);
      return {
        dim,
        vocab: this.vocab,
        vocabIndex: this.vocabIndex,
        weights,
        vectors,
        byteSize: vectors.byteLength,
        common: null,
      };
    }
    const weights = sifWeights(this.vocabCounts, this.tokens, opt.sifA);
    const common = commonComponent(raw, weights, dim, this.sample);
    foldCommonComponent(raw, weights, dim, common, vectors);
    return {
      dim,
      vocab: this.vocab,
      vocabIndex: this.vocabIndex,
      weights,
      vectors,
      byteSize: vectors.byteLength,
      common,
    };
  }

  /** Each word's PPMI row times a seeded Gaussian projection (vocabulary x dim, rows not normalized). */
  private projectedRows(cooc: Float32Array, rand: () => number): Float32Array {
    const { C } = this;
    const V = this.vocab.length;
    const { dim } = this.opt;
    const pmi = pmiMargins(cooc, V, C);
    const projection = new Float32Array(C * dim);
    for (let i = 0; i < projection.length; i++) projection[i] = gaussian(rand);
    const out = new Float32Array(V * dim);
    for (let w = 0; w < V; w++) {
      for (let c = 0; c < C; c++) {
        const v = cooc[w * C + c]!;
        if (v <= 0) continue;
        const p = pmi(w, c, v);
        if (p <= 0) continue;
        for (let d = 0; d < dim; d++) out[w * dim + d]! += p * projection[c * dim + d]!;
      }
    }
    return out;
  }

  /**
   * The top singular vectors of the PPMI matrix, scaled by singularPower (vocabulary x dim, rows not normalized); the
   * counts become PPMI in place.
   */
  private singularVectors(ppmi: Float32Array, rand: () => number): Float32Array {
    const { opt, C } = this;
    const V = this.vocab.length;
    const dim = opt.dim;
    ppmiInPlace(ppmi, V, C);
    const out = new Float32Array(V * dim);
    if (V > 0 && C > 0) {
      const svd = randomizedSvd({ rows: V, cols: C, values: ppmi }, dim, {
        oversample: 16,
        powerIterations: opt.powerIterations,
        gaussian: () => gaussian(rand),
      });
      const scale = Float64Array.from(svd.sigma, (s) => s ** opt.singularPower);
      for (let w = 0; w < V; w++) for (let d = 0; d < svd.k; d++) out[w * dim + d] = svd.u[w * svd.k + d]! * scale[d]!;
    }
    return out;
  }
}

/** Normalizes every word vector in place; a word with no positive context gets a random direction of its own. */
function withRandomDirections(out: Float32Array, dim: number, rand: () => number): void {
  for (let w = 0; w < out.length / dim; w++) {
    const row = out.subarray(w * dim, (w + 1) * dim);
    // A word with no positive context (rare, isolated) gets a random direction of its own: it then matches only
    // statements that contain it, like a lexical term.
    if (row.every((x) => x === 0)) for (let d = 0; d < dim; d++) row[d] = gaussian(rand);
    normalizeInPlace(row);
  }
}

/** The margins PMI needs: row sums, smoothed column sums (counts^0.75, which keeps rare contexts from dominating). */
function pmiMargins(cooc: Float32Array, V: number, C: number) {
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
  const colSmoothed = Float64Array.from(colSum, (s) => s ** 0.75);
  for (let c = 0; c < C; c++) colSmoothedTotal += colSmoothed[c]!;
  /** PMI of a cell holding v > 0. */
  return (w: number, c: number, v: number) =>
    Math.log(v / total / ((rowSum[w]! / total) * (colSmoothed[c]! / colSmoothedTotal)));
}

/** Positive PMI of each (word, context) cell, in place. */
export function ppmiInPlace(cooc: Float32Array, V: number, C: number): void {
  const pmi = pmiMargins(cooc, V, C);
  for (let w = 0; w < V; w++) {
    for (let c = 0; c < C; c++) {
      const v = cooc[w * C + c]!;
      if (v <= 0) continue;
      const p = pmi(w, c, v);
      cooc[w * C + c] = Math.max(p, 0);
    }
  }
}

/** Smooth inverse frequency: a / (a + p), p the word's share of all tokens counted. */
export function sifWeights(counts: Float64Array, tokens: number, a: number): Float32Array {
  return Float32Array.from(counts, (c) => a / (a + c / Math.max(1, tokens)));
}

/**
 * The first principal direction (uncentred, as SIF does) of the sampled statements' pooled unit vectors, sign fixed
 * so that its largest entry is positive; null when no statement was sampled.
 */
export function commonComponent(
  vectors: Float32Array,
  weights: Float32Array,
  dim: number,
  sample: { forEach(fn: (ids: Int32Array) => void): void },
): Float32Array | null {
  const moment = new Float64Array(dim * dim);
  const v = new Float32Array(dim);
  let n = 0;
  sample.forEach((ids) => {
    v.fill(0);
    for (const w of ids) for (let d = 0; d < dim; d++) v[d]! += weights[w]! * vectors[w * dim + d]!;
    normalizeInPlace(v);
    if (v.every((x) => x === 0)) return;
    n++;
    for (let i = 0; i < dim; i++) {
      const vi = v[i]!;
      for (let j = i; j < dim; j++) moment[i * dim + j]! += vi * v[j]!;
    }
  });
  if (!n) return null;
  for (let i = 0; i < dim; i++) for (let j = 0; j < i; j++) moment[i * dim + j] = moment[j * dim + i]!;
  const { vectors: eig } = symmetricEigen(moment, dim);
  return Float32Array.from({ length: dim }, (_, d) => eig[d * dim]!);
}

/**
 * Takes the common component `u` out of every word vector and quantizes it: x' = x - (x.u) u is stored as x'/|x'|
 * with the pooling weight multiplied by |x'|. A weighted sum of the stored vectors is then exactly the weighted sum
 * of the original ones with u removed, so a query pooled by index-format/embed.ts loses u as the statements did.
 */
export function foldCommonComponent(
  raw: Float32Array,
  weights: Float32Array,
  dim: number,
  u: Float32Array | null,
  out: Int8Array,
): void {
  const row = new Float32Array(dim);
  for (let w = 0; w < weights.length; w++) {
    row.set(raw.subarray(w * dim, (w + 1) * dim));
    if (u) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += row[d]! * u[d]!;
      for (let d = 0; d < dim; d++) row[d]! -= dot * u[d]!;
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += row[d]! * row[d]!;
      weights[w]! *= Math.sqrt(norm);
    }
    quantizeUnit(normalizeInPlace(row), out, w * dim);
  }
}
