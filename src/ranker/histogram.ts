import type { BinMapper } from './binning.js';

/**
 * Gradient histograms (sum g, sum h, count per bin; layout in split-finder.ts).
 *
 * Rows are walked through a CSR of present cells only, and each feature's missing bin is
 * filled afterwards as node total minus its value bins (XGBoost/LightGBM's trick for sparse
 * data: a third of the cells on the LETOR sample). A column-wise pass with gathered gradients
 * was tried for dense features and measured no faster in V8, so there is one path.
 */
export class HistogramBuilder {
  private readonly rowPtr: Int32Array;
  private readonly slots: Int32Array;
  private readonly cols: Int32Array;
  private readonly mask: Uint8Array;
  private readonly numUsable: number;

  /**
   * `colBins` is column-major (feature f's bins at f·numRows …), shared with the row
   * partitioner (and, in multi-threaded training, with every worker). Only features in
   * [lo, hi) are indexed: a worker builds the histograms of its own block of features.
   */
  constructor(
    colBins: Uint8Array,
    numRows: number,
    numFeatures: number,
    private readonly mapper: BinMapper,
    private readonly lo = 0,
    private readonly hi = numFeatures,
  ) {
    const n = numRows;
    const { numBins, offsets } = mapper;
    this.mask = new Uint8Array(numFeatures);
    const perRow = new Int32Array(n + 1);
    let numUsable = 0;
    for (let f = lo; f < hi; f++) {
      // Constant features can never be split on, so their cells are left out.
      if (numBins[f]! < 2) continue;
      numUsable++;
      const miss = numBins[f]!;
      for (let r = 0, base = f * n; r < n; r++) if (colBins[base + r] !== miss) perRow[r + 1]!++;
    }
    this.numUsable = numUsable;
    for (let r = 0; r < n; r++) perRow[r + 1]! += perRow[r]!;
    this.rowPtr = perRow;
    const nnz = perRow[n]!;
    this.slots = new Int32Array(nnz);
    this.cols = new Int32Array(nnz);
    // Filled feature by feature, so each row's cells are in ascending feature order.
    const at = perRow.slice(0, n);
    for (let f = lo; f < hi; f++) {
      if (numBins[f]! < 2) continue;
      const miss = numBins[f]!;
      const off = offsets[f]!;
      for (let r = 0, base = f * n; r < n; r++) {
        const b = colBins[base + r]!;
        if (b === miss) continue;
        const e = at[r]!++;
        this.slots[e] = off + b;
        this.cols[e] = f;
      }
    }
  }

  /** Whether feature f is in this builder's block. */
  owns(f: number): boolean {
    return f >= this.lo && f < this.hi;
  }

  /** Histogram of rows[begin, end) over `features`; g0/h0 are the node's gradient totals. */
  build(
    hist: Float64Array,
    rows: Int32Array,
    begin: number,
    end: number,
    g0: number,
    h0: number,
    grad: Float64Array,
    hess: Float64Array,
    features: Int32Array,
  ): void {
    const { offsets, numBins } = this.mapper;
    const { mask } = this;
    const count = end - begin;
    let selected = 0;
    mask.fill(0);
    for (let j = 0; j < features.length; j++) {
      const f = features[j]!;
      if (f < this.lo || f >= this.hi) continue;
      hist.fill(0, offsets[f]! * 3, offsets[f + 1]! * 3);
      mask[f] = 1;
      if (numBins[f]! >= 2) selected++;
    }
    const { rowPtr, slots, cols } = this;
    const all = selected === this.numUsable;
    // Two copies of the hot loop so the common case (every feature) carries no mask test.
    if (all) {
      for (let i = begin; i < end; i++) {
        const r = rows[i]!;
        const g = grad[r]!;
        const h = hess[r]!;
        const e1 = rowPtr[r + 1]!;
        for (let e = rowPtr[r]!; e < e1; e++) {
          const k = slots[e]! * 3;
          hist[k]! += g;
          hist[k + 1]! += h;
          hist[k + 2]! += 1;
        }
      }
    } else {
      for (let i = begin; i < end; i++) {
        const r = rows[i]!;
        const g = grad[r]!;
        const h = hess[r]!;
        const e1 = rowPtr[r + 1]!;
        for (let e = rowPtr[r]!; e < e1; e++) {
          if (mask[cols[e]!] === 0) continue;
          const k = slots[e]! * 3;
          hist[k]! += g;
          hist[k + 1]! += h;
          hist[k + 2]! += 1;
        }
      }
    }
    for (let j = 0; j < features.length; j++) {
      const f = features[j]!;
      if (f < this.lo || f >= this.hi) continue;
      const base = offsets[f]! * 3;
      const miss = base + numBins[f]! * 3;
      let g = g0;
      let h = h0;
      let c = count;
      for (let k = base; k < miss; k += 3) {
        g -= hist[k]!;
        h -= hist[k + 1]!;
        c -= hist[k + 2]!;
      }
      // Counts are exact; sums by subtraction carry rounding, so an empty missing bin is zeroed.
      hist[miss] = c === 0 ? 0 : g;
      hist[miss + 1] = c === 0 ? 0 : h;
      hist[miss + 2] = c;
    }
  }
}
