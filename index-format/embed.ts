import type { EmbeddingModel } from './types';

/**
 * Text embedding shared by builder and Worker: the weighted mean of the word vectors of a text's terms (the word
 * vectors are learned by the builder from the corpus), L2-normalized. Terms outside the vocabulary are ignored;
 * a text with no known term gets the zero vector, which scores 0 against everything.
 */
export function embedTokens(model: EmbeddingModel, tokens: readonly string[]): Float32Array {
  const out = new Float32Array(model.dim);
  const { dim, vectors, weights, vocabIndex } = model;
  for (const token of tokens) {
    const w = vocabIndex.get(token);
    if (w === undefined) continue;
    const weight = weights[w]!;
    const base = w * dim;
    for (let d = 0; d < dim; d++) out[d]! += weight * vectors[base + d]!;
  }
  return normalizeInPlace(out);
}

export function normalizeInPlace(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  if (norm === 0) return v;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

/** Quantizes a unit vector to int8 with the fixed scale 127 (cosine stays comparable across statements). */
export function quantizeUnit(v: Float32Array, out: Int8Array, offset = 0): void {
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i]! * 127);
    out[offset + i] = q > 127 ? 127 : Math.max(q, -127);
  }
}

/** Cosine between a float unit query and an int8-quantized unit vector stored at `offset`. */
export function dotInt8(query: Float32Array, vectors: Int8Array, offset: number): number {
  let s = 0;
  for (let i = 0; i < query.length; i++) s += query[i]! * vectors[offset + i]!;
  return s / 127;
}
