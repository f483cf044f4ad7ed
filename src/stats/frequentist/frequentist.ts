import { DEFAULT_SEQUENTIAL_TUNING, sequentialRho } from '../sequential/confidence-sequence.js';
import { normalQuantile } from '../distributions/distributions.js';
import { basisInterval, basisPValue, type Interval, type IntervalBasis } from './intervals.js';
import { estimateEffect } from './moments.js';
import type { EffectEstimate, MetricDirection, RatioSums, Scale, StatsReason, TestMethod } from '../types.js';

export interface FrequentistOptions {
  /** Two-sided significance level; default 0.05. */
  readonly alpha?: number;
  /** Which way is good for the metric; only sets `improved`. Default 'higher'. */
  readonly direction?: MetricDirection;
  /**
   * The scale of the p-value, the interval, `significant` and `improved`. The legacy entry points
   * (`welchTest`, `fixedHorizonTest`, `sequentialTest`, `sequentialEffectTest`, `cupedTest`) default to
   * 'absolute' so their callers' numbers do not move; `compareArms`/`analyzeEffect` default to 'relative'.
   */
  readonly scale?: Scale;
}

/** The other scale's point estimate: shown for context, never with an interval or a verdict. */
export interface OtherScaleEstimate {
  readonly scale: Scale;
  readonly estimate: number | null;
  /** Why that scale could not carry a verdict (e.g. the control mean is near zero), if it could not. */
  readonly reason: StatsReason | null;
}

/**
 * One comparison on one scale. `estimate`, `interval`, `pValue`, `significant` and `improved` all
 * refer to `scale`: significant ⇔ p < α ⇔ the interval excludes 0. The legacy fields keep their
 * names: `ci`/`se` are filled only on the absolute scale, `relativeCi`/`relativeSe` only on the
 * relative one, so no caller can print one scale's interval next to the other scale's p-value.
 */
export interface FrequentistResult {
  readonly scale: Scale;
  readonly method: TestMethod;
  readonly alpha: number;
  readonly direction: MetricDirection;
  readonly controlMean: number | null;
  readonly variantMean: number | null;
  /** The lift on `scale` (absolute or relative); present even when no test could run. */
  readonly estimate: number | null;
  readonly interval: Interval | null;
  readonly otherScale: OtherScaleEstimate;
  readonly absoluteLift: number | null;
  readonly relativeLift: number | null;
  /** Interval of the absolute lift; null unless scale is 'absolute'. */
  readonly ci: Interval | null;
  /** Interval of the relative lift (delta method or score ratio); null unless scale is 'relative'. */
  readonly relativeCi: Interval | null;
  /** Two-sided p-value of "no difference" on `scale`. */
  readonly pValue: number | null;
  /** Standard error of the absolute lift (absolute scale only; null for score intervals). */
  readonly se: number | null;
  /** Standard error of the relative lift (relative scale only; null for score intervals). */
  readonly relativeSe: number | null;
  /** Welch–Satterthwaite degrees of freedom; null for asymptotic procedures. */
  readonly df: number | null;
  readonly significant: boolean;
  /** Significant and in the metric's good direction; null when there is no test. */
  readonly improved: boolean | null;
  /** How to rebuild the interval at another level (multiple-testing adjustment); null without a test. */
  readonly basis: IntervalBasis | null;
  readonly reason: StatsReason | null;
}

export const DEFAULT_ALPHA = 0.05;

export function isValidAlpha(alpha: number): boolean {
  return Number.isFinite(alpha) && alpha > 0 && alpha < 1;
}

export function isImproved(significant: boolean, lift: number, direction: MetricDirection = 'higher'): boolean {
  return significant && (direction === 'higher' ? lift > 0 : lift < 0);
}

const ABSOLUTE_BLOCKERS: readonly StatsReason[] = ['INVALID_INPUT', 'EMPTY_ARM', 'ZERO_DENOMINATOR', 'TOO_FEW_UNITS', 'ZERO_VARIANCE'];

/** Estimate and variance on one scale, or why that scale cannot carry a test. */
export function scaleInputs(
  effect: EffectEstimate,
  scale: Scale,
  alpha: number,
): { estimate: number; variance: number } | { reason: StatsReason } {
  const { absoluteLift, absoluteVariance } = effect;
  if (effect.reason !== null && ABSOLUTE_BLOCKERS.includes(effect.reason)) return { reason: effect.reason };
  if (absoluteLift === null || absoluteVariance === null) return { reason: effect.reason ?? 'INVALID_INPUT' };
  if (!(absoluteVariance > 0)) return { reason: 'ZERO_VARIANCE' };
  if (scale === 'absolute') return { estimate: absoluteLift, variance: absoluteVariance };
  if (effect.relativeLift === null || effect.relativeVariance === null) return { reason: effect.reason ?? 'ZERO_CONTROL_MEAN' };
  // Fieller: the ratio's confidence set is bounded only if the denominator's own interval excludes 0.
  if (effect.controlMeanZ === null || !(effect.controlMeanZ > normalQuantile(1 - alpha / 2))) return { reason: 'CONTROL_MEAN_NEAR_ZERO' };
  if (!(effect.relativeVariance > 0)) return { reason: 'ZERO_VARIANCE' };
  return { estimate: effect.relativeLift, variance: effect.relativeVariance };
}

function otherScaleOf(effect: EffectEstimate, scale: Scale, alpha: number): OtherScaleEstimate {
  const other: Scale = scale === 'relative' ? 'absolute' : 'relative';
  const inputs = scaleInputs(effect, other, alpha);
  return {
    scale: other,
    estimate: other === 'relative' ? effect.relativeLift : effect.absoluteLift,
    reason: 'reason' in inputs ? inputs.reason : null,
  };
}

interface Resolved {
  readonly alpha: number;
  readonly scale: Scale;
  readonly direction: MetricDirection;
  readonly method: TestMethod;
}

/** The result with point estimates only, for inputs on which no test can run. */
export function untestedResult(effect: EffectEstimate, reason: StatsReason, r: Resolved): FrequentistResult {
  return {
    scale: r.scale,
    method: r.method,
    alpha: r.alpha,
    direction: r.direction,
    controlMean: effect.controlMean,
    variantMean: effect.variantMean,
    estimate: r.scale === 'relative' ? effect.relativeLift : effect.absoluteLift,
    interval: null,
    otherScale: otherScaleOf(effect, r.scale, r.alpha),
    absoluteLift: effect.absoluteLift,
    relativeLift: effect.relativeLift,
    ci: null,
    relativeCi: null,
    pValue: null,
    se: null,
    relativeSe: null,
    df: null,
    significant: false,
    improved: null,
    basis: null,
    reason,
  };
}

/** A tested result: p-value and interval both come from `basis`, so they cannot disagree. */
export function testedResult(
  effect: Pick<EffectEstimate, 'controlMean' | 'variantMean' | 'absoluteLift' | 'relativeLift'>,
  basis: IntervalBasis,
  estimate: number,
  se: number | null,
  r: Resolved,
  otherScale: OtherScaleEstimate,
): FrequentistResult {
  const pValue = basisPValue(basis);
  const interval = basisInterval(basis, r.alpha);
  const significant = interval !== null && pValue < r.alpha;
  const absolute = r.scale === 'absolute';
  return {
    scale: r.scale,
    method: r.method,
    alpha: r.alpha,
    direction: r.direction,
    controlMean: effect.controlMean,
    variantMean: effect.variantMean,
    estimate,
    interval,
    otherScale,
    absoluteLift: effect.absoluteLift,
    relativeLift: effect.relativeLift,
    ci: absolute ? interval : null,
    relativeCi: absolute ? null : interval,
    pValue,
    se: absolute ? se : null,
    relativeSe: absolute ? null : se,
    df: basis.kind === 'welch-t' ? basis.df : null,
    significant,
    improved: isImproved(significant, estimate, r.direction),
    basis,
    reason: null,
  };
}

export interface AnalysisOptions extends FrequentistOptions {
  /** 'fixed' (Welch t, default) or 'sequential' (always-valid confidence sequence). */
  readonly method?: TestMethod;
  /** N* of the confidence sequence: total units at which it is tightest. Default 5000. */
  readonly tuningParameter?: number;
}

/**
 * The one analysis every entry point goes through: the effect's lift on the chosen scale, tested with
 * the chosen method. Fixed: Welch t with Welch–Satterthwaite df (normal when df is unknown, as for
 * quantile differences); the relative scale uses the delta-method standard error with the same df, as
 * gbstats' TwoSidedTTest does. Sequential: asymptotic confidence sequence (see confidence-sequence.ts)
 * with the lift's standard error on the chosen scale and n = units in both arms.
 */
export function analyzeEffect(effect: EffectEstimate, options: AnalysisOptions = {}): FrequentistResult {
  const r: Resolved = {
    alpha: options.alpha ?? DEFAULT_ALPHA,
    scale: options.scale ?? 'relative',
    direction: options.direction ?? 'higher',
    method: options.method ?? 'fixed',
  };
  const tuning = options.tuningParameter ?? DEFAULT_SEQUENTIAL_TUNING;
  if (!isValidAlpha(r.alpha) || !(tuning > 0 && Number.isFinite(tuning))) return untestedResult(effect, 'INVALID_INPUT', r);
  const inputs = scaleInputs(effect, r.scale, r.alpha);
  if ('reason' in inputs) return untestedResult(effect, inputs.reason, r);
  const se = Math.sqrt(inputs.variance);
  const basis: IntervalBasis =
    r.method === 'sequential'
      ? { kind: 'confidence-sequence', estimate: inputs.estimate, se, n: effect.totalUnits, rho: sequentialRho(r.alpha, tuning) }
      : effect.df === null
        ? { kind: 'normal', estimate: inputs.estimate, se }
        : { kind: 'welch-t', estimate: inputs.estimate, se, df: effect.df };
  return testedResult(effect, basis, inputs.estimate, se, r, otherScaleOf(effect, r.scale, r.alpha));
}

/**
 * Fixed-horizon Welch t-test on an effect estimate. On the absolute scale t = lift/se, two-sided
 * p = 2·P(T_df > |t|), CI = lift ± t_{1−α/2, df}·se, identical to
 * scipy.stats.ttest_ind_from_stats(equal_var=False). Legacy entry point: scale defaults to 'absolute'.
 */
export function fixedHorizonTest(effect: EffectEstimate, options: FrequentistOptions = {}): FrequentistResult {
  return analyzeEffect(effect, { ...options, scale: options.scale ?? 'absolute', method: 'fixed' });
}

/** Welch test of a variant against control from each arm's sufficient statistics (scale default 'absolute'). */
export function welchTest(control: RatioSums, variant: RatioSums, options: FrequentistOptions = {}): FrequentistResult {
  return fixedHorizonTest(estimateEffect(control, variant), options);
}

/**
 * Variant against control from each arm's sufficient statistics, on one scale (default 'relative', as
 * GrowthBook) with the chosen method (default fixed). For proportion metrics use `compareProportions`.
 */
export function compareArms(control: RatioSums, variant: RatioSums, options: AnalysisOptions = {}): FrequentistResult {
  return analyzeEffect(estimateEffect(control, variant), options);
}
