/**
 * Always-valid inference by asymptotic confidence sequences: Waudby-Smith, Arnold, Wu, McAuliffe,
 * Ramdas (2021/2023), "Time-uniform central limit theory and asymptotic confidence sequences",
 * arXiv:2103.06476 (two-sided normal-mixture asymptotic confidence sequence). The parameterisation (ρ
 * chosen so the sequence is tightest at N* units, width scaled by the total units in both arms)
 * follows GrowthBook's gbstats sequential t-test, so our intervals agree with theirs.
 */

export const DEFAULT_SEQUENTIAL_TUNING = 5000;

/**
 * Mixing parameter ρ that makes the boundary (approximately) tightest at n = N* (paper's guidance on
 * choosing ρ; same closed form as gbstats): ρ² = (−2·ln α + ln(−2·ln α + 1)) / N*.
 * For a one-sided sequence gbstats (and we) pass 2α.
 */
export function sequentialRho(alpha: number, tuningParameter: number): number {
  const l = -2 * Math.log(alpha);
  return Math.sqrt((l + Math.log(l + 1)) / tuningParameter);
}

/**
 * Half-width of the two-sided asymptotic confidence sequence at time n for an estimator with
 * standard error `se` (per-unit standard deviation σ̂ = se·√n):
 * σ̂ · √( 2(nρ² + 1) / (n²ρ²) · ln(√(nρ² + 1) / α) ).
 */
export function sequentialHalfwidth(se: number, n: number, alpha: number, rho: number): number {
  const nr2 = n * rho * rho;
  return se * Math.sqrt(((2 * (nr2 + 1)) / nr2) * Math.log(Math.sqrt(nr2 + 1) / alpha));
}

/**
 * Always-valid p-value: the smallest α whose confidence sequence excludes 0. Solving
 * halfwidth = |lift| for α gives p = √(nρ² + 1) · exp(−z²·nρ² / (2(nρ² + 1))) with z = lift/se,
 * the reciprocal of the mixture e-value (gbstats cites eq. 155 of arXiv v7 for the same quantity).
 */
export function sequentialPValue(z: number, n: number, rho: number): number {
  const nr2 = n * rho * rho;
  return Math.min(1, Math.sqrt(nr2 + 1) * Math.exp((-z * z * nr2) / (2 * (nr2 + 1))));
}

/**
 * One-sided normal-mixture boundary (Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform,
 * nonparametric, nonasymptotic confidence sequences", Ann. Statist., eq. (14); the closed form
 * gbstats uses for its one-sided sequential tests), as a distance from the estimate:
 * σ̂ · √( 2(nρ² + 1)/(n²ρ²) · ln(1 + √(nρ² + 1)/(2α)) ), with ρ from `sequentialRho(2α, N*)`.
 */
export function sequentialOneSidedHalfwidth(se: number, n: number, alpha: number, rho: number): number {
  const nr2 = n * rho * rho;
  return se * Math.sqrt(((2 * (nr2 + 1)) / nr2) * Math.log(1 + Math.sqrt(nr2 + 1) / (2 * alpha)));
}

/**
 * The α at which the one-sided bound sits exactly `distance` standard errors from the estimate
 * (distance > 0 means the data are on the rejecting side): solving the boundary above for α,
 * p = √(nρ² + 1) / (2·(exp(d²·nρ²/(2(nρ² + 1))) − 1)). The boundary is defined for α < 1/2 only, so
 * a solution ≥ 1/2 (or distance ≤ 0: the data lie on the other side) is reported as 1.
 */
export function sequentialOneSidedPValue(distance: number, n: number, rho: number): number {
  if (!(distance > 0)) return 1;
  const nr2 = n * rho * rho;
  const exponent = (distance * distance * nr2) / (2 * (nr2 + 1));
  const p = Math.sqrt(nr2 + 1) / (2 * Math.expm1(exponent));
  return p < 0.5 ? p : 1;
}
