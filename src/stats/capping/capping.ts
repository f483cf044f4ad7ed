import type { RatioSums, StatsReason } from '../types.js';

/**
 * Capping (winsorising) unbounded per-unit metrics such as dwell time, so a few extreme sessions do not
 * dominate the variance. The cap is computed ONCE on the pooled per-unit values of all arms (so every arm
 * is capped at the same value and the cap does not depend on the assignment) and applied to each unit's
 * numerator; the uncapped sums are returned next to the capped ones.
 *
 * Ratio metrics (numerator X and denominator Y per unit, e.g. dwell time per click) are capped per unit
 * consistently: the percentile is taken of the units' own ratios x_i/y_i, and a unit's numerator becomes
 * min(x_i, cap·y_i), its denominator untouched. Numerator and denominator are therefore never capped on
 * different populations of units, the defect of GrowthBook issue #6331 (numerator cap over all units,
 * denominator cap over units with a denominator event only). Units with y_i = 0 have no ratio: they do
 * not enter the percentile and are left as they are. Only the upper tail is capped, as GrowthBook does.
 */

export type CapSpec =
  | {
      readonly type: 'percentile';
      /** Percentile in (0, 1), e.g. 0.99. */
      readonly value: number;
      /** Compute the percentile over non-zero unit values only (GrowthBook's "ignore zeros"). Default false. */
      readonly ignoreZeros?: boolean;
    }
  | { readonly type: 'absolute'; readonly value: number };

/** Per-unit values of one arm: numerators, and denominators for a ratio metric (omit for Y = 1). */
export interface UnitValues {
  readonly numerators: ArrayLike<number>;
  readonly denominators?: ArrayLike<number>;
}

/**
 * Linear-interpolation quantile of a sample: position h = (N − 1)·q between the order statistics, the
 * numpy default ('linear', Hyndman & Fan type 7) and SQL's PERCENTILE_CONT. Null for an empty sample.
 */
export function percentile(values: ArrayLike<number>, q: number): number | null {
  if (values.length === 0 || !(q >= 0 && q <= 1)) return null;
  const sorted = Float64Array.from(values).sort();
  return sortedPercentile(sorted, q);
}

export function sortedPercentile(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

function unitRatios(arm: UnitValues): number[] {
  const out: number[] = [];
  const { numerators: x, denominators: y } = arm;
  for (let i = 0; i < x.length; i += 1) {
    if (y === undefined) out.push(x[i]!);
    else if (y[i]! > 0) out.push(x[i]! / y[i]!);
  }
  return out;
}

function invalidArm(arm: UnitValues): boolean {
  const { numerators: x, denominators: y } = arm;
  if (y !== undefined && y.length !== x.length) return true;
  for (let i = 0; i < x.length; i += 1) {
    if (!Number.isFinite(x[i]!) || (y !== undefined && !(Number.isFinite(y[i]!) && y[i]! >= 0))) return true;
  }
  return false;
}

export interface CapThreshold {
  readonly cap: number | null;
  readonly reason: StatsReason | null;
}

/** The cap for one metric from the pooled per-unit values (or ratios) of every arm. */
export function capThreshold(arms: readonly UnitValues[], spec: CapSpec): CapThreshold {
  if (arms.some(invalidArm)) return { cap: null, reason: 'INVALID_INPUT' };
  if (spec.type === 'absolute') {
    return Number.isFinite(spec.value) ? { cap: spec.value, reason: null } : { cap: null, reason: 'INVALID_INPUT' };
  }
  if (!(spec.value > 0 && spec.value < 1)) return { cap: null, reason: 'INVALID_INPUT' };
  let pooled = arms.flatMap(unitRatios);
  if (spec.ignoreZeros) pooled = pooled.filter((v) => v !== 0);
  const cap = percentile(pooled, spec.value);
  return cap === null ? { cap: null, reason: 'EMPTY_ARM' } : { cap, reason: null };
}

export interface CappedArm {
  /** Sufficient statistics of the capped per-unit values. */
  readonly sums: RatioSums;
  /** The same without capping, so the uncapped result stays available. */
  readonly uncapped: RatioSums;
  /** Units whose numerator the cap lowered. */
  readonly cappedUnits: number;
}

/** Sufficient statistics of one arm with each unit's numerator capped at cap (times its denominator). */
export function capArm(arm: UnitValues, cap: number): CappedArm {
  const { numerators: x, denominators: y } = arm;
  const n = x.length;
  const capped = { n, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 };
  const raw = { n, sumX: 0, sumY: 0, sumX2: 0, sumY2: 0, sumXY: 0 };
  let cappedUnits = 0;
  for (let i = 0; i < n; i += 1) {
    const xi = x[i]!;
    const yi = y === undefined ? 1 : y[i]!;
    const limit = cap * yi;
    const ci = yi > 0 && xi > limit ? limit : xi;
    if (ci !== xi) cappedUnits += 1;
    for (const [target, value] of [
      [capped, ci],
      [raw, xi],
    ] as const) {
      target.sumX += value;
      target.sumX2 += value * value;
      target.sumXY += value * yi;
      target.sumY += yi;
      target.sumY2 += yi * yi;
    }
  }
  return { sums: capped, uncapped: raw, cappedUnits };
}

export interface CappingResult {
  readonly cap: number | null;
  /** One entry per input arm, in order; empty when the cap could not be computed. */
  readonly arms: readonly CappedArm[];
  readonly reason: StatsReason | null;
}

/** Computes the pooled cap and applies it to every arm. */
export function capArms(arms: readonly UnitValues[], spec: CapSpec): CappingResult {
  const { cap, reason } = capThreshold(arms, spec);
  if (cap === null) return { cap, arms: [], reason };
  return { cap, arms: arms.map((arm) => capArm(arm, cap)), reason: null };
}
