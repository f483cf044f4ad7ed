import normalCdfStdlib from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantileStdlib from '@stdlib/stats-base-dists-normal-quantile';
import tCdfStdlib from '@stdlib/stats-base-dists-t-cdf';
import tQuantileStdlib from '@stdlib/stats-base-dists-t-quantile';

/** Standard normal CDF Φ(x). */
export function normalCdf(x: number): number {
  return normalCdfStdlib(x, 0, 1);
}

/** Standard normal survival function 1 − Φ(x), computed as Φ(−x) to avoid cancellation in the tail. */
export function normalSf(x: number): number {
  return normalCdfStdlib(-x, 0, 1);
}

/** Standard normal density φ(x). */
export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

/** Standard normal quantile Φ⁻¹(p). */
export function normalQuantile(p: number): number {
  return normalQuantileStdlib(p, 0, 1);
}

/** Student t CDF with `df` degrees of freedom (df may be fractional, as Welch–Satterthwaite gives). */
export function tCdf(x: number, df: number): number {
  return tCdfStdlib(x, df);
}

/** Student t survival function, via symmetry F(−x) so tiny p-values keep their precision. */
export function tSf(x: number, df: number): number {
  return tCdfStdlib(-x, df);
}

/** Student t quantile. */
export function tQuantile(p: number, df: number): number {
  return tQuantileStdlib(p, df);
}

/**
 * Chi-square survival function P(χ²_k > x) for integer k ≥ 1, in closed form
 * (Abramowitz & Stegun 26.4.4 for odd k, 26.4.5 for even k) instead of 1 − CDF, so that the
 * very small p-values of a badly broken split are exact rather than rounded to 0 by cancellation.
 * Every term is positive and computed in log space, so large x underflows gracefully to 0.
 */
export function chiSquareSf(x: number, k: number): number {
  if (!Number.isInteger(k) || k < 1) return Number.NaN;
  if (!(x > 0)) return 1;
  const halfX = x / 2;
  let total = 0;
  if (k % 2 === 0) {
    // Q = e^{-x/2} Σ_{j=0}^{k/2-1} (x/2)^j / j!
    let logTerm = -halfX;
    for (let j = 0; j < k / 2; j += 1) {
      if (j > 0) logTerm += Math.log(halfX) - Math.log(j);
      total += Math.exp(logTerm);
    }
  } else {
    // Q = 2 Q_N(√x) + 2 φ(√x) Σ_{r=1}^{(k-1)/2} x^{r-1/2} / (1·3·…·(2r-1))
    const chi = Math.sqrt(x);
    total = 2 * normalSf(chi);
    let logTerm = -halfX - 0.5 * Math.log(2 * Math.PI) + Math.log(chi);
    for (let r = 1; r <= (k - 1) / 2; r += 1) {
      if (r > 1) logTerm += Math.log(x) - Math.log(2 * r - 1);
      total += 2 * Math.exp(logTerm);
    }
  }
  return Math.min(1, total);
}
