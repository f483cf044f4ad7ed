import type { BinMapper } from '../data/binning.js';
import { LocalLeafSplitter, type LeafRange, type LeafSplitter, type SplitterData } from './leaf-splitter.js';
import { ParallelLeafSplitter, type SpawnSplitWorker } from './parallel-splitter.js';
import type { SplitCandidate, SplitParams } from './split-finder.js';
import { emptyTree, type Tree } from './tree.js';

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
  /** Histogram slot in the splitter, -1 when the leaf has none (it will not be split). */
  slot: number;
  g: number;
  h: number;
  depth: number;
  best: SplitCandidate | null;
  /** Internal node whose child pointer refers to this leaf, and on which side (-1: root). */
  parent: number;
  isLeft: boolean;
}

/** A typed array over shared memory when other threads must see it, else over plain memory. */
function buffer(bytes: number, shared: boolean): ArrayBufferLike {
  return shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
}

/**
 * Leaf-wise (best-first) histogram tree learner. One instance per training run: it owns the
 * row-index buffer, the gradients (`grad`, `hess`, filled by the objective) and a splitter
 * that keeps one histogram per slot, reused across trees. With `threads` > 1 the histograms
 * are built and scanned feature-parallel in worker threads over shared memory; the trees are
 * identical to single-threaded ones. Call `close()` when done (it stops the workers).
 */
export class TreeBuilder {
  readonly grad: Float64Array;
  readonly hess: Float64Array;
  /** grad and packed hess for the histograms (shared with the workers when threaded); see split-finder.ts. */
  private readonly gh: Float64Array;
  /** [countBase, scale, 1 / scale]: the hessian quantisation of the current tree. */
  private readonly quant: Float64Array;
  private readonly rows: Int32Array;
  private readonly scratch: Int32Array;
  private readonly colBins: Uint8Array;
  private readonly splitter: LeafSplitter;
  private readonly freeSlots: number[] = [];
  private nextSlot = 0;

  /** Row ranges and values of the last tree's leaves (for `addToScores`). */
  private lastLeaves: Leaf[] = [];
  private lastValues: number[] = [];
  private lastWasSubset = false;

  constructor(
    /** Column-major bins (feature f's at f·numRows …), from `binData`. */
    colBins: Uint8Array,
    private readonly numRows: number,
    numFeatures: number,
    private readonly mapper: BinMapper,
    private readonly p: TreeParams,
    threads = 1,
    spawn?: SpawnSplitWorker,
  ) {
    if (threads > 1 && !spawn) throw new RangeError('threads > 1 needs a worker spawner (see src/learning/training/ranker-threads.ts)');
    const n = numRows;
    const F = numFeatures;
    const shared = threads > 1;
    this.rows = new Int32Array(buffer(n * 4, shared));
    this.scratch = new Int32Array(n);
    this.grad = new Float64Array(n);
    this.hess = new Float64Array(n);
    this.gh = new Float64Array(buffer(n * 16, shared));
    this.quant = new Float64Array(buffer(3 * 8, shared));
    // Counts up to n fit below countBase; the quantised hessians of all n rows sum below 2^52.
    this.quant[0] = 2 ** Math.ceil(Math.log2(n + 1));
    // Column-major bins: the partition reads one column, a histogram block a few.
    if (shared) {
      this.colBins = new Uint8Array(buffer(n * F, shared));
      this.colBins.set(colBins);
    } else this.colBins = colBins;
    const data: SplitterData = {
      colBins: this.colBins,
      rows: this.rows,
      gh: this.gh,
      quant: this.quant,
      numRows: n,
      numFeatures: F,
      mapper,
      params: { lambda: p.lambda, minDataInLeaf: p.minDataInLeaf, minChildHessian: p.minChildHessian, minSplitGain: p.minSplitGain },
    };
    this.splitter = shared && spawn ? new ParallelLeafSplitter(data, threads, spawn) : new LocalLeafSplitter(data);
  }

  close(): void {
    this.splitter.close();
  }

  /** Grow one tree on the given rows (a bagged subset or all) and features, from `grad`/`hess`. */
  build(rowSubset: Int32Array | null, features: Int32Array): Tree {
    const { p, grad, hess, gh } = this;
    let n = this.numRows;
    if (rowSubset) {
      this.rows.set(rowSubset);
      n = rowSubset.length;
    } else for (let i = 0; i < n; i++) this.rows[i] = i;
    // Quantise the hessians: the largest maps to ⌊2^52 / (countBase · numRows)⌋ units (2^18 at
    // 100 000 rows, 2^12 at 1 000 000), so no packed sum reaches 2^52.
    const countBase = this.quant[0]!;
    let maxH = 0;
    for (let r = 0; r < this.numRows; r++) if (hess[r]! > maxH) maxH = hess[r]!;
    const units = Math.floor(2 ** 52 / (countBase * this.numRows));
    const scale = maxH > 0 ? units / maxH : 1;
    this.quant[1] = scale;
    this.quant[2] = 1 / scale;
    let g = 0;
    let hq = 0;
    for (let r = 0; r < this.numRows; r++) {
      const q = Math.round(hess[r]! * scale);
      gh[2 * r] = grad[r]!;
      gh[2 * r + 1] = q * countBase + 1;
      g += grad[r]!;
      hq += q;
    }
    if (rowSubset) {
      g = 0;
      hq = 0;
      for (let i = 0; i < n; i++) {
        const r = this.rows[i]!;
        g += grad[r]!;
        hq += Math.round(hess[r]! * scale);
      }
    }
    const h = hq / scale;
    const tree: Tree = { ...emptyTree(), splitBin: [] };
    this.splitter.setFeatures(features);
    const root: Leaf = { index: 0, begin: 0, end: n, slot: this.alloc(), g, h, depth: 0, best: null, parent: -1, isLeft: true };
    this.settle(root, this.splitter.root(root.slot, this.range(root)));
    const leaves: Leaf[] = [root];
    while (leaves.length < p.numLeaves) {
      let pick = -1;
      for (let i = 0; i < leaves.length; i++) {
        const b = leaves[i]!.best;
        if (b && (pick < 0 || b.gain > leaves[pick]!.best!.gain)) pick = i;
      }
      if (pick < 0) break;
      const leaf = leaves[pick]!;
      const right = this.split(tree, leaf, leaves.length);
      leaves.push(right);
    }
    for (const leaf of leaves) {
      tree.leafValue[leaf.index] = this.value(leaf.g, leaf.h);
      tree.leafCover[leaf.index] = leaf.h;
      this.release(leaf);
    }
    this.lastLeaves = leaves;
    this.lastValues = leaves.map((l) => tree.leafValue[l.index]!);
    this.lastWasSubset = rowSubset !== null;
    return tree;
  }

  /**
   * Add the last tree's leaf values to the training scores. Without bagging every row sits in
   * exactly one leaf's range of the row buffer, so no row walks the tree (XGBoost's prediction
   * cache); with bagging the rows left out are routed through the binned tree.
   */
  addToScores(tree: Tree, scores: Float64Array): void {
    if (this.lastWasSubset) {
      const { numBins } = this.mapper;
      for (let r = 0; r < this.numRows; r++) scores[r]! += predictBinned(tree, this.colBins, this.numRows, numBins, r);
      return;
    }
    const { rows } = this;
    for (let j = 0; j < this.lastLeaves.length; j++) {
      const leaf = this.lastLeaves[j]!;
      const v = this.lastValues[j]!;
      for (let i = leaf.begin; i < leaf.end; i++) scores[rows[i]!]! += v;
    }
  }

  private split(tree: Tree, leaf: Leaf, newIndex: number): Leaf {
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
      slot: -1,
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

    // Not when the depth cap is reached, nor after the tree's last split (its children's
    // histograms would never be read).
    const canSplitFurther = (this.p.maxDepth <= 0 || depth < this.p.maxDepth) && newIndex + 1 < this.p.numLeaves;
    if (!canSplitFurther) {
      this.release(leaf);
      return right;
    }
    // Histogram subtraction: build the smaller child, derive the larger from the parent.
    const parentSlot = leaf.slot;
    const small = s.leftCount <= s.rightCount ? leaf : right;
    const large = small === leaf ? right : leaf;
    small.slot = this.alloc();
    large.slot = parentSlot;
    const [smallBest, largeBest] = this.splitter.children(parentSlot, small.slot, this.range(small), this.range(large));
    this.settle(leaf, leaf === small ? smallBest : largeBest);
    this.settle(right, right === small ? smallBest : largeBest);
    return right;
  }

  /** A leaf with fewer than 2 × minDataInLeaf rows cannot be split: its histogram is not scanned. */
  private range(leaf: Leaf): LeafRange {
    const count = leaf.end - leaf.begin;
    return { begin: leaf.begin, end: leaf.end, g: leaf.g, h: leaf.h, evaluate: count >= 2 * this.p.minDataInLeaf };
  }

  private settle(leaf: Leaf, best: SplitCandidate | null): void {
    leaf.best = best;
    if (!best) this.release(leaf);
  }

  /** Stable in-place partition of rows[begin, end) by the split; returns the first right row. */
  private partition(begin: number, end: number, s: SplitCandidate): number {
    const { rows, scratch } = this;
    const f = s.feature;
    const missingBin = this.mapper.numBins[f]!;
    const col = this.colBins;
    const base = f * this.numRows;
    const bin = s.bin;
    const missLeft = s.defaultLeft ? 1 : 0;
    let l = begin;
    let r = 0;
    // Branch-free: each row is written to both sides and only the chosen side's cursor moves
    // (which side a row goes is a coin flip to the branch predictor).
    for (let i = begin; i < end; i++) {
      const row = rows[i]!;
      const b = col[base + row]!;
      const left = b === missingBin ? missLeft : +(b <= bin);
      rows[l] = row;
      scratch[r] = row;
      l += left;
      r += 1 - left;
    }
    for (let i = 0; i < r; i++) rows[l + i] = scratch[i]!;
    return l;
  }

  private value(g: number, h: number): number {
    return (-g / (h + this.p.lambda)) * this.p.learningRate;
  }

  private alloc(): number {
    return this.freeSlots.pop() ?? this.nextSlot++;
  }

  private release(leaf: Leaf): void {
    if (leaf.slot >= 0) this.freeSlots.push(leaf.slot);
    leaf.slot = -1;
  }
}

/** Leaf value reached by a row of the column-major binned matrix (training scores under bagging). */
export function predictBinned(tree: Tree, colBins: Uint8Array, numRows: number, numBins: Int32Array, row: number): number {
  let node = tree.feature.length > 0 ? 0 : -1;
  while (node >= 0) {
    const f = tree.feature[node]!;
    const b = colBins[f * numRows + row]!;
    const goLeft = b === numBins[f] ? tree.defaultLeft[node]! : b <= tree.splitBin![node]!;
    node = goLeft ? tree.left[node]! : tree.right[node]!;
  }
  return tree.leafValue[~node]!;
}
