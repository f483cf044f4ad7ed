import { describe, expect, it } from 'vitest';
import { binaryObjective, inverseMaxDcg, lambdaRankObjective } from './objectives.js';

describe('LambdaRank gradient', () => {
  it('matches the hand-computed two-document case', () => {
    // labels [1, 0], equal scores. Ideal DCG = (2^1 − 1)/log2(2) = 1.
    // |ΔNDCG| = 1 · |1 − 1/log2(3)|; ρ = 1/(1 + e^0) = 0.5.
    // λ_high = −σ·|ΔNDCG|·ρ, h = ρ(1 − ρ)·|ΔNDCG|; then × log2(1 + Σ|λ|)/Σ|λ| (LightGBM norm).
    const labels = Float32Array.from([1, 0]);
    const groups = Int32Array.from([0, 2]);
    const obj = lambdaRankObjective(labels, groups);
    const g = new Float64Array(2);
    const h = new Float64Array(2);
    obj.gradients(new Float64Array(2), g, h);
    const delta = 1 - 1 / Math.log2(3);
    const lambda = -0.5 * delta;
    const sum = 2 * -lambda;
    const factor = Math.log2(1 + sum) / sum;
    expect(g[0]).toBeCloseTo(lambda * factor, 5);
    expect(g[1]).toBeCloseTo(-lambda * factor, 5);
    expect(h[0]).toBeCloseTo(0.25 * delta * factor, 5);
    expect(h[1]).toBeCloseTo(h[0]!, 12);
  });

  it('gives no gradient to queries without relevant rows or with one row', () => {
    const labels = Float32Array.from([0, 0, 0, 3]);
    const groups = Int32Array.from([0, 3, 4]);
    expect(Array.from(inverseMaxDcg(labels, groups, 30))).toEqual([0, 1 / 7]);
    const g = new Float64Array(4);
    const h = new Float64Array(4);
    lambdaRankObjective(labels, groups).gradients(Float64Array.from([1, 2, 3, 4]), g, h);
    expect(Array.from(g)).toEqual([0, 0, 0, 0]);
  });

  it('pushes a misranked relevant row up and only pairs within truncation', () => {
    const labels = Float32Array.from([0, 0, 0, 2]);
    const groups = Int32Array.from([0, 4]);
    const g = new Float64Array(4);
    const h = new Float64Array(4);
    lambdaRankObjective(labels, groups, { truncationLevel: 1 }).gradients(Float64Array.from([3, 2, 1, 0]), g, h);
    // Truncation 1: only pairs with the top-ranked row (row 0) count.
    expect(g[3]).toBeLessThan(0);
    expect(g[0]).toBeGreaterThan(0);
    expect(g[1]).toBe(0);
    expect(g[2]).toBe(0);
  });
});

describe('binary log-loss gradient', () => {
  it('is p − y with hessian p(1 − p), starting from the base-rate log-odds', () => {
    const y = Float32Array.from([1, 0, 0, 0]);
    const obj = binaryObjective(y);
    expect(obj.initScore(y)).toBeCloseTo(Math.log(0.25 / 0.75), 12);
    const g = new Float64Array(4);
    const h = new Float64Array(4);
    obj.gradients(Float64Array.from([0, 0, Math.log(3), 0]), g, h);
    [-0.5, 0.5, 0.75, 0.5].forEach((v, i) => expect(g[i]).toBeCloseTo(v, 12));
    expect(h[2]).toBeCloseTo(0.1875, 12);
    expect(() => binaryObjective(Float32Array.from([2]))).toThrow(/0\/1 labels/);
  });
});
