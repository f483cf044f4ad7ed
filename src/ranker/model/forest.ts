import type { Model } from './model.js';
import { rootRef, type Tree } from '../trees/tree.js';

/**
 * All trees flattened into a handful of typed arrays: the serving path. No objects are
 * touched per node, so 100 rows × 100 trees is a few hundred microseconds.
 * Child reference c ≥ 0 is a node index, c < 0 is leaf ~c (indices global across trees).
 */
export interface CompiledForest {
  readonly numFeatures: number;
  readonly featureNames: readonly string[];
  readonly baseScore: number;
  readonly roots: Int32Array;
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly defaultLeft: Uint8Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly leafValue: Float64Array;
}

export function compileTrees(trees: readonly Tree[], baseScore: number, featureNames: readonly string[]): CompiledForest {
  let nodes = 0;
  let leaves = 0;
  for (const t of trees) {
    nodes += t.feature.length;
    leaves += t.leafValue.length;
  }
  const f: CompiledForest = {
    numFeatures: featureNames.length,
    featureNames,
    baseScore,
    roots: new Int32Array(trees.length),
    feature: new Int32Array(nodes),
    threshold: new Float64Array(nodes),
    defaultLeft: new Uint8Array(nodes),
    left: new Int32Array(nodes),
    right: new Int32Array(nodes),
    leafValue: new Float64Array(leaves),
  };
  let n0 = 0;
  let l0 = 0;
  const remap = (ref: number, nodeBase: number, leafBase: number) => (ref >= 0 ? ref + nodeBase : ~(~ref + leafBase));
  trees.forEach((t, i) => {
    f.roots[i] = remap(rootRef(t), n0, l0);
    for (let k = 0; k < t.feature.length; k++) {
      f.feature[n0 + k] = t.feature[k]!;
      f.threshold[n0 + k] = t.threshold[k]!;
      f.defaultLeft[n0 + k] = t.defaultLeft[k] ? 1 : 0;
      f.left[n0 + k] = remap(t.left[k]!, n0, l0);
      f.right[n0 + k] = remap(t.right[k]!, n0, l0);
    }
    f.leafValue.set(t.leafValue, l0);
    n0 += t.feature.length;
    l0 += t.leafValue.length;
  });
  return f;
}

export function compileModel(model: Model): CompiledForest {
  return compileTrees(model.trees, model.baseScore, model.featureNames);
}

/** Raw score of one row starting at `base` in a row-major buffer; NaN follows the default branch. */
export function scoreRow(f: CompiledForest, x: ArrayLike<number>, base: number): number {
  const { roots, feature, threshold, defaultLeft, left, right, leafValue } = f;
  let s = f.baseScore;
  for (let t = 0; t < roots.length; t++) {
    let node = roots[t]!;
    while (node >= 0) {
      const v = x[base + feature[node]!]!;
      const goLeft = v !== v ? defaultLeft[node] === 1 : v < threshold[node]!;
      node = goLeft ? left[node]! : right[node]!;
    }
    s += leafValue[~node]!;
  }
  return s;
}

/** Raw scores for row-major features (numRows inferred from the buffer length). */
export function scoreBatch(f: CompiledForest, featuresRowMajor: ArrayLike<number>, out?: Float64Array): Float64Array {
  const F = f.numFeatures;
  const n = Math.floor(featuresRowMajor.length / Math.max(1, F));
  const res = out ?? new Float64Array(n);
  for (let r = 0; r < n; r++) res[r] = scoreRow(f, featuresRowMajor, r * F);
  return res;
}

/**
 * Dense float32 row from a name → value map (float32 like training data, so values equal to a
 * threshold fall on the same side); absent names are NaN (missing), and so are non-numbers (an
 * inherited value such as a map's "constructor" is a function). Without `index` the map is read by
 * the model's own names, a tenth of the cost of walking its entries through a name → index map
 * (100 × 40 features: 0.1 ms against 1 ms); `out` is filled instead of a new row (the serving path
 * keeps one per model: scoring is synchronous, so each row is used before the next is read).
 */
export function rowFromMap(
  f: CompiledForest,
  values: Readonly<Record<string, number>> | undefined,
  index?: ReadonlyMap<string, number>,
  out?: Float32Array,
): Float32Array {
  const row = out ?? new Float32Array(f.numFeatures);
  if (values === undefined || index) row.fill(Number.NaN);
  if (values === undefined) return row;
  if (index) {
    for (const [name, v] of Object.entries(values)) {
      const j = index.get(name);
      if (j !== undefined) row[j] = v;
    }
    return row;
  }
  const names = f.featureNames;
  for (let j = 0; j < names.length; j += 1) {
    const v = values[names[j]!];
    row[j] = typeof v === 'number' ? v : Number.NaN;
  }
  return row;
}
