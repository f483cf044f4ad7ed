import { normalCdf, normalPdf, normalQuantile } from '../distributions/distributions.js';
import { scaleInputs } from '../frequentist/frequentist.js';
import { estimateEffect } from '../frequentist/moments.js';
import type { EffectEstimate, MetricDirection, RatioSums, Scale, StatsReason } from '../types.js';

/**
 * Bayesian read-out with a normal approximation, like GrowthBook's EffectBayesianABTest
 * (gbstats/bayesian/tests.py), on the same scale as the frequentist result: the likelihood of the
 * lift L (relative by default, or absolute) is N(l̂, v̂) from the delta method; with a proper prior
 * N(μ₀, τ²) on that scale the posterior is N((l̂/v̂ + μ₀/τ²)/P, 1/P) with P = 1/v̂ + 1/τ²; with the
 * improper (flat) prior it is N(l̂, v̂). The relative scale needs a control mean bounded away from 0
 * (`CONTROL_MEAN_NEAR_ZERO` otherwise) and every scale needs both arms to have variance.
 */

export interface GaussianPrior {
  readonly mean: number;
  readonly stdDev: number;
}

/** GrowthBook's default proper prior on relative lift: N(0, 0.3²). */
export const DEFAULT_PROPER_PRIOR: GaussianPrior = { mean: 0, stdDev: 0.3 };

export interface BayesianOptions {
  /**
   * 'improper' (flat, the default, as in GrowthBook) or a proper normal prior on the lift, in the
   * units of `scale` (a relative prior of stdDev 0.3 means ±30 %; an absolute one is in metric units).
   */
  readonly prior?: 'improper' | GaussianPrior;
  /** The scale of the posterior: 'relative' (default, as before and as gbstats) or 'absolute'. */
  readonly scale?: Scale;
  readonly direction?: MetricDirection;
  /** Credible interval is the central 1 − alpha interval. Default 0.05. */
  readonly alpha?: number;
}

export interface BayesianResult {
  readonly scale: Scale;
  /** Posterior mean of the lift on `scale`. */
  readonly expectedLift: number | null;
  readonly posteriorStdDev: number | null;
  readonly credibleInterval: readonly [number, number] | null;
  /** P(variant is better than control), respecting the metric's direction. */
  readonly chanceToBeatControl: number | null;
  /**
   * Expected loss in lift units of `scale` (GrowthBook's "risk"): `control` is what shipping control
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
  const scale = options.scale ?? 'relative';
  const empty = (reason: StatsReason): BayesianResult => ({
    scale,
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
  // The same gate as the frequentist result on this scale: no posterior where no interval exists.
  const inputs = scaleInputs(effect, scale, alpha);
  if ('reason' in inputs) return empty(inputs.reason);
  let mean = inputs.estimate;
  let variance = inputs.variance;
  if (prior !== 'improper') {
    const priorVariance = prior.stdDev * prior.stdDev;
    const precision = 1 / inputs.variance + 1 / priorVariance;
    mean = (inputs.estimate / inputs.variance + prior.mean / priorVariance) / precision;
    variance = 1 / precision;
  }
  const sd = Math.sqrt(variance);
  const z = normalQuantile(1 - alpha / 2);
  const [upside, downside] = normalExpectedPositivePart(mean, sd);
  const higher = (options.direction ?? 'higher') === 'higher';
  return {
    scale,
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
