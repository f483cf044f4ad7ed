import {
  DEFAULT_SEQUENTIAL_TUNING,
  sequentialOneSidedHalfwidth,
  sequentialOneSidedPValue,
  sequentialRho,
} from '../sequential/confidence-sequence.js';
import { normalQuantile, normalSf, tQuantile, tSf } from '../distributions/distributions.js';
import { DEFAULT_ALPHA, isValidAlpha, scaleInputs } from '../frequentist/frequentist.js';
import type { Interval } from '../frequentist/intervals.js';
import { estimateEffect, proportionSums } from '../frequentist/moments.js';
import { invalidProportions, scoreBounds, scoreOneSidedPValue, type TwoProportions } from '../frequentist/score.js';
import type { EffectEstimate, MetricDirection, RatioSums, Scale, StatsReason, TestMethod } from '../types.js';

/**
 * Guardrails: one-sided non-inferiority tests. A guardrail metric (abandonment rate, time to click)
 * must not get worse than `margin` on the chosen scale. Two one-sided tests at level α each, whose
 * bounds together form a (1 − 2α) interval, so at most one can fire:
 * - passed: H0 "worse by at least the margin" is rejected: the harmful-side (1 − α) bound is inside
 *   the margin (non-inferiority shown);
 * - breached: H0 "worse by at most the margin" is rejected: the other (1 − α) bound is beyond the
 *   margin (the harm is confidently larger than tolerated); with margin 0 this is "significantly worse";
 * - inconclusive: neither.
 * Fixed: Welch t (score method for proportions); sequential: the one-sided normal-mixture confidence
 * sequence (Howard et al. 2021; gbstats' one-sided sequential test), valid under continuous monitoring.
 * Guardrails are reported apart from target metrics and are not part of their multiple-testing family.
 */

export interface GuardrailSpec {
  /** Which way is good for the metric. */
  readonly direction: MetricDirection;
  /** Largest tolerated degradation (≥ 0) on the chosen scale: relative 0.02 = 2 %, absolute in metric units. */
  readonly margin: number;
}

export interface GuardrailOptions {
  readonly scale?: Scale;
  readonly method?: TestMethod;
  /** One-sided level of each test; default 0.05. */
  readonly alpha?: number;
  readonly tuningParameter?: number;
}

export type GuardrailStatus = 'passed' | 'breached' | 'inconclusive';

export interface GuardrailResult {
  readonly scale: Scale;
  readonly method: TestMethod;
  readonly alpha: number;
  readonly direction: MetricDirection;
  readonly margin: number;
  /** The lift on `scale` (variant − control, or relative to |control|). */
  readonly estimate: number | null;
  /** The lift value the margin corresponds to: −margin for higher-is-better, +margin for lower-is-better. */
  readonly threshold: number;
  /** One-sided (1 − α) lower and upper confidence bounds of the lift (each valid alone). */
  readonly bounds: Interval | null;
  /** p-value of the non-inferiority test; passed ⇔ < α ⇔ the harmful-side bound is inside the margin. */
  readonly nonInferiorityPValue: number | null;
  /** p-value of "worse by at most the margin"; breached ⇔ < α ⇔ the other bound is beyond the margin. */
  readonly breachPValue: number | null;
  readonly status: GuardrailStatus | null;
  readonly reason: StatsReason | null;
}

interface Resolved {
  readonly scale: Scale;
  readonly method: TestMethod;
  readonly alpha: number;
  readonly tuning: number;
}

function resolve(options: GuardrailOptions): Resolved {
  return {
    scale: options.scale ?? 'relative',
    method: options.method ?? 'fixed',
    alpha: options.alpha ?? DEFAULT_ALPHA,
    tuning: options.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING,
  };
}

function invalidSpec(spec: GuardrailSpec, r: Resolved): boolean {
  const marginOk = Number.isFinite(spec.margin) && spec.margin >= 0;
  // A relative margin of 100 % or more on a higher-is-better metric would tolerate a ratio ≤ 0.
  const relativeOk = !(r.scale === 'relative' && spec.direction === 'higher' && spec.margin >= 1);
  // One-sided sequential bounds need α < 0.5 (gbstats refuses the same).
  const alphaOk = isValidAlpha(r.alpha) && r.alpha < 0.5;
  return !(marginOk && relativeOk && alphaOk && r.tuning > 0 && Number.isFinite(r.tuning));
}

function build(
  spec: GuardrailSpec,
  r: Resolved,
  estimate: number | null,
  test: { bounds: Interval; nonInferiorityPValue: number; breachPValue: number } | StatsReason,
): GuardrailResult {
  const threshold = spec.direction === 'higher' ? -spec.margin : spec.margin;
  const base = { scale: r.scale, method: r.method, alpha: r.alpha, direction: spec.direction, margin: spec.margin, estimate, threshold };
  if (typeof test === 'string') {
    return { ...base, bounds: null, nonInferiorityPValue: null, breachPValue: null, status: null, reason: test };
  }
  const passed = test.nonInferiorityPValue < r.alpha;
  const breached = test.breachPValue < r.alpha;
  const status: GuardrailStatus = passed ? 'passed' : breached ? 'breached' : 'inconclusive';
  return { ...base, ...test, status, reason: null };
}

/**
 * Guardrail test on an effect estimate. With s = +1 for higher-is-better (−1 otherwise) and
 * d = s·(lift − threshold)/se, the non-inferiority p-value is P(T ≥ d) and the breach p-value P(T ≤ d)
 * (t with Welch df, normal without df); sequentially, the one-sided mixture boundary's p-values.
 */
export function guardrailEffectTest(effect: EffectEstimate, spec: GuardrailSpec, options: GuardrailOptions = {}): GuardrailResult {
  const r = resolve(options);
  const lift = r.scale === 'relative' ? effect.relativeLift : effect.absoluteLift;
  if (invalidSpec(spec, r)) return build(spec, r, lift, 'INVALID_INPUT');
  const inputs = scaleInputs(effect, r.scale, r.alpha);
  if ('reason' in inputs) return build(spec, r, lift, inputs.reason);
  const { estimate } = inputs;
  const se = Math.sqrt(inputs.variance);
  const s = spec.direction === 'higher' ? 1 : -1;
  const threshold = -s * spec.margin;
  const d = (s * (estimate - threshold)) / se;
  if (r.method === 'sequential') {
    const rho = sequentialRho(2 * r.alpha, r.tuning);
    const n = effect.totalUnits;
    const halfwidth = sequentialOneSidedHalfwidth(se, n, r.alpha, rho);
    return build(spec, r, estimate, {
      bounds: [estimate - halfwidth, estimate + halfwidth],
      nonInferiorityPValue: sequentialOneSidedPValue(d, n, rho),
      breachPValue: sequentialOneSidedPValue(-d, n, rho),
    });
  }
  const df = effect.df;
  const sf = (x: number): number => (df === null ? normalSf(x) : tSf(x, df));
  const critical = df === null ? normalQuantile(1 - r.alpha) : tQuantile(1 - r.alpha, df);
  return build(spec, r, estimate, {
    bounds: [estimate - critical * se, estimate + critical * se],
    nonInferiorityPValue: sf(d),
    breachPValue: sf(-d),
  });
}

/** Guardrail test from each arm's sufficient statistics. */
export function guardrailTest(
  control: RatioSums,
  variant: RatioSums,
  spec: GuardrailSpec,
  options: GuardrailOptions = {},
): GuardrailResult {
  return guardrailEffectTest(estimateEffect(control, variant), spec, options);
}

/**
 * Guardrail on a proportion metric. Fixed: one-sided Miettinen–Nurminen score tests at the margin
 * (difference, or ratio 1 ∓ margin on the relative scale) and the bounds that invert them, so the
 * verdict and the bounds agree and zero cells are handled; sequential: the confidence sequence on sums.
 */
export function guardrailProportions(
  successesControl: number,
  nControl: number,
  successesVariant: number,
  nVariant: number,
  spec: GuardrailSpec,
  options: GuardrailOptions = {},
): GuardrailResult {
  const r = resolve(options);
  const effect = estimateEffect(proportionSums(successesControl, nControl), proportionSums(successesVariant, nVariant));
  if (r.method === 'sequential') return guardrailEffectTest(effect, spec, options);
  const counts: TwoProportions = { successesControl, nControl, successesVariant, nVariant };
  const lift = r.scale === 'relative' ? effect.relativeLift : effect.absoluteLift;
  if (invalidSpec(spec, r) || invalidProportions(counts)) return build(spec, r, lift, 'INVALID_INPUT');
  if (nControl === 0 || nVariant === 0) return build(spec, r, lift, 'EMPTY_ARM');
  if (nControl < 2 || nVariant < 2) return build(spec, r, lift, 'TOO_FEW_UNITS');
  if (r.scale === 'relative' && successesControl === 0) return build(spec, r, lift, 'ZERO_CONTROL_MEAN');
  const s = spec.direction === 'higher' ? 1 : -1;
  const compare = r.scale === 'absolute' ? 'diff' : 'ratio';
  const shift = compare === 'diff' ? 0 : 1;
  const nullValue = shift - s * spec.margin;
  const bounds = scoreBounds(counts, compare, r.alpha);
  if (bounds === null) return build(spec, r, lift, 'ZERO_CONTROL_MEAN');
  const good = s > 0 ? 'greater' : 'less';
  const bad = s > 0 ? 'less' : 'greater';
  return build(spec, r, lift, {
    bounds: [bounds[0] - shift, bounds[1] - shift],
    nonInferiorityPValue: scoreOneSidedPValue(counts, compare, nullValue, good),
    breachPValue: scoreOneSidedPValue(counts, compare, nullValue, bad),
  });
}
