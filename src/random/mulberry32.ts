/**
 * mulberry32 (Tommy Ettinger, public domain): a tiny seeded PRNG, uniform in [0, 1). Used for
 * sampling and simulations so every run is reproducible; not for anything secret. (src/stats
 * keeps its own copy: it imports nothing from the service.)
 */
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
