import type { Model } from './model.js';
import { build } from './import-xgboost.js';
import { lessOrEqualAsLessThan, mapFeatureNames, ModelImportError, type ImportSummary } from './import-common.js';
import { emptyTree, type Tree } from '../trees/tree.js';

/**
 * LightGBM's text model (`booster.save_model('model.txt')`, the `tree` / `Tree=N` blocks),
 * written against LightGBM's own format (src/io/tree.cpp `Tree::ToString`, `Tree(const char*)`
 * and `NumericalDecision`), not checked against LightGBM itself (it is not in Debian).
 *
 * A tree's layout is ours already: internal nodes 0..num_leaves-2, a child c < 0 is leaf ~c.
 * A numerical split sends `x <= threshold` left, on doubles. decision_type bit 0 = categorical
 * (refused), bit 1 = default left, bits 2–3 = missing type: None (NaN is read as 0), Zero (0 and
 * NaN take the default side: expanded into extra nodes) or NaN (NaN takes the default side). We turn each into `x < t'` on
 * float32 rows with NaN → defaultLeft: exact for float32 feature values (serving reads features as
 * float32, as for every tree model here; a double within float32 rounding of a threshold may land
 * on the other side than in LightGBM). The init score (boost_from_average) is inside the first
 * tree's leaves, so the base score is 0.
 */
export interface LightgbmImportOptions {
  featureNames?: readonly string[];
}

const OBJECTIVES = [
  'lambdarank',
  'rank_xendcg',
  'regression',
  'regression_l1',
  'huber',
  'fair',
  'quantile',
  'mape',
  'binary',
  'cross_entropy',
];
/** kZeroThreshold (1e-35f): |x| ≤ it counts as zero for missing type Zero. */
const ZERO = 1.0000000180025095e-35;

interface Block {
  line: number;
  values: Map<string, { line: number; value: string }>;
}

export function importLightgbmModel(text: string, options: LightgbmImportOptions = {}): { model: Model; summary: ImportSummary } {
  const lines = text.split(/\r?\n/);
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  if (lines[i]?.trim() !== 'tree') throw new ModelImportError(`line ${i + 1}: expected "tree" (the first line of a LightGBM text model)`);
  const header: Block = { line: i + 1, values: new Map() };
  const trees: Block[] = [];
  let current = header;
  for (i += 1; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === 'end of trees') break;
    if (line === '') continue;
    if (line.startsWith('Tree=')) {
      current = { line: i + 1, values: new Map([['Tree', { line: i + 1, value: line.slice(5) }]]) };
      trees.push(current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) {
      if (current === header && line === 'average_output')
        throw new ModelImportError(`line ${i + 1}: average_output (a random forest) is not supported; trees must add up`);
      continue;
    }
    current.values.set(line.slice(0, eq), { line: i + 1, value: line.slice(eq + 1) });
  }
  const h = (key: string) => header.values.get(key);
  for (const key of ['num_class', 'num_tree_per_iteration']) {
    const v = h(key);
    if (v && v.value !== '1') throw new ModelImportError(`line ${v.line}: ${key}=${v.value}; only single-output models rank`);
  }
  const objectiveLine = h('objective');
  const objective = objectiveLine?.value.split(/\s+/)[0] ?? '';
  if (!OBJECTIVES.includes(objective)) {
    throw new ModelImportError(
      `line ${objectiveLine?.line ?? header.line}: objective "${objective}" is not supported (supported: ${OBJECTIVES.join(', ')})`,
    );
  }
  const maxIdx = h('max_feature_idx');
  const numFeatures = maxIdx ? Number(maxIdx.value) + 1 : NaN;
  if (!Number.isSafeInteger(numFeatures) || numFeatures < 1)
    throw new ModelImportError(`line ${maxIdx?.line ?? header.line}: max_feature_idx is missing or not an integer`);
  const namesLine = h('feature_names');
  const own = namesLine ? namesLine.value.split(/\s+/) : Array.from({ length: numFeatures }, (_, j) => `Column_${j}`);
  if (own.length !== numFeatures)
    throw new ModelImportError(`line ${namesLine?.line}: feature_names has ${own.length} names; max_feature_idx says ${numFeatures}`);
  const featureNames = mapFeatureNames(own, options.featureNames);
  if (trees.length === 0) throw new ModelImportError(`line ${lines.length}: no "Tree=" block`);
  const parsed = trees.map((b, k) => toTree(b, k, numFeatures));
  return {
    model: build(parsed, 0, featureNames, objective, { importedFrom: 'lightgbm-text', lightgbmVersion: h('version')?.value ?? 'unknown' }),
    summary: { format: 'lightgbm-text', trees: parsed.length, sourceFeatureNames: own, sourceObjective: objective },
  };
}

function toTree(b: Block, k: number, numFeatures: number): Tree {
  const where = `tree ${k} (line ${b.line})`;
  const field = (key: string) => b.values.get(key);
  const numbers = (key: string, count: number, required = true): number[] => {
    const f = field(key);
    if (!f) {
      if (required) throw new ModelImportError(`${where}: ${key} is missing`);
      return [];
    }
    const out = f.value === '' ? [] : f.value.split(/\s+/).map(Number);
    if (out.length !== count || out.some((x) => Number.isNaN(x)))
      throw new ModelImportError(`line ${f.line} (${where.split(' (')[0]}): ${key} needs ${count} numbers, has "${f.value.slice(0, 60)}"`);
    return out;
  };
  const leaves = Number(field('num_leaves')?.value);
  if (!Number.isSafeInteger(leaves) || leaves < 1) throw new ModelImportError(`${where}: num_leaves is missing or not a positive integer`);
  if (field('is_linear')?.value === '1')
    throw new ModelImportError(`line ${field('is_linear')!.line} (tree ${k}): is_linear=1 (linear trees) is not supported`);
  const internal = leaves - 1;
  const t = emptyTree();
  t.leafValue = numbers('leaf_value', leaves);
  t.leafCover = numbers('leaf_weight', leaves, false);
  if (t.leafCover.length === 0) t.leafCover = t.leafValue.map(() => 0);
  if (internal === 0) return t;
  const feature = numbers('split_feature', internal);
  const threshold = numbers('threshold', internal);
  const decision = numbers('decision_type', internal);
  t.left = numbers('left_child', internal);
  t.right = numbers('right_child', internal);
  t.gain = numbers('split_gain', internal, false);
  t.cover = numbers('internal_weight', internal, false);
  t.internalValue = numbers('internal_value', internal, false);
  if (t.gain.length === 0) t.gain = feature.map(() => 0);
  if (t.cover.length === 0) t.cover = feature.map(() => 0);
  if (t.internalValue.length === 0) t.internalValue = feature.map(() => 0);
  const zeroSplits: { n: number; f: number; cut: number; defaultLeft: boolean }[] = [];
  for (let n = 0; n < internal; n++) {
    const node = `line ${field('decision_type')!.line} (tree ${k}, node ${n})`;
    const f = feature[n]!;
    if (!Number.isInteger(f) || f < 0 || f >= numFeatures) throw new ModelImportError(`${node}: split_feature ${f} is not a feature`);
    for (const c of [t.left[n]!, t.right[n]!]) {
      if (!Number.isInteger(c) || (c >= 0 ? c <= n || c >= internal : ~c >= leaves))
        throw new ModelImportError(`${node}: child ${c} is not a node or leaf of this tree`);
    }
    const d = decision[n]!;
    if (d & 1) throw new ModelImportError(`${node}: decision_type ${d} is a categorical split; only numerical splits are supported`);
    const defaultLeft = (d & 2) !== 0;
    const missing = (d >> 2) & 3;
    const cut = threshold[n]!;
    t.feature.push(f);
    if (missing === 0) {
      // None: NaN is read as 0.
      t.threshold.push(lessOrEqualAsLessThan(cut));
      t.defaultLeft.push(0 <= cut);
    } else if (missing === 2) {
      // NaN: NaN takes the default side.
      t.threshold.push(lessOrEqualAsLessThan(cut));
      t.defaultLeft.push(defaultLeft);
    } else if (missing === 1) {
      // Zero (zero_as_missing): |x| ≤ 1e-35 and NaN take the default side, the rest the threshold.
      t.threshold.push(-ZERO);
      t.defaultLeft.push(false);
      zeroSplits.push({ n, f, cut, defaultLeft });
    } else throw new ModelImportError(`${node}: decision_type ${d} has an unknown missing type ${missing}`);
  }
  for (const z of zeroSplits) expandZeroSplit(t, z);
  return t;
}

/**
 * A missing-type-Zero split in three of ours: node n asks x < −1e-35 (NaN goes right); below,
 * the threshold decides (a node, unless every such x is ≤ cut); otherwise x ≤ 1e-35 or NaN takes
 * the default child and larger x the threshold. The children are shared (the tree becomes a DAG),
 * which scoring, explanations and the XGBoost export walk like any tree.
 */
function expandZeroSplit(t: Tree, z: { n: number; f: number; cut: number; defaultLeft: boolean }): void {
  const left = t.left[z.n]!;
  const right = t.right[z.n]!;
  const add = (threshold: number, defaultLeft: boolean, l: number, r: number) => {
    t.feature.push(z.f);
    t.threshold.push(threshold);
    t.defaultLeft.push(defaultLeft);
    t.left.push(l);
    t.right.push(r);
    t.gain.push(0);
    t.cover.push(t.cover[z.n]!);
    t.internalValue.push(t.internalValue[z.n]!);
    return t.feature.length - 1;
  };
  const byThreshold = () => add(lessOrEqualAsLessThan(z.cut), z.defaultLeft, left, right);
  const below = z.cut >= -ZERO ? left : byThreshold();
  const above = z.cut <= ZERO ? right : byThreshold();
  const zeroOrAbove = add(lessOrEqualAsLessThan(ZERO), true, z.defaultLeft ? left : right, above);
  t.left[z.n] = below;
  t.right[z.n] = zeroOrAbove;
}
