/**
 * Power and units still needed for a difference of quantiles (quantileUnitsStillNeeded): each arm's standard
 * error is taken to scale as 1/√units, so the plan is a mean's with known standard error. Expected values are
 * hand-computed with scipy (scripts/fixtures/stats/quantile_planning_hand.py: norm.cdf/ppf, brentq on the scale factor t with the allocation kept; the sequential
 * critical value from the confidence sequence's half-width at N = t·(n_A + n_B)), the generator being
 * power(t) = Φ((δ − c·se(t))/se(t)) + Φ((−δ − c·se(t))/se(t)), se(t)² = v_A/(t·n_A) + v_B/(t·n_B) (absolute)
 * or v_B/(t·n_B·a²) + v_A·b²/(t·n_A·a⁴) with b = a(1 + mde) (relative), v = units·se².
 */
import { describe, expect, it } from 'vitest';
import { quantileUnitsStillNeeded, type QuantileEstimate } from './quantiles.js';

const arm = (quantile: number | null, se: number | null, units: number): QuantileEstimate => ({
  q: 0.5,
  quantile,
  se,
  cdfSe: null,
  units,
  items: units * 3,
  reason: null,
});
// Control median 1000 ms (se 20, 400 units), variant se 25 with 500 units; mde 5 %.
const control = arm(1000, 20, 400);
const variant = arm(1040, 25, 500);

describe('quantileUnitsStillNeeded', () => {
  it.each([
    // name, options, power now, required control, required variant, additional
    ['fixed, absolute, no correction', { scale: 'absolute', method: 'fixed' }, 0.3454460596174535, 1288, 1610, 1998],
    [
      'fixed, relative, Holm over 4 comparisons (α/4)',
      { scale: 'relative', correction: 'holm', comparisons: 4 },
      0.16697610093597917,
      1902,
      2378,
      3380,
    ],
    ['sequential, absolute, no correction', { scale: 'absolute', method: 'sequential' }, 0.03159032918714235, 2466, 3082, 4648],
    [
      'sequential, relative, Bonferroni bound over 2 comparisons',
      { scale: 'relative', method: 'sequential', correction: 'benjamini-hochberg', comparisons: 2 },
      0.013310502331587594,
      2897,
      3621,
      5618,
    ],
  ] as const)('%s: matches the hand-computed plan', (_name, options, power, requiredControl, requiredVariant, additional) => {
    const plan = quantileUnitsStillNeeded(control, variant, { mde: 0.05, alpha: 0.05, ...options });
    expect(plan.reason).toBeNull();
    expect(plan.power).toBeCloseTo(power, 10);
    expect(plan.requiredControl).toBe(requiredControl);
    expect(plan.requiredVariant).toBe(requiredVariant);
    expect(plan.additionalUnits).toBe(additional);
  });

  it('the variant quantile does not enter (the plan is at the mde), the correction is ignored without one', () => {
    const a = quantileUnitsStillNeeded(control, variant, { mde: 0.05, scale: 'absolute', correction: 'none', comparisons: 6 });
    const b = quantileUnitsStillNeeded(control, arm(900, 25, 500), { mde: 0.05, scale: 'absolute' });
    expect(a.power).toBeCloseTo(0.3454460596174535, 10);
    expect(b.power).toBeCloseTo(0.3454460596174535, 10);
  });

  it('already powered: 0 units still needed, required units below the current ones', () => {
    const plan = quantileUnitsStillNeeded(arm(1000, 5, 4000), arm(1000, 5, 4000), { mde: 0.05, scale: 'relative' });
    expect(plan.power).toBeGreaterThan(0.99);
    expect(plan.additionalUnits).toBe(0);
    expect(plan.requiredControl).toBeLessThan(4000);
  });

  it('null with a reason without a quantile or standard error, or with fewer than 2 units', () => {
    expect(quantileUnitsStillNeeded(arm(null, null, 0), variant, { mde: 0.05 })).toMatchObject({ power: null, additionalUnits: null });
    expect(quantileUnitsStillNeeded(control, arm(1000, null, 1), { mde: 0.05 }).reason).not.toBeNull();
    expect(quantileUnitsStillNeeded(arm(1000, 20, 1), variant, { mde: 0.05 }).additionalUnits).toBeNull();
  });
});
