/** A uniform generator on [0, 1). */
export type Random = () => number;

/**
 * mulberry32 (Tommy Ettinger, public domain): a tiny seeded PRNG, uniform in [0, 1). Used for
 * sampling, bagging and simulations so every run is reproducible (Math.random cannot be seeded);
 * never for anything secret.
 */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
