/** Ranks 1..n with ties given their average rank. */
function averageRanks(values: readonly number[]): Float64Array {
  const order = values.map((_, i) => i).sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1] as number] === values[order[i] as number]) j += 1;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k += 1) ranks[order[k] as number] = rank;
    i = j + 1;
  }
  return ranks;
}

/**
 * Spearman's rank correlation: Pearson correlation of the (tie-averaged) ranks. Used to
 * check that a fitted model orders documents like the truth; NaN when either side is
 * constant or there are fewer than two points.
 */
export function spearman(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) throw new RangeError('spearman: arrays differ in length');
  const n = x.length;
  if (n < 2) return Number.NaN;
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (rx[i] as number) - mean;
    const dy = (ry[i] as number) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}
