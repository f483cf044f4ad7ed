import { sigmoid } from '../objectives.js';
import { predictTree, rootRef, type Tree } from '../trees/tree.js';

export type ObjectiveName = 'lambdarank' | 'binary';

/** Plain-JSON model: what training returns, what the registry stores. */
export interface Model {
  format: 'searchloop-gbdt';
  version: 1;
  objective: ObjectiveName;
  /** Raw score every row starts from; log-odds of the base rate for binary, 0 for ranking. */
  baseScore: number;
  featureNames: string[];
  trees: Tree[];
  /** Number of trees kept (after early stopping) and the iteration they came from. */
  bestIteration: number;
  params: Record<string, number | string | boolean>;
}

/** Raw scores (margins) for row-major features; for binary, apply `toProbability`. */
export function predictRaw(model: Model, features: ArrayLike<number>, numRows: number): Float64Array {
  const F = model.featureNames.length;
  const out = new Float64Array(numRows).fill(model.baseScore);
  for (const t of model.trees) for (let r = 0; r < numRows; r++) out[r]! += predictTree(t, features, r * F);
  return out;
}

export function toProbability(raw: ArrayLike<number>): Float64Array {
  const out = new Float64Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = sigmoid(raw[i]!);
  return out;
}

export interface FeatureImportance {
  feature: string;
  totalGain: number;
  splits: number;
  /** Share of the model's total gain, 0–1. */
  share: number;
}

/** Importance by total gain (XGBoost's `total_gain`), most important first; unused features omitted. */
export function featureImportance(model: Model): FeatureImportance[] {
  const gain = new Map<number, { g: number; n: number }>();
  let total = 0;
  for (const t of model.trees) {
    for (let k = 0; k < t.feature.length; k++) {
      const e = gain.get(t.feature[k]!) ?? { g: 0, n: 0 };
      e.g += t.gain[k]!;
      e.n++;
      total += t.gain[k]!;
      gain.set(t.feature[k]!, e);
    }
  }
  return [...gain.entries()]
    .map(([f, e]) => ({ feature: model.featureNames[f] ?? String(f), totalGain: e.g, splits: e.n, share: total > 0 ? e.g / total : 0 }))
    .sort((a, b) => b.totalGain - a.totalGain);
}

export interface Explanation {
  score: number;
  /** baseScore + every tree's root value: the score before any split is looked at. */
  bias: number;
  /** Per-feature contribution by decision path (Saabas): Σ contributions + bias = score. */
  contributions: Record<string, number>;
}

/**
 * Per-feature contributions by path: at each split the change from the parent's value to the
 * child's value is credited to the split feature. Cheap and exact in sum, not SHAP.
 */
export function explain(model: Model, row: ArrayLike<number>): Explanation {
  const contrib = new Map<number, number>();
  let bias = model.baseScore;
  let score = model.baseScore;
  for (const t of model.trees) {
    let node = rootRef(t);
    if (node < 0) {
      bias += t.leafValue[0]!;
      score += t.leafValue[0]!;
      continue;
    }
    bias += t.internalValue[node]!;
    while (node >= 0) {
      const f = t.feature[node]!;
      const v = row[f]!;
      const next = (v !== v ? t.defaultLeft[node]! : v < t.threshold[node]!) ? t.left[node]! : t.right[node]!;
      const nextValue = next >= 0 ? t.internalValue[next]! : t.leafValue[~next]!;
      contrib.set(f, (contrib.get(f) ?? 0) + nextValue - t.internalValue[node]!);
      node = next;
    }
    score += t.leafValue[~node]!;
  }
  const contributions: Record<string, number> = {};
  for (const [f, c] of [...contrib.entries()].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))) {
    contributions[model.featureNames[f] ?? String(f)] = c;
  }
  return { score, bias, contributions };
}

/** JSON text of the native model (trees already plain arrays). Training-only bins are dropped. */
export function serializeModel(model: Model): string {
  return JSON.stringify({ ...model, trees: model.trees.map(({ splitBin: _drop, ...t }) => t) });
}

export function deserializeModel(json: string | object): Model {
  const m = (typeof json === 'string' ? JSON.parse(json) : json) as Partial<Model>;
  if (m.format !== 'searchloop-gbdt' || m.version !== 1) throw new Error('not a searchloop-gbdt v1 model');
  if (!Array.isArray(m.trees) || !Array.isArray(m.featureNames)) throw new Error('model lacks trees or featureNames');
  for (const [i, t] of m.trees.entries()) {
    const k = t.feature?.length ?? -1;
    const ok = k >= 0 && [t.threshold, t.defaultLeft, t.left, t.right, t.internalValue].every((a) => a?.length === k);
    if (!ok || t.leafValue?.length !== k + 1) throw new Error(`tree ${i} is malformed`);
  }
  return m as Model;
}
