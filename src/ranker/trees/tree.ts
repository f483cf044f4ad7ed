/**
 * A regression tree in LightGBM's flat layout: internal nodes 0..k-1 hold splits, a child
 * reference c ≥ 0 is an internal node and c < 0 is leaf ~c. A single-leaf tree has no
 * internal nodes and its root reference is ~0.
 */
export interface Tree {
  /** Column index of each internal node's split. */
  feature: number[];
  /** float32 threshold: x < threshold goes left (XGBoost's split_condition semantics). */
  threshold: number[];
  /** Where NaN goes at this node (learned like XGBoost's default direction). */
  defaultLeft: boolean[];
  left: number[];
  right: number[];
  /** Loss reduction of the split (the XGBoost "gain" without the ½ factor and gamma). */
  gain: number[];
  /** Sum of hessians reaching the node (XGBoost's "cover"). */
  cover: number[];
  /** What the node would output were it a leaf; explain() attributes changes along the path. */
  internalValue: number[];
  leafValue: number[];
  leafCover: number[];
  /** Training-time bin of each split (kept so scores on binned data need no float compare). */
  splitBin?: number[];
}

/** A tree with no nodes yet: what builders and importers fill. */
export function emptyTree(): Tree {
  return {
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
  };
}

export const rootRef = (t: Tree): number => (t.feature.length > 0 ? 0 : -1);

/** Score one row of raw features (row-major slice starting at `base`). */
export function predictTree(t: Tree, x: ArrayLike<number>, base: number): number {
  let node = rootRef(t);
  while (node >= 0) {
    const v = x[base + t.feature[node]!]!;
    const goLeft = v !== v ? t.defaultLeft[node]! : v < t.threshold[node]!;
    node = goLeft ? t.left[node]! : t.right[node]!;
  }
  return t.leafValue[~node]!;
}

/** Depth of the deepest leaf (a single-leaf tree has depth 0). */
export function treeDepth(t: Tree): number {
  const walk = (ref: number): number => (ref < 0 ? 0 : 1 + Math.max(walk(t.left[ref]!), walk(t.right[ref]!)));
  return walk(rootRef(t));
}
