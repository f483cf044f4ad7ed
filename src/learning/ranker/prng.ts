import { mulberry32 } from '../../common/mulberry32.js';
/** Seeded PRNG so bagging, feature sampling and splits are reproducible in tests and workers. */
export type Rng = () => number;

export { mulberry32 };

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
