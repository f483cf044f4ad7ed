import { normalCdf, normalPdf, normalQuantile } from './distributions.js';
import { estimateEffect } from './moments.js';
import type { EffectEstimate, MetricDirection, RatioSums, StatsReason } from './types.js';

/**
 * Bayesian read-out on relative lift with a normal approximation, like GrowthBook's
 * EffectBayesianABTest (gbstats/bayesian/tests.py): the likelihood of the relative lift L is
 * N(r̂, v̂) from the delta method; with a proper prior N(μ₀, τ²) the posterior is
 * N((r̂/v̂ + μ₀/τ²)/P, 1/P) with P = 1/v̂ + 1/τ²; with the improper (flat) prior it is N(r̂, v̂).
 */

export interface GaussianPrior {
  readonly mean: number;
  readonly stdDev: number;
}

/** GrowthBook's default proper prior on relative lift: N(0, 0.3²). */
export const DEFAULT_PROPER_PRIOR: GaussianPrior = { mean: 0, stdDev: 0.3 };

export interface BayesianOptions {
  /** 'improper' (flat, the default, as in GrowthBook) or a proper normal prior on relative lift. */
  readonly prior?: 'improper' | GaussianPrior;
  readonly direction?: MetricDirection;
  /** Credible interval is the central 1 − alpha interval. Default 0.05. */
  readonly alpha?: number;
}

export interface BayesianResult {
  /** Posterior mean of the relative lift. */
  readonly expectedLift: number | null;
  readonly posteriorStdDev: number | null;
  readonly credibleInterval: readonly [number, number] | null;
  /** P(variant is better than control), respecting the metric's direction. */
  readonly chanceToBeatControl: number | null;
  /**
   * Expected loss in relative-lift units (GrowthBook's "risk"): `control` is what shipping control
   * costs if the variant is in fact better, `variant` what shipping the variant costs if it is worse.
   */
  readonly risk: { readonly control: number; readonly variant: number } | null;
  readonly reason: StatsReason | null;
}

/**
 * E[max(0, L)] and E[max(0, −L)] for L ~ N(μ, σ²): μΦ(μ/σ) + σφ(μ/σ) and −μΦ(−μ/σ) + σφ(μ/σ).
 * Same quantity as gbstats' P(L>0)·E[L | L>0] via the truncated normal mean, in closed form.
 */
export function normalExpectedPositivePart(mu: number, sigma: number): [number, number] {
  const z = mu / sigma;
  const density = sigma * normalPdf(z);
  return [mu * normalCdf(z) + density, -mu * normalCdf(-z) + density];
}

export function bayesianEffectTest(effect: EffectEstimate, options: BayesianOptions = {}): BayesianResult {
  const alpha = options.alpha ?? 0.05;
  const prior = options.prior ?? 'improper';
  const empty = (reason: StatsReason): BayesianResult => ({
    expectedLift: null,
    posteriorStdDev: null,
    credibleInterval: null,
    chanceToBeatControl: null,
    risk: null,
    reason,
  });
  if (!(alpha > 0 && alpha < 1) || (prior !== 'improper' && !(prior.stdDev > 0 && Number.isFinite(prior.mean)))) {
    return empty('INVALID_INPUT');
  }
  const { relativeLift, relativeVariance } = effect;
  if (relativeLift === null || relativeVariance === null) {
    return empty(effect.reason ?? (effect.absoluteLift === null ? 'INVALID_INPUT' : 'ZERO_CONTROL_MEAN'));
  }
  if (!(relativeVariance > 0)) return empty('ZERO_VARIANCE');
  let mean = relativeLift;
  let variance = relativeVariance;
  if (prior !== 'improper') {
    const priorVariance = prior.stdDev * prior.stdDev;
    const precision = 1 / relativeVariance + 1 / priorVariance;
    mean = (relativeLift / relativeVariance + prior.mean / priorVariance) / precision;
    variance = 1 / precision;
  }
  const sd = Math.sqrt(variance);
  const z = normalQuantile(1 - alpha / 2);
  const [upside, downside] = normalExpectedPositivePart(mean, sd);
  const higher = (options.direction ?? 'higher') === 'higher';
  return {
    expectedLift: mean,
    posteriorStdDev: sd,
    credibleInterval: [mean - z * sd, mean + z * sd],
    chanceToBeatControl: higher ? normalCdf(mean / sd) : normalCdf(-mean / sd),
    // For a lower-is-better metric a positive lift is the loss, so the two risks swap.
    risk: higher ? { control: upside, variant: downside } : { control: downside, variant: upside },
    reason: null,
  };
}

/** Bayesian comparison of a variant against control from each arm's sufficient statistics. */
export function bayesianTest(control: RatioSums, variant: RatioSums, options: BayesianOptions = {}): BayesianResult {
  return bayesianEffectTest(estimateEffect(control, variant), options);
}
