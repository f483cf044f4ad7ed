/**
 * Sufficient statistics of one arm for a ratio metric, summed over analysis units (sessions).
 * X is the per-unit numerator (e.g. clicks in the session), Y the per-unit denominator
 * (e.g. queries in the session). For a plain per-session mean or a proportion of sessions,
 * Y = 1 for every unit, so sumY = sumY2 = n and sumXY = sumX (see `meanSums`, `proportionSums`).
 * Every field is one SUM/COUNT aggregate in SQL, so a result costs O(units), never raw events.
 */
export interface RatioSums {
  readonly n: number;
  readonly sumX: number;
  readonly sumY: number;
  readonly sumX2: number;
  readonly sumY2: number;
  readonly sumXY: number;
}

/**
 * Ratio sums plus a pre-experiment covariate for CUPED. The covariate is itself a ratio C/D per
 * unit (e.g. pre-period clicks / pre-period queries); for a plain covariate leave the D fields out
 * and D = 1 per unit is assumed. All cross products with the metric's X and Y are needed because
 * CUPED regresses the metric's delta-method linearisation on the covariate's.
 */
export interface CupedSums extends RatioSums {
  readonly sumC: number;
  readonly sumC2: number;
  readonly sumXC: number;
  readonly sumYC: number;
  /** Covariate denominator; all five D fields default to D = 1 per unit when sumD is absent. */
  readonly sumD?: number;
  readonly sumD2?: number;
  readonly sumXD?: number;
  readonly sumYD?: number;
  readonly sumCD?: number;
}

/**
 * Why a result field is null. Closed list so callers can map it to a message.
 * - `ZERO_VARIANCE`: an arm's per-unit variance is zero (all units equal, e.g. no conversions yet);
 *   the normal approximation says nothing then, so no test is run (as gbstats does).
 * - `CONTROL_MEAN_NEAR_ZERO`: the control mean is not bounded away from zero (its own interval
 *   contains 0: Fieller's condition fails), so a relative lift has no finite interval.
 * - `INVALID_INPUT`: sums no data can produce (Σx² < (Σx)²/n beyond rounding), NaN, bad options.
 */
export type StatsReason =
  'EMPTY_ARM' | 'TOO_FEW_UNITS' | 'ZERO_DENOMINATOR' | 'ZERO_VARIANCE' | 'ZERO_CONTROL_MEAN' | 'CONTROL_MEAN_NEAR_ZERO' | 'INVALID_INPUT';

/**
 * The one scale every verdict of a comparison refers to: `absolute` = variant − control,
 * `relative` = (variant − control) / |control| (delta method). GrowthBook's default is relative.
 */
export type Scale = 'relative' | 'absolute';

export type TestMethod = 'fixed' | 'sequential';

export type MetricDirection = 'higher' | 'lower';

/**
 * The estimated difference between a variant and control, with its sampling variance, before any
 * test is applied. Frequentist, sequential and Bayesian analyses all start from this object, so the
 * unadjusted and CUPED paths share one implementation of each test.
 */
export interface EffectEstimate {
  /** Control and variant metric values (CUPED-adjusted when produced by the CUPED estimator). */
  readonly controlMean: number | null;
  readonly variantMean: number | null;
  readonly absoluteLift: number | null;
  /** Variance of absoluteLift: v_A/n_A + v_B/n_B. */
  readonly absoluteVariance: number | null;
  /**
   * (variant − control)/|control|, against the unadjusted control mean. Dividing by the absolute
   * value (as gbstats does) keeps the sign meaning "better/worse" like the absolute lift when the
   * control mean is negative.
   */
  readonly relativeLift: number | null;
  /** Delta-method variance of relativeLift. */
  readonly relativeVariance: number | null;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number | null;
  /** Units in both arms; the sequential method's "time". */
  readonly totalUnits: number;
  /**
   * |Ā|/se(Ā) for the unadjusted control mean Ā, the relative lift's denominator: a relative interval
   * is built only when this exceeds the critical value, i.e. when Ā's own interval excludes 0
   * (Fieller's condition for a bounded confidence set of a ratio). Null when it cannot be computed.
   */
  readonly controlMeanZ: number | null;
  /** First reason a field above is null (absolute fields null ⇒ relative null too). */
  readonly reason: StatsReason | null;
}
