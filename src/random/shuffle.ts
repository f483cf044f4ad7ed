import type { Random } from './mulberry32.js';

/** Integer in [0, n). */
export function randomInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** In-place Fisher–Yates shuffle of an array or typed array; returns the same object. */
export function shuffleInPlace<T extends { length: number; [i: number]: unknown }>(items: T, random: Random): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    const tmp = items[i];
    items[i] = items[j];
    items[j] = tmp;
  }
  return items;
}

/** k distinct indices out of n, sorted ascending (sorted keeps memory access sequential). */
export function sampleIndices(n: number, k: number, random: Random): Int32Array {
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const take = Math.max(0, Math.min(n, k));
  // Partial Fisher–Yates: only the first `take` slots need to be random.
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (n - i));
    const tmp = all[i]!;
    all[i] = all[j]!;
    all[j] = tmp;
  }
  return all.subarray(0, take).sort();
}
