import { tQuantile, tSf } from './distributions.js';
import { estimateEffect } from './moments.js';
import type { EffectEstimate, MetricDirection, RatioSums, StatsReason } from './types.js';

export interface FrequentistOptions {
  /** Two-sided significance level; default 0.05. */
  readonly alpha?: number;
  /** Which way is good for the metric; only sets `improved`. Default 'higher'. */
  readonly direction?: MetricDirection;
}

export interface FrequentistResult {
  readonly controlMean: number | null;
  readonly variantMean: number | null;
  readonly absoluteLift: number | null;
  readonly relativeLift: number | null;
  /** Confidence interval of the absolute lift. */
  readonly ci: readonly [number, number] | null;
  /** Confidence interval of the relative lift (delta method). */
  readonly relativeCi: readonly [number, number] | null;
  /** Two-sided p-value of H0: absolute lift = 0. */
  readonly pValue: number | null;
  /** Standard error of the absolute lift. */
  readonly se: number | null;
  /** Standard error of the relative lift. */
  readonly relativeSe: number | null;
  /** Degrees of freedom (Welch–Satterthwaite); null for the sequential method, which is asymptotic. */
  readonly df: number | null;
  readonly significant: boolean;
  /** Significant and in the metric's good direction; null when there is no test. */
  readonly improved: boolean | null;
  readonly reason: StatsReason | null;
}

export const DEFAULT_ALPHA = 0.05;

export function isValidAlpha(alpha: number): boolean {
  return Number.isFinite(alpha) && alpha > 0 && alpha < 1;
}

/** The result with only point estimates, for inputs on which no test can be run. */
export function untestedResult(effect: EffectEstimate, reason: StatsReason): FrequentistResult {
  const se = effect.absoluteVariance === null ? null : Math.sqrt(effect.absoluteVariance);
  return {
    controlMean: effect.controlMean,
    variantMean: effect.variantMean,
    absoluteLift: effect.absoluteLift,
    relativeLift: effect.relativeLift,
    ci: null,
    relativeCi: null,
    pValue: null,
    se,
    relativeSe: null,
    df: null,
    significant: false,
    improved: null,
    reason,
  };
}

export function isImproved(significant: boolean, lift: number, direction: MetricDirection = 'higher'): boolean {
  return significant && (direction === 'higher' ? lift > 0 : lift < 0);
}

/**
 * Fixed-horizon Welch t-test on an effect estimate. t = lift/se, two-sided p = 2·P(T_df > |t|),
 * CI = lift ± t_{1−α/2, df}·se with Welch–Satterthwaite df (Welch 1947); identical to
 * scipy.stats.ttest_ind_from_stats(equal_var=False). The relative CI uses the same df with the
 * delta-method standard error, as GrowthBook's gbstats TwoSidedTTest does.
 */
export function fixedHorizonTest(effect: EffectEstimate, options: FrequentistOptions = {}): FrequentistResult {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  if (!isValidAlpha(alpha)) return untestedResult(effect, 'INVALID_INPUT');
  const { absoluteLift, absoluteVariance, df } = effect;
  if (absoluteLift === null || absoluteVariance === null || df === null || !(absoluteVariance > 0)) {
    return untestedResult(effect, effect.reason ?? 'ZERO_VARIANCE');
  }
  const se = Math.sqrt(absoluteVariance);
  const pValue = Math.min(1, 2 * tSf(Math.abs(absoluteLift / se), df));
  const critical = tQuantile(1 - alpha / 2, df);
  const relativeSe = effect.relativeVariance === null ? null : Math.sqrt(effect.relativeVariance);
  return testedResult(
    { ...effect, absoluteLift },
    { pValue, alpha, se, relativeSe, df, halfwidth: critical * se, relativeHalfwidth: relativeSe === null ? null : critical * relativeSe },
    options,
  );
}

/**
 * The result of a test that could run: intervals are the lifts ± their half-widths, which is
 * all that differs between the fixed-horizon and the sequential test.
 */
export function testedResult(
  effect: EffectEstimate & { absoluteLift: number },
  t: {
    pValue: number;
    alpha: number;
    se: number;
    relativeSe: number | null;
    df: number | null;
    halfwidth: number;
    relativeHalfwidth: number | null;
  },
  options: FrequentistOptions,
): FrequentistResult {
  const significant = t.pValue < t.alpha;
  return {
    controlMean: effect.controlMean,
    variantMean: effect.variantMean,
    absoluteLift: effect.absoluteLift,
    relativeLift: effect.relativeLift,
    ci: [effect.absoluteLift - t.halfwidth, effect.absoluteLift + t.halfwidth],
    relativeCi:
      effect.relativeLift === null || t.relativeHalfwidth === null
        ? null
        : [effect.relativeLift - t.relativeHalfwidth, effect.relativeLift + t.relativeHalfwidth],
    pValue: t.pValue,
    se: t.se,
    relativeSe: t.relativeSe,
    df: t.df,
    significant,
    improved: isImproved(significant, effect.absoluteLift, options.direction),
    reason: effect.reason,
  };
}

/** Welch test of a variant against control from each arm's sufficient statistics. */
export function welchTest(control: RatioSums, variant: RatioSums, options: FrequentistOptions = {}): FrequentistResult {
  return fixedHorizonTest(estimateEffect(control, variant), options);
}
