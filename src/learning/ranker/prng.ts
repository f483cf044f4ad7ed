/** Seeded PRNG so bagging, feature sampling and splits are reproducible in tests and workers. */
export type Rng = () => number;

/** mulberry32: tiny, fast, good enough for sampling (not for cryptography). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In-place Fisher–Yates shuffle. */
export function shuffleInPlace<T extends { length: number; [i: number]: unknown }>(arr: T, rng: Rng): T {
  for (let i = arr.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = arr[i];
    arr[i] = arr[j];
    arr[j] = tmp;
  }
  return arr;
}

/** k distinct indices out of n, sorted ascending (sorted keeps memory access sequential). */
export function sampleIndices(n: number, k: number, rng: Rng): Int32Array {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const take = Math.max(0, Math.min(n, k));
  // Partial Fisher–Yates: only the first `take` slots need to be random.
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(rng() * (n - i));
    const tmp = all[i]!;
    all[i] = all[j]!;
    all[j] = tmp;
  }
  return all.subarray(0, take).sort();
}
