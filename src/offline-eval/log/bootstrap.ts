import { mulberry32, type Random } from '../../random/index.js';

/**
 * The Poisson bootstrap (Hanley & MacGibbon 2006; Chamandy et al. 2012): each session gets an
 * independent Poisson(1) weight per replicate instead of a multinomial resample, so replicates
 * are drawn in one pass without knowing the number of sessions in advance and sessions stay whole
 * (the cluster), which is what the searches and clicks of one user require.
 */
const POISSON_CDF = ((): Float64Array => {
  const cdf = new Float64Array(16);
  let term = Math.exp(-1);
  let sum = 0;
  for (let k = 0; k < cdf.length; k += 1) {
    sum += term;
    cdf[k] = sum;
    term /= k + 1;
  }
  return cdf;
})();

/** One Poisson(1) draw from one uniform (inverse CDF; the tail past 15 has mass below 1e-13). */
export function poissonOne(random: Random): number {
  const u = random();
  let k = 0;
  while (k < POISSON_CDF.length - 1 && u >= (POISSON_CDF[k] as number)) k += 1;
  return k;
}

/**
 * Session weights of replicate `replicate` (0 = the point estimate: every weight 1). Each replicate
 * has its own stream derived from the seed, so replicate b is the same whatever B is.
 */
export function sessionWeights(sessions: number, replicate: number, seed: number, into?: Uint8Array): Uint8Array {
  const weights = into ?? new Uint8Array(sessions);
  if (replicate === 0) return weights.fill(1);
  const random = mulberry32((Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(replicate, 0x85ebca6b)) >>> 0);
  for (let s = 0; s < sessions; s += 1) weights[s] = poissonOne(random);
  return weights;
}

/** Linear-interpolated quantile (type 7) of sorted finite values; NaN when there are none. */
export function quantileSorted(sorted: readonly number[] | Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + (h - lo) * ((sorted[hi] as number) - (sorted[lo] as number));
}

/** The 95 % percentile interval of the finite replicate values; [estimate, estimate] without any. */
export function percentileInterval(values: readonly number[], estimate: number): [number, number] {
  const finite = Float64Array.from(values.filter((v) => Number.isFinite(v))).sort();
  if (finite.length === 0) return [estimate, estimate];
  return [quantileSorted(finite, 0.025), quantileSorted(finite, 0.975)];
}

export function intervalMethod(replicates: number): string {
  return `Poisson bootstrap over sessions, ${replicates} replicates, percentile`;
}
