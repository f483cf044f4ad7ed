/**
 * Weighted least squares on log ratios (the AllPairs combination): every usable position pair
 * (a, b) says θ_b − θ_a ≈ y_ab with weight w_ab, where θ_k = log p_k. With θ_1 = 0 this is a
 * grounded weighted graph Laplacian system, solved by Gaussian elimination (at most 255
 * positions, usually 10). Positions not connected to position 1 by any usable pair are not
 * identified: their θ is NaN.
 */
export interface RatioEdge {
  a: number;
  b: number;
  /** log(p_b / p_a) as measured. */
  y: number;
  weight: number;
}

export function solveLogPropensities(positions: number, edges: readonly RatioEdge[]): Float64Array {
  const theta = new Float64Array(positions).fill(Number.NaN);
  theta[0] = 0;
  // Which positions are tied to position 1 (index 0).
  const neighbours: number[][] = Array.from({ length: positions }, () => []);
  for (const e of edges) {
    neighbours[e.a]?.push(e.b);
    neighbours[e.b]?.push(e.a);
  }
  const reached = new Uint8Array(positions);
  reached[0] = 1;
  const queue = [0];
  while (queue.length > 0) {
    const k = queue.pop() as number;
    for (const j of neighbours[k] as number[]) {
      if (reached[j] === 0) {
        reached[j] = 1;
        queue.push(j);
      }
    }
  }
  const unknowns: number[] = [];
  const column = new Int32Array(positions).fill(-1);
  for (let k = 1; k < positions; k += 1) {
    if (reached[k] === 1) {
      column[k] = unknowns.length;
      unknowns.push(k);
    }
  }
  const m = unknowns.length;
  if (m === 0) return theta;
  // Normal equations L θ = r over the unknowns (θ_1 = 0 drops its row and column).
  const L = new Float64Array(m * m);
  const r = new Float64Array(m);
  for (const e of edges) {
    const ca = column[e.a] as number;
    const cb = column[e.b] as number;
    if (reached[e.a] === 0) continue;
    if (ca >= 0) {
      L[ca * m + ca] = (L[ca * m + ca] as number) + e.weight;
      r[ca] = (r[ca] as number) - e.weight * e.y;
    }
    if (cb >= 0) {
      L[cb * m + cb] = (L[cb * m + cb] as number) + e.weight;
      r[cb] = (r[cb] as number) + e.weight * e.y;
    }
    if (ca >= 0 && cb >= 0) {
      L[ca * m + cb] = (L[ca * m + cb] as number) - e.weight;
      L[cb * m + ca] = (L[cb * m + ca] as number) - e.weight;
    }
  }
  const x = solveDense(L, r, m);
  for (let i = 0; i < m; i += 1) theta[unknowns[i] as number] = x[i] as number;
  return theta;
}

/** Gaussian elimination with partial pivoting; the system is symmetric positive definite here. */
function solveDense(A: Float64Array, b: Float64Array, n: number): Float64Array {
  for (let col = 0; col < n; col += 1) {
    let pivot = col;
    for (let row = col + 1; row < n; row += 1) {
      if (Math.abs(A[row * n + col] as number) > Math.abs(A[pivot * n + col] as number)) pivot = row;
    }
    if (pivot !== col) {
      for (let k = 0; k < n; k += 1) {
        const t = A[col * n + k] as number;
        A[col * n + k] = A[pivot * n + k] as number;
        A[pivot * n + k] = t;
      }
      const t = b[col] as number;
      b[col] = b[pivot] as number;
      b[pivot] = t;
    }
    const d = A[col * n + col] as number;
    for (let row = col + 1; row < n; row += 1) {
      const f = (A[row * n + col] as number) / d;
      if (f === 0) continue;
      for (let k = col; k < n; k += 1) A[row * n + k] = (A[row * n + k] as number) - f * (A[col * n + k] as number);
      b[row] = (b[row] as number) - f * (b[col] as number);
    }
  }
  const x = new Float64Array(n);
  for (let row = n - 1; row >= 0; row -= 1) {
    let s = b[row] as number;
    for (let k = row + 1; k < n; k += 1) s -= (A[row * n + k] as number) * (x[k] as number);
    x[row] = s / (A[row * n + row] as number);
  }
  return x;
}
