import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { powerAchieved, sampleSize, unitsStillNeeded, type SampleSizeInput } from './power.js';

interface PlanningCase {
  name: string;
  input: SampleSizeInput;
  expected: { exactSessionsPerVariant: number; comparisons: number; plannedAlpha: number };
}

const cases = loadFixture<PlanningCase>('planning');

describe('planning that matches the analysis, against statsmodels and an independent sequential solver', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = sampleSize(c.input);
    expect(r.reason).toBeNull();
    expectClose(r.exactSessionsPerVariant, c.expected.exactSessionsPerVariant, 'n per variant', 1e-6);
    expect(r.comparisons).toBe(c.expected.comparisons);
    expectClose(r.plannedAlpha, c.expected.plannedAlpha, 'planned alpha', 1e-12);
  });

  it("issue 13's example: 3 variants at α = 0.01 need 114 454 per variant uncorrected, 130 465 under Holm's Bonferroni bound", () => {
    const base = { baselineMean: 0.02, mde: 0.1, alpha: 0.01, power: 0.8, variants: 3 } as const;
    expect(sampleSize(base).sessionsPerVariant).toBe(114454);
    // statsmodels' 130 464.3 rounded up: a plan never rounds below the power it promises.
    expect(sampleSize({ ...base, correction: 'holm' }).sessionsPerVariant).toBe(130465);
    expect(sampleSize({ ...base, correction: 'holm', targetMetrics: 2 }).comparisons).toBe(4);
  });

  it('needs more units sequentially than at a fixed horizon, and more with a correction than without', () => {
    const base = { baselineMean: 0.3, mde: 0.05, scale: 'relative', variants: 3 } as const;
    const fixed = sampleSize(base).exactSessionsPerVariant!;
    expect(sampleSize({ ...base, method: 'sequential' }).exactSessionsPerVariant!).toBeGreaterThan(fixed);
    expect(sampleSize({ ...base, correction: 'holm' }).exactSessionsPerVariant!).toBeGreaterThan(fixed);
  });
});

describe('power so far and units still needed', () => {
  const plan = { baselineMean: 10, stdDev: 4, mde: 0.02, alpha: 0.05, power: 0.8, correction: 'holm', variants: 3 } as const;
  const n = sampleSize({ ...plan, scale: 'absolute' }).exactSessionsPerVariant!;
  const observed = {
    baselineMean: 10,
    mde: 0.02,
    alpha: 0.05,
    correction: 'holm',
    comparisons: 2,
    varianceControl: 16,
    varianceVariant: 16,
  } as const;

  it('gives the planned power at the planned size', () => {
    expectClose(powerAchieved({ ...observed, nControl: n, nVariant: n }).power, 0.8, 'power', 1e-9);
  });

  it('asks for the rest of the plan, or nothing once it is reached', () => {
    const half = Math.round(n / 2);
    const r = unitsStillNeeded({ ...observed, nControl: half, nVariant: half, power: 0.8 });
    expect(r.reason).toBeNull();
    expect(r.power!).toBeLessThan(0.8);
    expect(Math.abs(r.additionalUnits! - 2 * (Math.ceil(n) - half))).toBeLessThanOrEqual(2);
    expect(unitsStillNeeded({ ...observed, nControl: 2 * n, nVariant: 2 * n }).additionalUnits).toBe(0);
  });

  it('counts CUPED: halving the variance halves the units a fixed-horizon test needs', () => {
    const plain = unitsStillNeeded({ ...observed, nControl: 100, nVariant: 100 });
    const cuped = unitsStillNeeded({ ...observed, nControl: 100, nVariant: 100, varianceReduction: 0.5 });
    expect(Math.abs(cuped.requiredControl! / plain.requiredControl! - 0.5)).toBeLessThan(0.001);
  });

  it('keeps the current split between the arms', () => {
    const r = unitsStillNeeded({ ...observed, nControl: 300, nVariant: 100 });
    expect(Math.abs(r.requiredControl! / r.requiredVariant! - 3)).toBeLessThan(0.01);
  });

  it('explains what it cannot compute', () => {
    expect(unitsStillNeeded({ ...observed, nControl: 1, nVariant: 10 }).reason).toMatch(/at least 2 units/);
    expect(unitsStillNeeded({ ...observed, nControl: 10, nVariant: 10, varianceReduction: 1 }).reason).toMatch(/valid/);
    expect(sampleSize({ ...plan, targetMetrics: 0 }).reason).toMatch(/integers/);
  });
});
