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
  return binData(data, maxBins).mapper;
}

/**
 * Cuts and the column-major bin matrix (feature f's bins at f·numRows …) in one pass: each
 * feature's present values are radix-sorted with their rows (a typed-array sort was most of
 * the binning time on 100k × 50), the cuts are read off the sorted values, and the bins are
 * assigned by walking the same order, so no value is binary-searched.
 */
export function binData(data: Dataset, maxBins = MAX_BINS): { mapper: BinMapper; colBins: Uint8Array } {
  if (maxBins < 2 || maxBins > MAX_BINS) throw new Error(`maxBins must be in [2, ${MAX_BINS}]`);
  const { numRows: n, numFeatures: F, features } = data;
  const cuts: Float32Array[] = [];
  const numBins = new Int32Array(F);
  const offsets = new Int32Array(F + 1);
  const colBins = new Uint8Array(n * F);
  // Transpose once, row by row, into sortable keys: reading a column straight out of the
  // row-major matrix strides through memory.
  const keys = new Uint32Array(n * F);
  const present = new Int32Array(F);
  const rowsOf = new Int32Array(n * F);
  const bits = new Uint32Array(features.buffer, features.byteOffset, features.length);
  for (let r = 0; r < n; r++) {
    for (let f = 0, i = r * F; f < F; f++, i++) {
      const x = features[i]!;
      if (x !== x) continue;
      const at = f * n + present[f]!++;
      keys[at] = floatKey(bits[i]!);
      rowsOf[at] = r;
    }
  }
  const sorter = new RadixSorter(n);
  const values = new Float32Array(n);
  const valueBits = new Uint32Array(values.buffer);
  for (let f = 0; f < F; f++) {
    const m = present[f]!;
    const k = keys.subarray(f * n, f * n + m);
    const rows = rowsOf.subarray(f * n, f * n + m);
    sorter.sort(k, rows);
    for (let i = 0; i < m; i++) valueBits[i] = keyFloat(k[i]!);
    const sorted = values.subarray(0, m);
    const c = quantileCuts(sorted, maxBins);
    cuts.push(c);
    numBins[f] = c.length + 1;
    offsets[f + 1] = offsets[f]! + c.length + 2;
    const base = f * n;
    colBins.fill(c.length + 1, base, base + n);
    let b = 0;
    for (let i = 0; i < m; i++) {
      const x = sorted[i]!;
      while (b < c.length && c[b]! <= x) b++;
      colBins[base + rows[i]!] = b;
    }
  }
  return { mapper: { cuts, numBins, offsets, totalBins: offsets[F]! }, colBins };
}

/** Float32 bits → a key whose unsigned order is the numeric order (−0 before +0). */
const floatKey = (b: number): number => (b & 0x80000000 ? ~b : b | 0x80000000) >>> 0;
const keyFloat = (k: number): number => (k & 0x80000000 ? k & 0x7fffffff : ~k) >>> 0;

/** LSD radix sort of uint32 keys with a payload, 3 passes of 11 bits; buffers reused. */
class RadixSorter {
  private readonly k2: Uint32Array;
  private readonly p2: Int32Array;
  private readonly count = new Int32Array(2048);

  constructor(capacity: number) {
    this.k2 = new Uint32Array(capacity);
    this.p2 = new Int32Array(capacity);
  }

  sort(keys: Uint32Array, payload: Int32Array): void {
    const n = keys.length;
    let srcK = keys;
    let srcP = payload;
    let dstK = this.k2.subarray(0, n);
    let dstP = this.p2.subarray(0, n);
    const count = this.count;
    for (let shift = 0; shift < 33; shift += 11) {
      count.fill(0);
      for (let i = 0; i < n; i++) count[(srcK[i]! >>> shift) & 2047]!++;
      // A digit every key shares (the exponent of values in a narrow range) needs no pass.
      if (count[(srcK[0]! >>> shift) & 2047] === n) continue;
      let sum = 0;
      for (let d = 0; d < 2048; d++) {
        const c = count[d]!;
        count[d] = sum;
        sum += c;
      }
      for (let i = 0; i < n; i++) {
        const key = srcK[i]!;
        const at = count[(key >>> shift) & 2047]!++;
        dstK[at] = key;
        dstP[at] = srcP[i]!;
      }
      [srcK, dstK] = [dstK, srcK];
      [srcP, dstP] = [dstP, srcP];
    }
    // After an odd number of passes the sorted data is in the scratch buffers.
    if (srcK !== keys) {
      keys.set(srcK);
      payload.set(srcP);
    }
  }
}

/**
 * Cuts from sorted non-missing values: every distinct value when few, else equal-count quantiles.
 * Two passes over the sorted values, no per-value allocation.
 */
export function quantileCuts(sorted: Float32Array, maxBins: number): Float32Array {
  const n = sorted.length;
  if (n === 0) return new Float32Array(0);
  let distinct = 1;
  for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) distinct++;
  const out = new Float32Array(Math.min(distinct, maxBins) - 1);
  let k = 0;
  if (distinct <= maxBins) {
    for (let i = 1; i < n; i++) if (sorted[i] !== sorted[i - 1]) out[k++] = sorted[i]!;
    return out;
  }
  const perBin = n / maxBins;
  // A new bin starts at a distinct value once the rows before it (its first index i) fill the next quantile.
  for (let i = 1; i < n && k < maxBins - 1; i++) {
    if (sorted[i] !== sorted[i - 1] && i >= perBin * (k + 1)) out[k++] = sorted[i]!;
  }
  return out.subarray(0, k).slice();
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
  // Feature by feature (its cuts stay in cache), with the binary search inlined.
  for (let f = 0; f < F; f++) {
    const cuts = mapper.cuts[f]!;
    const m = cuts.length;
    const missing = m + 1;
    for (let i = f, r = 0; r < n; r++, i += F) {
      const x = features[i]!;
      if (x !== x) {
        out[i] = missing;
        continue;
      }
      let lo = 0;
      let hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (cuts[mid]! <= x) lo = mid + 1;
        else hi = mid;
      }
      out[i] = lo;
    }
  }
  return out;
}
