/**
 * Singular values of a weight update ΔW, and its effective rank: how many directions an update really uses.
 * Plain TypeScript (no tfjs): the matrices here are at most a few hundred entries on a side.
 */

/**
 * Singular values of a row-major rows × cols matrix, largest first: the square roots of the eigenvalues of the smaller
 * Gram matrix (MᵀM or MMᵀ), found by cyclic Jacobi rotations. Accurate to ~1e-6 relative for these small sizes.
 */
export function singularValues(m: ArrayLike<number>, rows: number, cols: number): number[] {
  if (m.length !== rows * cols) throw new Error(`singularValues: ${m.length} values for a ${rows} × ${cols} matrix`);
  const n = Math.min(rows, cols);
  const at = (i: number, j: number) => m[i * cols + j];
  // Gram matrix g (n × n) of the smaller side, in float64.
  const g = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      let s = 0;
      if (cols <= rows) for (let i = 0; i < rows; i++) s += at(i, a) * at(i, b);
      else for (let j = 0; j < cols; j++) s += at(a, j) * at(b, j);
      g[a * n + b] = g[b * n + a] = s;
    }
  }
  return symmetricEigenvalues(g, n)
    .map((e) => Math.sqrt(Math.max(0, e)))
    .sort((x, y) => y - x);
}

/** Eigenvalues of a symmetric n × n matrix (row-major, overwritten) by the cyclic Jacobi method. */
function symmetricEigenvalues(a: Float64Array, n: number): number[] {
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] ** 2;
    let scale = 0;
    for (let p = 0; p < n; p++) scale += a[p * n + p] ** 2;
    if (off <= 1e-24 * Math.max(scale, 1e-300)) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  return Array.from({ length: n }, (_, i) => a[i * n + i]);
}

/**
 * Effective rank (Roy & Vetterli, 2007): exp of the entropy of the normalised singular values. Equals k for k equal
 * singular values and 0 zeros; 0 for the zero matrix.
 */
export function effectiveRank(sigma: number[]): number {
  const total = sigma.reduce((s, x) => s + x, 0);
  if (!(total > 0)) return 0;
  const entropy = sigma.reduce((h, x) => (x > 0 ? h - (x / total) * Math.log(x / total) : h), 0);
  return Math.exp(entropy);
}
