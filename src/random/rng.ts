import { mulberry32 } from './mulberry32.js';

/**
 * Uniforms, normals and Poisson counts from one seed, for simulations. Normals by the Box–Muller
 * transform (Box & Muller 1958), caching the second variate of each pair.
 */
export interface SeededRng {
  /** Uniform on [0, 1). */
  uniform(): number;
  /** Standard normal. */
  normal(): number;
  /** Poisson(λ) by Knuth's multiplication method; fine for the small λ of per-session counts. */
  poisson(lambda: number): number;
  /** Gamma(shape, scale 1) by Marsaglia & Tsang (2000), boosted by U^(1/shape) for shape < 1. */
  gamma(shape: number): number;
  /** χ² with df degrees of freedom, as 2·Gamma(df/2): the sample variance of normal data in O(1). */
  chiSquare(df: number): number;
  /** Binomial(n, p) by counting geometric waiting times (Devroye 1986, X.4): O(n·min(p, 1 − p)). */
  binomial(n: number, p: number): number;
}

export function createRng(seed: number): SeededRng {
  const uniform = mulberry32(seed);
  let spare: number | null = null;
  const normal = (): number => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    // 1 − u is in (0, 1], so the logarithm is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - uniform()));
    const angle = 2 * Math.PI * uniform();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
  const gamma = (shape: number): number => {
    if (shape < 1) return gamma(shape + 1) * Math.pow(1 - uniform(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      if (Math.log(1 - uniform()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  const binomial = (n: number, p: number): number => {
    if (p > 0.5) return n - binomial(n, 1 - p);
    if (!(p > 0)) return 0;
    const logQ = Math.log1p(-p);
    let successes = 0;
    let position = 0;
    for (;;) {
      position += Math.ceil(Math.log(1 - uniform()) / logQ);
      if (position > n) return successes;
      successes += 1;
    }
  };
  const poisson = (lambda: number): number => {
    const limit = Math.exp(-lambda);
    let k = 0;
    let product = uniform();
    while (product > limit) {
      k += 1;
      product *= uniform();
    }
    return k;
  };
  return { uniform, normal, gamma, chiSquare: (df) => 2 * gamma(df / 2), binomial, poisson };
}
