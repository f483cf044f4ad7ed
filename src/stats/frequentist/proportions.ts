import { normalCdf } from '../distributions/distributions.js';
import {
  DEFAULT_ALPHA,
  analyzeEffect,
  isValidAlpha,
  testedResult,
  untestedResult,
  type AnalysisOptions,
  type FrequentistResult,
} from './frequentist.js';
import { estimateEffect, proportionSums } from './moments.js';
import { invalidProportions, type TwoProportions } from './score.js';
import type { Scale, StatsReason } from '../types.js';

export interface ProportionsZResult {
  readonly z: number | null;
  readonly pValue: number | null;
  readonly reason: string | null;
}

/**
 * Two-sample z-test of proportions (variant − control), two-sided. Pooled variance
 * p̄(1 − p̄)(1/n_A + 1/n_B) under H0, as statsmodels' proportions_ztest does by default; with
 * `pooled: false` the unpooled Wald variance p_A(1−p_A)/n_A + p_B(1−p_B)/n_B is used
 * (statsmodels test_proportions_2indep(method='wald')). The Welch test on `proportionSums`
 * is the analysis the service reports; this is the textbook cross-check.
 */
export function proportionsZTest(
  successesControl: number,
  nControl: number,
  successesVariant: number,
  nVariant: number,
  options: { pooled?: boolean } = {},
): ProportionsZResult {
  if (!(nControl > 0 && nVariant > 0)) return { z: null, pValue: null, reason: 'EMPTY_ARM' };
  const pA = successesControl / nControl;
  const pB = successesVariant / nVariant;
  let variance: number;
  if (options.pooled ?? true) {
    const p = (successesControl + successesVariant) / (nControl + nVariant);
    variance = p * (1 - p) * (1 / nControl + 1 / nVariant);
  } else {
    variance = (pA * (1 - pA)) / nControl + (pB * (1 - pB)) / nVariant;
  }
  if (!(variance > 0)) return { z: null, pValue: null, reason: 'ZERO_VARIANCE' };
  const z = (pB - pA) / Math.sqrt(variance);
  return { z, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z))), reason: null };
}

/**
 * A proportion metric (each unit converts or not), variant against control, on one scale.
 * Fixed horizon: Miettinen–Nurminen score test and the interval that inverts it, on the difference
 * (absolute scale) or the ratio (relative scale, reported as ratio − 1); valid with zero cells and
 * small counts, where the Welch/Wald variance of an arm with 0 or n conversions is 0. Sequential: the
 * asymptotic confidence sequence on the sums (an arm with zero variance gets `ZERO_VARIANCE`).
 */
export function compareProportions(
  successesControl: number,
  nControl: number,
  successesVariant: number,
  nVariant: number,
  options: AnalysisOptions = {},
): FrequentistResult {
  const counts: TwoProportions = { successesControl, nControl, successesVariant, nVariant };
  const effect = estimateEffect(proportionSums(successesControl, nControl), proportionSums(successesVariant, nVariant));
  if ((options.method ?? 'fixed') === 'sequential') return analyzeEffect(effect, options);
  const r = {
    alpha: options.alpha ?? DEFAULT_ALPHA,
    scale: options.scale ?? 'relative',
    direction: options.direction ?? 'higher',
    method: 'fixed',
  } as const;
  const blockedOn = (scale: Scale): StatsReason | null =>
    invalidProportions(counts) || !isValidAlpha(r.alpha)
      ? 'INVALID_INPUT'
      : nControl === 0 || nVariant === 0
        ? 'EMPTY_ARM'
        : nControl < 2 || nVariant < 2
          ? 'TOO_FEW_UNITS'
          : scale === 'relative' && successesControl === 0
            ? 'ZERO_CONTROL_MEAN'
            : null;
  const pA = successesControl / nControl;
  const pB = successesVariant / nVariant;
  const defined = Number.isFinite(pA) && Number.isFinite(pB) && !invalidProportions(counts);
  const lifts = defined ? { absoluteLift: pB - pA, relativeLift: pA > 0 ? pB / pA - 1 : null } : { absoluteLift: null, relativeLift: null };
  const other: Scale = r.scale === 'absolute' ? 'relative' : 'absolute';
  const otherScale = { scale: other, estimate: other === 'absolute' ? lifts.absoluteLift : lifts.relativeLift, reason: blockedOn(other) };
  const blocked = blockedOn(r.scale);
  if (blocked !== null) return { ...untestedResult(effect, blocked, r), otherScale };
  const estimate = (r.scale === 'absolute' ? lifts.absoluteLift : lifts.relativeLift) as number;
  const basis = { kind: 'score', compare: r.scale === 'absolute' ? 'diff' : 'ratio', counts } as const;
  return testedResult({ controlMean: pA, variantMean: pB, ...lifts }, basis, estimate, null, r, otherScale);
}
