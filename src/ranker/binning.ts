import type { Dataset } from './dataset.js';

/**
 * Quantile binning. Cut points are actual data values (as XGBoost's `hist` does), so
 * "bin ≤ b" is exactly "x < cuts[b]" on float32 inputs and the exported split_condition
 * needs no midpoint rounding.
 */
export interface BinMapper {
  /** Ascending cut values per feature; a feature with k cuts has k + 1 value bins. */
  readonly cuts: readonly Float32Array[];
  /** Value bins per feature (cuts.length + 1); the missing bin is index numBins[f]. */
  readonly numBins: Int32Array;
  /** Start of each feature's slots in a flat histogram (numBins[f] + 1 slots each). */
  readonly offsets: Int32Array;
  readonly totalBins: number;
}

/** 255 value bins plus the missing bin fit a Uint8. */
export const MAX_BINS = 255;

export function buildBinMapper(data: Dataset, maxBins = MAX_BINS): BinMapper {
  if (maxBins < 2 || maxBins > MAX_BINS) throw new Error(`maxBins must be in [2, ${MAX_BINS}]`);
  const { numRows: n, numFeatures: F, features } = data;
  const cuts: Float32Array[] = [];
  const numBins = new Int32Array(F);
  const offsets = new Int32Array(F + 1);
  // Transpose once, row by row: reading a column straight out of the row-major matrix strides
  // through memory and was most of this function's time on 100k × 50.
  const columns = new Float32Array(n * F);
  const present = new Int32Array(F);
  for (let r = 0; r < n; r++) {
    for (let f = 0; f < F; f++) {
      const x = features[r * F + f]!;
      if (x === x) columns[f * n + present[f]!++] = x;
    }
  }
  for (let f = 0; f < F; f++) {
    const c = quantileCuts(columns.subarray(f * n, f * n + present[f]!).sort(), maxBins);
    cuts.push(c);
    numBins[f] = c.length + 1;
    offsets[f + 1] = offsets[f]! + c.length + 2;
  }
  return { cuts, numBins, offsets, totalBins: offsets[F]! };
}

/** Cuts from sorted non-missing values: every distinct value when few, else equal-count quantiles. */
export function quantileCuts(sorted: Float32Array, maxBins: number): Float32Array {
  const n = sorted.length;
  if (n === 0) return new Float32Array(0);
  const distinct: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = sorted[i]!;
    if (distinct.length > 0 && distinct[distinct.length - 1] === x) counts[counts.length - 1]!++;
    else {
      distinct.push(x);
      counts.push(1);
    }
  }
  if (distinct.length <= maxBins) return Float32Array.from(distinct.slice(1));
  const out: number[] = [];
  const perBin = n / maxBins;
  let acc = 0;
  for (let j = 1; j < distinct.length && out.length < maxBins - 1; j++) {
    acc += counts[j - 1]!;
    // Start a new bin at distinct[j] once the rows before it fill the next quantile.
    if (acc >= perBin * (out.length + 1)) out.push(distinct[j]!);
  }
  return Float32Array.from(out);
}

/** Bin of one value: the number of cuts ≤ x (upper bound); NaN → the missing bin. */
export function binOf(cuts: Float32Array, x: number): number {
  if (x !== x) return cuts.length + 1;
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cuts[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Row-major bin matrix; row-major because histograms are built by walking a node's rows. */
export function binDataset(data: Dataset, mapper: BinMapper): Uint8Array {
  const { numRows: n, numFeatures: F, features } = data;
  const out = new Uint8Array(n * F);
  const cuts = mapper.cuts;
  for (let i = 0, r = 0; r < n; r++) {
    for (let f = 0; f < F; f++, i++) out[i] = binOf(cuts[f]!, features[i]!);
  }
  return out;
}
