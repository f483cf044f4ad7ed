/**
 * Numbers closer to zero than this are stored as 0. PostgreSQL raises "value out of range:
 * underflow" when squaring a double near 5e-324, and no rating, duration, fraction or
 * covariate means anything at that scale.
 */
export const SNAP_TO_ZERO = 1e-9;

export function snapTiny<T extends number | null | undefined>(value: T): T {
  return (typeof value === 'number' && value !== 0 && Math.abs(value) < SNAP_TO_ZERO ? 0 : value) as T;
}

/** A whole number for a log sentence, thousands apart: 10000 → "10 000" (no locale: the same in every terminal). */
export function groupDigits(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
