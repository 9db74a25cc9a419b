import { mulberry32 } from '../../index-builder/vectors/embeddings';

/** Unit-length vectors from a seeded approximate Gaussian (sum of uniforms): reproducible test data. */
export function randomUnitVectors(n: number, dim: number, seed: number): Float32Array[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const v = new Float32Array(dim);
    for (let j = 0; j < dim; j++) v[j] = rnd() + rnd() + rnd() - 1.5;
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}
