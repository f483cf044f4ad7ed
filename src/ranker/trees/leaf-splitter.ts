import type { BinMapper } from '../data/binning.js';
import { histLength, HistogramBuilder } from './histogram.js';
import { findBestSplit, HIST_WIDTH, type SplitCandidate, type SplitParams } from './split-finder.js';

/**
 * One side of a split as the splitter sees it: rows[begin, end) and their gradient totals
 * (h is the quantised hessian sum, hq / scale; see split-finder.ts).
 */
export interface LeafRange {
  begin: number;
  end: number;
  g: number;
  h: number;
  /** Look for this leaf's best split (false when it is too small or too deep to split). */
  evaluate: boolean;
}

/**
 * What the tree builder asks of the histograms: build a leaf's histogram into a slot and find
 * its best split. The builder owns the rows, the partition and the slot numbers; a splitter
 * owns the histograms (one per slot). `LocalLeafSplitter` does it in this thread for a block
 * of features; `ParallelLeafSplitter` (parallel-splitter.ts) gives each thread a block.
 */
export interface LeafSplitter {
  /** The features of the next tree (feature sampling); called before `root`. */
  setFeatures(features: Int32Array): void;
  root(slot: number, leaf: LeafRange): SplitCandidate | null;
  /**
   * Build the smaller child into `newSlot`, turn the parent's histogram in `parentSlot` into the
   * larger child's by subtraction, and evaluate both: [smaller's best, larger's best].
   */
  children(parentSlot: number, newSlot: number, small: LeafRange, large: LeafRange): [SplitCandidate | null, SplitCandidate | null];
  close(): void;
}

export interface SplitterData {
  readonly colBins: Uint8Array;
  readonly rows: Int32Array;
  /**
   * Per row r: the gradient at 2r and the packed (quantised hessian, 1) at 2r + 1, i.e.
   * round(h·scale)·countBase + 1 (split-finder.ts).
   */
  readonly gh: Float64Array;
  /** [countBase, scale, 1 / scale] of the current tree (shared with workers: the scale is per tree). */
  readonly quant: Float64Array;
  readonly numRows: number;
  readonly numFeatures: number;
  readonly mapper: Pick<BinMapper, 'numBins' | 'offsets' | 'totalBins'>;
  readonly params: SplitParams;
}

export class LocalLeafSplitter implements LeafSplitter {
  private readonly hb: HistogramBuilder;
  private readonly hists: Float64Array[] = [];
  private readonly packing = { countBase: 1, invScale: 1 };
  private features: Int32Array = new Int32Array(0);
  /** Usable features in this block, and whether the current tree uses all of them. */
  private readonly usable: number;
  private allSelected = false;

  constructor(
    private readonly d: SplitterData,
    private readonly lo = 0,
    private readonly hi = d.numFeatures,
  ) {
    this.hb = new HistogramBuilder(d.colBins, d.numRows, d.numFeatures, d.mapper as BinMapper, lo, hi);
    let usable = 0;
    for (let f = lo; f < hi; f++) if (d.mapper.numBins[f]! >= 2) usable++;
    this.usable = usable;
  }

  setFeatures(features: Int32Array): void {
    if (this.lo === 0 && this.hi === this.d.numFeatures) this.features = features;
    else this.features = features.filter((f) => f >= this.lo && f < this.hi);
    let selected = 0;
    for (let j = 0; j < this.features.length; j++) if (this.d.mapper.numBins[this.features[j]!]! >= 2) selected++;
    this.allSelected = selected === this.usable;
    this.hb.setFeatures(this.features);
  }

  root(slot: number, leaf: LeafRange): SplitCandidate | null {
    const hist = this.hist(slot);
    this.build(hist, leaf);
    return this.best(hist, leaf);
  }

  children(parentSlot: number, newSlot: number, small: LeafRange, large: LeafRange): [SplitCandidate | null, SplitCandidate | null] {
    const parent = this.hist(parentSlot);
    const child = this.hist(newSlot);
    this.build(child, small);
    const { offsets } = this.d.mapper;
    const features = this.features;
    if (this.allSelected) {
      // One flat loop over the block (unused features' slots are never read).
      for (let k = offsets[this.lo]! * HIST_WIDTH, e = offsets[this.hi]! * HIST_WIDTH; k < e; k++) parent[k]! -= child[k]!;
    } else
      for (let j = 0; j < features.length; j++) {
        const f = features[j]!;
        for (let k = offsets[f]! * HIST_WIDTH, e = offsets[f + 1]! * HIST_WIDTH; k < e; k++) parent[k]! -= child[k]!;
      }
    return [this.best(child, small), this.best(parent, large)];
  }

  close(): void {
    this.hists.length = 0;
  }

  private build(hist: Float64Array, leaf: LeafRange): void {
    const { rows, gh, quant } = this.d;
    // The node's packed total, exact: its quantised hessian sum (an integer) and its row count.
    const p0 = Math.round(leaf.h * quant[1]!) * quant[0]! + (leaf.end - leaf.begin);
    this.hb.build(hist, rows, leaf.begin, leaf.end, leaf.g, p0, gh, this.features);
  }

  private best(hist: Float64Array, leaf: LeafRange): SplitCandidate | null {
    if (!leaf.evaluate) return null;
    const { numBins, offsets } = this.d.mapper;
    const { quant } = this.d;
    const packing = this.packing;
    packing.countBase = quant[0]!;
    packing.invScale = quant[2]!;
    return findBestSplit(hist, this.features, numBins, offsets, leaf.g, leaf.h, leaf.end - leaf.begin, this.d.params, packing);
  }

  private hist(slot: number): Float64Array {
    let h = this.hists[slot];
    if (!h) {
      h = new Float64Array(histLength(this.d.mapper.totalBins));
      this.hists[slot] = h;
    }
    return h;
  }
}
