/**
 * The linear algebra of the word-vector learner (index-builder/vectors/embeddings.ts): a randomized truncated SVD of a
 * dense non-negative matrix that is mostly zeros (the PPMI matrix), and the eigen-decomposition of the small symmetric
 * matrices it reduces to. Plain loops in a fixed order, so identical input gives identical bits.
 */

/** A row-major matrix whose multiplications skip zero entries (the PPMI matrix is mostly zeros). */
export interface SparseRows {
  rows: number;
  cols: number;
  values: Float32Array;
}

/** out (rows x k) = M (rows x cols) * X (cols x k), both row-major. */
function multiply(m: SparseRows, x: Float64Array, k: number): Float64Array {
  const out = new Float64Array(m.rows * k);
  for (let r = 0; r < m.rows; r++) {
    const base = r * m.cols;
    const o = r * k;
    for (let c = 0; c < m.cols; c++) {
      const v = m.values[base + c]!;
      if (v === 0) continue;
      const xc = c * k;
      for (let j = 0; j < k; j++) out[o + j]! += v * x[xc + j]!;
    }
  }
  return out;
}

/** out (cols x k) = M^T * Y (rows x k), row-major. */
function multiplyTransposed(m: SparseRows, y: Float64Array, k: number): Float64Array {
  const out = new Float64Array(m.cols * k);
  for (let r = 0; r < m.rows; r++) {
    const base = r * m.cols;
    const yr = r * k;
    for (let c = 0; c < m.cols; c++) {
      const v = m.values[base + c]!;
      if (v === 0) continue;
      const o = c * k;
      for (let j = 0; j < k; j++) out[o + j]! += v * y[yr + j]!;
    }
  }
  return out;
}

/**
 * Orthonormalizes the k columns of a row-major n x k matrix in place (modified Gram-Schmidt, twice for accuracy
 * after power iterations). A column that vanishes (rank below k) is left at zero.
 */
export function orthonormalizeColumns(a: Float64Array, n: number, k: number): void {
  const cols = Array.from({ length: k }, (_, j) => {
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = a[i * k + j]!;
    return col;
  });
  for (let pass = 0; pass < 2; pass++) {
    for (let j = 0; j < k; j++) {
      const cj = cols[j]!;
      for (let p = 0; p < j; p++) {
        const cp = cols[p]!;
        let dot = 0;
        for (let i = 0; i < n; i++) dot += cp[i]! * cj[i]!;
        for (let i = 0; i < n; i++) cj[i]! -= dot * cp[i]!;
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += cj[i]! * cj[i]!;
      norm = Math.sqrt(norm);
      const inv = norm > 1e-10 ? 1 / norm : 0;
      for (let i = 0; i < n; i++) cj[i]! *= inv;
    }
  }
  for (let j = 0; j < k; j++) for (let i = 0; i < n; i++) a[i * k + j] = cols[j]![i]!;
}

/**
 * Eigenvalues (descending) and unit eigenvectors (the columns of a row-major n x n matrix, in the same order) of a
 * symmetric n x n matrix, by cyclic Jacobi rotations. Each eigenvector's sign is fixed so that its entry of largest
 * magnitude is positive.
 */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += a[i * n + i]! * a[i * n + i]!;
      for (let j = i + 1; j < n; j++) off += a[i * n + j]! * a[i * n + j]!;
    }
    if (off <= 1e-24 * Math.max(diag, 1e-300)) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (apq === 0) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y]! - a[x * n + x]! || x - y);
  const values = Float64Array.from(order, (i) => a[i * n + i]!);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    let big = 0;
    for (let k = 0; k < n; k++) if (Math.abs(v[k * n + src]!) > Math.abs(big)) big = v[k * n + src]!;
    const sign = big < 0 ? -1 : 1;
    for (let k = 0; k < n; k++) vectors[k * n + dst] = sign * v[k * n + src]!;
  });
  return { values, vectors };
}

/**
 * The top `k` left singular vectors (row-major rows x k) and singular values of M, by randomized SVD (Halko,
 * Martinsson and Tropp): a seeded Gaussian sketch of `k + oversample` columns, `powerIterations` rounds of M M^T
 * to sharpen it, then the exact SVD of the small projected matrix. With enough power iterations the subspace does
 * not depend on the seed.
 */
export function randomizedSvd(
  m: SparseRows,
  k: number,
  options: { oversample: number; powerIterations: number; gaussian: () => number },
): { u: Float64Array; sigma: Float64Array; k: number } {
  const l = Math.min(k + options.oversample, m.rows, m.cols);
  const omega = new Float64Array(m.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = options.gaussian();
  let y = multiply(m, omega, l);
  for (let it = 0; it < options.powerIterations; it++) {
    orthonormalizeColumns(y, m.rows, l);
    const z = multiplyTransposed(m, y, l);
    orthonormalizeColumns(z, m.cols, l);
    y = multiply(m, z, l);
  }
  orthonormalizeColumns(y, m.rows, l);
  // B = Q^T M is l x cols; its left singular vectors are the eigenvectors of B B^T = Q^T M M^T Q.
  const bt = multiplyTransposed(m, y, l); // cols x l, = B^T
  const gram = new Float64Array(l * l);
  for (let c = 0; c < m.cols; c++) {
    const o = c * l;
    for (let i = 0; i < l; i++) {
      const bi = bt[o + i]!;
      if (bi === 0) continue;
      for (let j = i; j < l; j++) gram[i * l + j]! += bi * bt[o + j]!;
    }
  }
  for (let i = 0; i < l; i++) for (let j = 0; j < i; j++) gram[i * l + j] = gram[j * l + i]!;
  const eig = symmetricEigen(gram, l);
  const kept = Math.min(k, l);
  const u = new Float64Array(m.rows * kept);
  for (let r = 0; r < m.rows; r++) {
    for (let j = 0; j < kept; j++) {
      let s = 0;
      for (let i = 0; i < l; i++) s += y[r * l + i]! * eig.vectors[i * l + j]!;
      u[r * kept + j] = s;
    }
  }
  const sigma = Float64Array.from({ length: kept }, (_, j) => Math.sqrt(Math.max(0, eig.values[j]!)));
  return { u, sigma, k: kept };
}
