/**
 * Exact binomial tails, the two-sided binomial test at p0 = ½ (the sign test) and the
 * Clopper–Pearson interval, without a dependency: the tails are regularised incomplete beta
 * functions evaluated by their continued fraction, with the leading binomial term computed by
 * Loader's saddle-point method (C. Loader 2000, "Fast and accurate computation of binomial
 * probabilities"; the algorithm behind R's dbinom and Boost's ibeta prefix), so tails keep full
 * relative precision far out (1e-300) and for n in the millions. Checked against scipy.stats
 * binom/binomtest/beta (test/fixtures/stats/binomial.json).
 */

const LN_2PI = Math.log(2 * Math.PI);

/** ln(n!) − [(n + ½)ln n − n + ½ln 2π] for small n, from exact factorials (n! is exact in a double up to 18!). */
const SMALL_STIRLING_ERRORS: readonly number[] = (() => {
  const out = [0];
  let factorial = 1;
  for (let n = 1; n <= 15; n += 1) {
    factorial *= n;
    out.push(Math.log(factorial) - ((n + 0.5) * Math.log(n) - n + 0.5 * LN_2PI));
  }
  return out;
})();

/** Stirling's error term δ(n) = ln n! − ln(√(2πn)(n/e)ⁿ); asymptotic series beyond 15 (Loader, eq. 3). */
function stirlingError(n: number): number {
  if (n <= 15) return SMALL_STIRLING_ERRORS[n] ?? 0;
  const nn = n * n;
  const S0 = 1 / 12;
  const S1 = 1 / 360;
  const S2 = 1 / 1260;
  const S3 = 1 / 1680;
  const S4 = 1 / 1188;
  if (n > 500) return (S0 - S1 / nn) / n;
  if (n > 80) return (S0 - (S1 - S2 / nn) / nn) / n;
  if (n > 35) return (S0 - (S1 - (S2 - S3 / nn) / nn) / nn) / n;
  return (S0 - (S1 - (S2 - (S3 - S4 / nn) / nn) / nn) / nn) / n;
}

/** Deviance term x·ln(x/m) + m − x, by a series when x ≈ m to avoid cancellation (Loader, eq. 5). */
function devianceTerm(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    let v = (x - m) / (x + m);
    let sum = (x - m) * v;
    let term = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j += 1) {
      term *= v;
      const next = sum + term / (2 * j + 1);
      if (next === sum) return next;
      sum = next;
    }
    return sum;
  }
  return x * Math.log(x / m) + m - x;
}

/** P(X = k) for X ~ Binomial(n, p), relative precision ~1e-15 for every k. */
export function binomialPmf(k: number, n: number, p: number): number {
  if (!Number.isInteger(k) || k < 0 || k > n) return 0;
  const q = 1 - p;
  if (p === 0) return k === 0 ? 1 : 0;
  if (q === 0) return k === n ? 1 : 0;
  if (k === 0) return Math.exp(p < 0.1 ? -devianceTerm(n, n * q) - n * p : n * Math.log(q));
  if (k === n) return Math.exp(q < 0.1 ? -devianceTerm(n, n * p) - n * q : n * Math.log(p));
  const lc = stirlingError(n) - stirlingError(k) - stirlingError(n - k) - devianceTerm(k, n * p) - devianceTerm(n - k, n * q);
  const lf = LN_2PI + Math.log(k) + Math.log1p(-k / n);
  return Math.exp(lc - 0.5 * lf);
}

/**
 * Continued fraction of the incomplete beta function (Numerical Recipes §6.4, modified Lentz),
 * converging fast for x < (a + 1)/(a + b + 2); O(√max(a, b)) terms.
 */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100_000; m += 1) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** Both tails at k, each computed directly when it is the small side so neither loses precision. */
function tails(k: number, n: number, p: number): { atMost: number; atLeast: number } {
  // P(X ≥ k) = I_p(k, n − k + 1) = pmf(k)·(1 − p)·CF(k, n − k + 1, p), and
  // P(X ≤ k − 1) = I_{1−p}(n − k + 1, k) = pmf(k − 1)·p·CF(n − k + 1, k, 1 − p).
  if (k <= 0) return { atMost: k < 0 ? 0 : binomialPmf(0, n, p), atLeast: 1 };
  if (k > n) return { atMost: 1, atLeast: 0 };
  const a = k;
  const b = n - k + 1;
  if (p < (a + 1) / (a + b + 2)) {
    const upper = binomialPmf(k, n, p) * (1 - p) * betaContinuedFraction(a, b, p);
    return { atMost: 1 - upper + binomialPmf(k, n, p), atLeast: upper };
  }
  const below = binomialPmf(k - 1, n, p) * p * betaContinuedFraction(b, a, 1 - p);
  return { atMost: below + binomialPmf(k, n, p), atLeast: 1 - below };
}

/** P(X ≤ k), X ~ Binomial(n, p) (scipy.stats.binom.cdf). */
export function binomialCdf(k: number, n: number, p: number): number {
  return Math.min(1, Math.max(0, tails(Math.floor(k), n, p).atMost));
}

/** P(X ≥ k), X ~ Binomial(n, p) (scipy.stats.binom.sf(k − 1)). */
export function binomialAtLeast(k: number, n: number, p: number): number {
  return Math.min(1, Math.max(0, tails(Math.ceil(k), n, p).atLeast));
}

/**
 * Two-sided exact binomial test of H0: p = ½, as scipy.stats.binomtest(k, n, 0.5). Under a
 * symmetric null, scipy's rule (sum the probabilities of outcomes no more likely than k) is
 * twice the smaller tail, capped at 1 — exactly the test the Clopper–Pearson interval inverts.
 */
export function signTestPValue(k: number, n: number): number {
  if (n === 0) return 1;
  return Math.min(1, 2 * Math.min(binomialCdf(k, n, 0.5), binomialAtLeast(k, n, 0.5)));
}

/** Smallest p in [0, 1] with f(p) ≥ target for increasing f, by bisection to double precision. */
function solveIncreasing(f: (p: number) => number, target: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 1100 && hi - lo > 0; i += 1) {
    // Bisect in the geometric sense near 0 so tiny bounds (k = 1, n = 10⁶) keep relative precision.
    const mid = lo === 0 && hi < 0.5 ? hi / 2 : (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Clopper–Pearson ("exact") interval for a binomial proportion at level 1 − α, as
 * scipy.stats.binomtest(k, n).proportion_ci(1 − α, method='exact'): the lower bound solves
 * P_L(X ≥ k) = α/2, the upper P_U(X ≤ k) = α/2 (0 and 1 at k = 0 and k = n).
 */
export function clopperPearson(k: number, n: number, alpha: number): readonly [number, number] {
  const lower = k === 0 ? 0 : solveIncreasing((p) => binomialAtLeast(k, n, p), alpha / 2);
  const upper = k === n ? 1 : 1 - solveIncreasing((q) => binomialAtLeast(n - k, n, q), alpha / 2);
  return [lower, upper];
}
