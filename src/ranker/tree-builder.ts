import type { BinMapper } from './binning.js';
import { findBestSplit, type SplitCandidate, type SplitParams } from './split-finder.js';
import type { Tree } from './tree.js';
import { HistogramBuilder } from './histogram.js';

export interface TreeParams extends SplitParams {
  numLeaves: number;
  /** 0 = unlimited (leaf-wise growth is bounded by numLeaves). */
  maxDepth: number;
  learningRate: number;
}

interface Leaf {
  index: number;
  begin: number;
  end: number;
  hist: Float64Array | null;
  g: number;
  h: number;
  depth: number;
  best: SplitCandidate | null;
  /** Internal node whose child pointer refers to this leaf, and on which side (-1: root). */
  parent: number;
  isLeft: boolean;
}

/**
 * Leaf-wise (best-first) histogram tree learner. One instance per training run: it owns
 * the row-index buffers and a pool of histograms reused across trees.
 */
export class TreeBuilder {
  private readonly rows: Int32Array;
  private readonly scratch: Int32Array;
  private readonly pool: Float64Array[] = [];
  private readonly hb: HistogramBuilder;
  private numUsable = 0;

  constructor(
    bins: Uint8Array,
    private readonly numRows: number,
    numFeatures: number,
    private readonly mapper: BinMapper,
    private readonly p: TreeParams,
  ) {
    this.rows = new Int32Array(numRows);
    this.scratch = new Int32Array(numRows);
    for (let f = 0; f < numFeatures; f++) if (mapper.numBins[f]! >= 2) this.numUsable++;
    this.hb = new HistogramBuilder(bins, numRows, numFeatures, mapper);
  }

  /** Grow one tree on the given rows (a bagged subset or all) and features. */
  build(grad: Float64Array, hess: Float64Array, rowSubset: Int32Array | null, features: Int32Array): Tree {
    const p = this.p;
    let n = this.numRows;
    if (rowSubset) {
      this.rows.set(rowSubset);
      n = rowSubset.length;
    } else for (let i = 0; i < n; i++) this.rows[i] = i;
    let g = 0;
    let h = 0;
    for (let i = 0; i < n; i++) {
      const r = this.rows[i]!;
      g += grad[r]!;
      h += hess[r]!;
    }
    const tree: Tree = {
      feature: [],
      threshold: [],
      defaultLeft: [],
      left: [],
      right: [],
      gain: [],
      cover: [],
      internalValue: [],
      leafValue: [],
      leafCover: [],
      splitBin: [],
    };
    const root: Leaf = { index: 0, begin: 0, end: n, hist: this.alloc(), g, h, depth: 0, best: null, parent: -1, isLeft: true };
    this.buildHist(root.hist!, root.begin, root.end, g, h, grad, hess, features);
    this.evaluate(root, features);
    const leaves: Leaf[] = [root];
    while (leaves.length < p.numLeaves) {
      let pick = -1;
      for (let i = 0; i < leaves.length; i++) {
        const b = leaves[i]!.best;
        if (b && (pick < 0 || b.gain > leaves[pick]!.best!.gain)) pick = i;
      }
      if (pick < 0) break;
      const leaf = leaves[pick]!;
      const right = this.split(tree, leaf, leaves.length, grad, hess, features);
      leaves.push(right);
    }
    for (const leaf of leaves) {
      tree.leafValue[leaf.index] = this.value(leaf.g, leaf.h);
      tree.leafCover[leaf.index] = leaf.h;
      this.release(leaf);
    }
    return tree;
  }

  private split(tree: Tree, leaf: Leaf, newIndex: number, grad: Float64Array, hess: Float64Array, features: Int32Array): Leaf {
    const s = leaf.best!;
    const node = tree.feature.length;
    const cuts = this.mapper.cuts[s.feature]!;
    tree.feature.push(s.feature);
    tree.threshold.push(cuts[s.bin]!);
    tree.splitBin!.push(s.bin);
    tree.defaultLeft.push(s.defaultLeft);
    tree.left.push(~leaf.index);
    tree.right.push(~newIndex);
    tree.gain.push(s.gain);
    tree.cover.push(leaf.h);
    tree.internalValue.push(this.value(leaf.g, leaf.h));
    if (leaf.parent >= 0) (leaf.isLeft ? tree.left : tree.right)[leaf.parent] = node;

    const mid = this.partition(leaf.begin, leaf.end, s);
    const depth = leaf.depth + 1;
    const right: Leaf = {
      index: newIndex,
      begin: mid,
      end: leaf.end,
      hist: null,
      g: s.rightG,
      h: s.rightH,
      depth,
      best: null,
      parent: node,
      isLeft: false,
    };
    leaf.end = mid;
    leaf.g = s.leftG;
    leaf.h = s.leftH;
    leaf.depth = depth;
    leaf.parent = node;
    leaf.isLeft = true;
    leaf.best = null;

    const canSplitFurther = this.p.maxDepth <= 0 || depth < this.p.maxDepth;
    if (!canSplitFurther) {
      this.release(leaf);
      return right;
    }
    // Histogram subtraction: build the smaller child, derive the larger from the parent.
    const parentHist = leaf.hist!;
    const small = s.leftCount <= s.rightCount ? leaf : right;
    const large = small === leaf ? right : leaf;
    const smallHist = this.alloc();
    this.buildHist(smallHist, small.begin, small.end, small.g, small.h, grad, hess, features);
    const { offsets } = this.mapper;
    if (features.length === this.numUsable) {
      for (let k = 0, e = this.mapper.totalBins * 3; k < e; k++) parentHist[k]! -= smallHist[k]!;
    } else {
      for (let j = 0; j < features.length; j++) {
        const f = features[j]!;
        for (let k = offsets[f]! * 3, e = offsets[f + 1]! * 3; k < e; k++) parentHist[k]! -= smallHist[k]!;
      }
    }
    small.hist = smallHist;
    large.hist = parentHist;
    this.evaluate(leaf, features);
    this.evaluate(right, features);
    return right;
  }

  private evaluate(leaf: Leaf, features: Int32Array): void {
    const count = leaf.end - leaf.begin;
    leaf.best =
      count >= 2 * this.p.minDataInLeaf
        ? findBestSplit(leaf.hist!, features, this.mapper.numBins, this.mapper.offsets, leaf.g, leaf.h, count, this.p)
        : null;
    if (!leaf.best) this.release(leaf);
  }

  /** Stable in-place partition of rows[begin, end) by the split; returns the first right row. */
  private partition(begin: number, end: number, s: SplitCandidate): number {
    const { rows, scratch } = this;
    const f = s.feature;
    const missingBin = this.mapper.numBins[f]!;
    const col = this.hb.colBins;
    const base = f * this.numRows;
    let l = begin;
    let r = 0;
    for (let i = begin; i < end; i++) {
      const row = rows[i]!;
      const b = col[base + row]!;
      const goLeft = b === missingBin ? s.defaultLeft : b <= s.bin;
      if (goLeft) rows[l++] = row;
      else scratch[r++] = row;
    }
    rows.set(scratch.subarray(0, r), l);
    return l;
  }

  private buildHist(
    hist: Float64Array,
    begin: number,
    end: number,
    g0: number,
    h0: number,
    grad: Float64Array,
    hess: Float64Array,
    features: Int32Array,
  ): void {
    this.hb.build(hist, this.rows, begin, end, g0, h0, grad, hess, features);
  }

  private value(g: number, h: number): number {
    return (-g / (h + this.p.lambda)) * this.p.learningRate;
  }

  private alloc(): Float64Array {
    return this.pool.pop() ?? new Float64Array(this.mapper.totalBins * 3);
  }

  private release(leaf: Leaf): void {
    if (leaf.hist) this.pool.push(leaf.hist);
    leaf.hist = null;
  }
}

/** Leaf reached by each row of the binned matrix (used to update training scores). */
export function predictBinned(tree: Tree, bins: Uint8Array, numFeatures: number, numBins: Int32Array, row: number): number {
  let node = tree.feature.length > 0 ? 0 : -1;
  const base = row * numFeatures;
  while (node >= 0) {
    const f = tree.feature[node]!;
    const b = bins[base + f]!;
    const goLeft = b === numBins[f] ? tree.defaultLeft[node]! : b <= tree.splitBin![node]!;
    node = goLeft ? tree.left[node]! : tree.right[node]!;
  }
  return tree.leafValue[~node]!;
}
