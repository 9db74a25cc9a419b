// The word-vector learner (index-builder/vectors/embeddings.ts, index-builder/vectors/svd.ts) on an invented corpus:
// four topics of
// eight words each, mixed with function words, so which words belong together is known.
import { describe, expect, it } from 'vitest';
import {
  commonComponent,
  foldCommonComponent,
  learnEmbeddings,
  mulberry32,
  sifWeights,
} from '../../index-builder/vectors/embeddings';
import { encodeModel } from '../../index-builder/vectors/model-store';
import { randomizedSvd, symmetricEigen } from '../../index-builder/vectors/svd';
import { embedTokens, normalizeInPlace } from '../../index-format/embed';

const TOPICS = [
  ['airline', 'aircraft', 'flight', 'passenger', 'fleet', 'airport', 'pilot', 'jet'],
  ['revenue', 'sales', 'customer', 'income', 'profit', 'margin', 'price', 'order'],
  ['lawsuit', 'court', 'plaintiff', 'settlement', 'claim', 'judge', 'appeal', 'litigation'],
  ['debt', 'loan', 'interest', 'credit', 'borrowing', 'notes', 'lender', 'maturity'],
];
const FUNCTION_WORDS = ['the', 'of', 'and', 'our', 'we', 'in'];

function corpus(seed: number, statements = 1600): string[][] {
  const rand = mulberry32(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  return Array.from({ length: statements }, (_, i) =>
    Array.from({ length: 15 }, (_, k) => (k % 3 ? pick(TOPICS[i % TOPICS.length]!) : pick(FUNCTION_WORDS))),
  );
}

// More dimensions than topics, so the weaker ones carry noise: the singular values weight them down.
const OPTIONS = { method: 'svd', dim: 6, contexts: 40, minCount: 1, commonStride: 1, singularPower: 0.5 } as const;
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('word-vector learner (svd)', () => {
  it('is deterministic: the same statements give the same model bytes; another seed is another model', () => {
    const a = encodeModel(learnEmbeddings(corpus(1), OPTIONS));
    const b = encodeModel(learnEmbeddings(corpus(1), OPTIONS));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const other = encodeModel(learnEmbeddings(corpus(1), { ...OPTIONS, seed: 7 }));
    expect(Buffer.from(other).equals(Buffer.from(a))).toBe(false);
  });

  it('puts words of one topic closer together than words of different topics', () => {
    const model = learnEmbeddings(corpus(2), OPTIONS);
    const vec = (w: string) => embedTokens(model, [w]);
    let within = Infinity;
    let across = -Infinity;
    for (const [t, words] of TOPICS.entries()) {
      for (const w of words) {
        for (const v of words) if (v !== w) within = Math.min(within, dot(vec(w), vec(v)));
        for (const v of TOPICS[(t + 1) % TOPICS.length]!) across = Math.max(across, dot(vec(w), vec(v)));
      }
    }
    expect(within).toBeGreaterThan(0.8);
    expect(across).toBeLessThan(0.3);
    // A statement about one topic is nearest the query of its topic.
    const query = embedTokens(model, ['court', 'judge']);
    const scores = TOPICS.map((words) => dot(query, embedTokens(model, ['the', ...words.slice(2, 6)])));
    expect(scores.indexOf(Math.max(...scores))).toBe(2);
  });

  it('the projection learner also puts words of one topic closer together, and removes no common component', () => {
    const model = learnEmbeddings(corpus(2), { ...OPTIONS, method: 'projection' });
    const cos = (a: string, b: string) => dot(embedTokens(model, [a]), embedTokens(model, [b]));
    expect(cos('court', 'judge')).toBeGreaterThan(cos('court', 'loan'));
    expect(cos('airline', 'pilot')).toBeGreaterThan(cos('airline', 'revenue'));
    expect(model.common).toBeNull();
  });

  it('weights frequent words less (SIF) and takes the common component out of every word vector', () => {
    const model = learnEmbeddings(corpus(3), OPTIONS);
    const weight = (w: string) => model.weights[model.vocabIndex.get(w)!]!;
    expect(weight('the')).toBeLessThan(weight('airline'));
    const u = model.common!;
    expect(Math.abs(dot(u, u) - 1)).toBeLessThan(1e-5);
    for (let w = 0; w < model.vocab.length; w++) {
      const v = Float32Array.from(model.vectors.subarray(w * model.dim, (w + 1) * model.dim), (x) => x / 127);
      expect(Math.abs(dot(v, u)), model.vocab[w]).toBeLessThan(0.02);
    }
    // So a query pooled from the stored vectors (the Worker's index-format/embed.ts) has none of it either.
    expect(Math.abs(dot(embedTokens(model, ['the', 'loan', 'court']), u))).toBeLessThan(0.02);
  });
});

describe('common component', () => {
  it('folded into the word vectors, pooling removes it exactly as removing it from the pooled vector would', () => {
    const rand = mulberry32(11);
    const dim = 8;
    const words = 12;
    const raw = new Float32Array(words * dim);
    for (let i = 0; i < raw.length; i++) raw[i] = rand() - 0.3;
    for (let w = 0; w < words; w++) normalizeInPlace(raw.subarray(w * dim, (w + 1) * dim));
    const weights = Float32Array.from({ length: words }, () => 0.2 + rand());
    const original = Float32Array.from(weights);
    const u = normalizeInPlace(Float32Array.from({ length: dim }, () => rand() - 0.5));
    const vectors = new Int8Array(words * dim);
    foldCommonComponent(raw, weights, dim, u, vectors);
    const vocab = Array.from({ length: words }, (_, i) => `w${i}`);
    const model = {
      dim,
      vocab,
      vocabIndex: new Map(vocab.map((t, i) => [t, i])),
      weights,
      vectors,
      byteSize: vectors.byteLength,
    };
    for (const tokens of [['w0', 'w3', 'w7'], ['w1', 'w1', 'w11'], ['w5']]) {
      const pooled = new Float32Array(dim);
      for (const t of tokens)
        for (let d = 0; d < dim; d++) pooled[d]! += original[Number(t.slice(1))]! * raw[Number(t.slice(1)) * dim + d]!;
      const along = dot(pooled, u);
      const expected = normalizeInPlace(pooled.map((x, d) => x - along * u[d]!));
      const got = embedTokens(model, tokens);
      for (let d = 0; d < dim; d++) expect(got[d]).toBeCloseTo(expected[d]!, 1);
      expect(dot(got, expected)).toBeGreaterThan(0.999);
    }
  });

  it('is the first principal direction of the sampled statement vectors', () => {
    const dim = 3;
    // Word vectors along x, y and x+z; statements mostly share x.
    const vectors = Float32Array.from([1, 0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    const weights = Float32Array.from([1, 1, 1]);
    const statements = [[0], [0, 1], [0, 2], [0], [2], [0, 1]].map((s) => Int32Array.from(s));
    const u = commonComponent(vectors, weights, dim, { forEach: (fn) => statements.forEach(fn) })!;
    expect(u[0]).toBeGreaterThan(0.9);
    expect(commonComponent(vectors, weights, dim, { forEach: () => {} })).toBeNull();
  });

  it("SIF weights fall with a word's share of the tokens", () => {
    const w = sifWeights(Float64Array.from([1000, 10, 1]), 10_000, 1e-3);
    expect(w[0]).toBeCloseTo(1e-3 / (1e-3 + 0.1), 6);
    expect(w[0]!).toBeLessThan(w[1]!);
    expect(w[1]!).toBeLessThan(w[2]!);
  });
});

describe('randomized SVD', () => {
  it('finds the singular values and vectors of a low-rank matrix', () => {
    const rand = mulberry32(3);
    const rows = 60;
    const cols = 25;
    // M = 5 a b^T + 2 c d^T with orthonormal a, c and b, d.
    const unit = (n: number) => normalizeInPlace(Float32Array.from({ length: n }, () => rand() - 0.5));
    const a = unit(rows);
    const cRaw = unit(rows);
    const ac = dot(a, cRaw);
    const c = normalizeInPlace(cRaw.map((x, i) => x - ac * a[i]!));
    const b = unit(cols);
    const dRaw = unit(cols);
    const bd = dot(b, dRaw);
    const d = normalizeInPlace(dRaw.map((x, i) => x - bd * b[i]!));
    const values = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) values[i * cols + j] = 5 * a[i]! * b[j]! + 2 * c[i]! * d[j]!;
    const svd = randomizedSvd({ rows, cols, values }, 2, {
      oversample: 4,
      powerIterations: 2,
      gaussian: () => rand() - 0.5,
    });
    expect(svd.sigma[0]).toBeCloseTo(5, 3);
    expect(svd.sigma[1]).toBeCloseTo(2, 3);
    const first = Float32Array.from({ length: rows }, (_, i) => svd.u[i * 2]!);
    expect(Math.abs(dot(first, a))).toBeCloseTo(1, 3);
  });

  it('Jacobi eigen-decomposition of a symmetric matrix, largest first', () => {
    const { values, vectors } = symmetricEigen(Float64Array.from([2, 1, 0, 1, 2, 0, 0, 0, 5]), 3);
    expect([...values].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([5, 3, 1]);
    expect(vectors[6]).toBeCloseTo(1, 6); // the first eigenvector (column 0) is z
    expect(vectors[1]).toBeCloseTo(Math.SQRT1_2, 6); // the second is (x + y) / sqrt 2
  });
});
