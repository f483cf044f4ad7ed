import { mulberry32 } from '../../common/mulberry32.js';
/**
 * Seeded pseudo-random numbers for simulations. mulberry32 (Tommy Ettinger, public
 * domain) is tiny, fast and good enough for click simulation; Math.random cannot be
 * seeded, and tests must be reproducible.
 */
export type Random = () => number;

export { mulberry32 };

/** Integer in [0, n). */
export function randomInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}

/** Fisher–Yates shuffle in place; returns the same array. */
export function shuffleInPlace<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = randomInt(random, i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}
