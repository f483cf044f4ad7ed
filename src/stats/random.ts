/**
 * Small seeded PRNG for reproducible simulations (not for anything security-related).
 * mulberry32 by Tommy Ettinger (public domain); normals by the Box–Muller transform
 * (Box & Muller 1958), caching the second variate of each pair.
 */

export interface Rng {
  /** Uniform on [0, 1). */
  uniform(): number;
  /** Standard normal. */
  normal(): number;
  /** Poisson(λ) by Knuth's multiplication method; fine for the small λ of per-session counts. */
  poisson(lambda: number): number;
}

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRng(seed: number): Rng {
  const uniform = mulberry32(seed);
  let spare: number | null = null;
  return {
    uniform,
    normal(): number {
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
    },
    poisson(lambda: number): number {
      const limit = Math.exp(-lambda);
      let k = 0;
      let product = uniform();
      while (product > limit) {
        k += 1;
        product *= uniform();
      }
      return k;
    },
  };
}
