import type { Model, ObjectiveName } from './model.js';
import { xgbToTree, type XgbNode } from './xgboost-json.js';
import { fillMeanValues, mapFeatureNames, ModelImportError, type ImportSummary } from './import-common.js';
import { emptyTree, type Tree } from '../trees/tree.js';

/**
 * XGBoost models trained elsewhere, as searchloop models:
 * - `booster.save_model('model.json')` (XGBoost ≥ 1.0's JSON model): trees as parallel arrays,
 *   base_score in learner_model_param, feature names when the DMatrix had them;
 * - `booster.get_dump(dump_format='json')` joined into one array: the dump keeps no base_score
 *   and names features by split (`f3` or the DMatrix's names).
 *
 * Semantics carried over: XGBoost compares float32 features with float32 split conditions,
 * `x < split_condition` goes left (our rule), NaN takes the node's default direction (ours too);
 * leaves are float32 and XGBoost sums them in float32, we in float64 (differences ≈ 1e-6).
 * `predict(output_margin=True)` is base_margin + Σ leaves, where base_margin is base_score for
 * identity-link objectives (rank:*, reg:squarederror …) and logit(base_score) for the logistic ones.
 */
export interface XgboostImportOptions {
  /** The model's feature i is read from this name (same count as the model's features). */
  featureNames?: readonly string[];
}

const IDENTITY = [
  'rank:pairwise',
  'rank:ndcg',
  'rank:map',
  'reg:squarederror',
  'reg:linear',
  'reg:pseudohubererror',
  'reg:absoluteerror',
  'binary:logitraw',
];
const LOGISTIC = ['binary:logistic', 'reg:logistic'];

export function importXgboostModel(text: string, options: XgboostImportOptions = {}): { model: Model; summary: ImportSummary } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ModelImportError(`is not JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) throw new ModelImportError('is an empty list of trees');
    return fromDump(raw, options.featureNames);
  }
  if (!isObject(raw) || !isObject(raw.learner))
    throw new ModelImportError('is neither an XGBoost JSON model (no "learner") nor a get_dump JSON array');
  return fromSavedModel(raw.learner, raw.version, options.featureNames);
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function fromSavedModel(learner: Record<string, unknown>, version: unknown, override?: readonly string[]) {
  const booster = learner.gradient_booster;
  if (!isObject(booster)) throw new ModelImportError('learner.gradient_booster is missing');
  if (booster.name !== 'gbtree') {
    throw new ModelImportError(
      `learner.gradient_booster.name is "${String(booster.name)}"; only gbtree (not dart, not gblinear) is supported`,
    );
  }
  const params = isObject(learner.learner_model_param) ? learner.learner_model_param : {};
  const numClass = Number(params.num_class ?? 0);
  if (numClass > 1) throw new ModelImportError(`learner.learner_model_param.num_class is ${numClass}; only single-output models rank`);
  if (Number(params.num_target ?? 1) > 1)
    throw new ModelImportError('learner.learner_model_param.num_target is above 1; only single-output models rank');
  const numFeature = Number(params.num_feature);
  if (!Number.isSafeInteger(numFeature) || numFeature < 1)
    throw new ModelImportError('learner.learner_model_param.num_feature is not a positive integer');
  const objective = isObject(learner.objective) ? String(learner.objective.name) : '';
  // XGBoost ≤ 2.0 writes "5E-1"; 2.1 and later write a vector, "[5E-1]".
  const baseScore = Number(String(params.base_score ?? 0.5).replace(/^\[(.*)\]$/, '$1'));
  if (!Number.isFinite(baseScore)) throw new ModelImportError('learner.learner_model_param.base_score is not a number');
  let baseMargin: number;
  if (IDENTITY.includes(objective)) baseMargin = baseScore;
  else if (LOGISTIC.includes(objective)) baseMargin = Math.log(baseScore / (1 - baseScore));
  else
    throw new ModelImportError(
      `learner.objective.name "${objective}" is not supported (supported: ${[...IDENTITY, ...LOGISTIC].join(', ')})`,
    );

  const names = Array.isArray(learner.feature_names) && learner.feature_names.length > 0 ? learner.feature_names.map(String) : [];
  if (names.length > 0 && names.length !== numFeature) {
    throw new ModelImportError(`learner.feature_names has ${names.length} names for ${numFeature} features`);
  }
  const own = names.length > 0 ? names : Array.from({ length: numFeature }, (_, i) => `f${i}`);
  const featureNames = mapFeatureNames(own, override);
  const gb = isObject(booster.model) ? booster.model : undefined;
  if (!gb || !Array.isArray(gb.trees)) throw new ModelImportError('learner.gradient_booster.model.trees is missing');
  if (gb.trees.length === 0) throw new ModelImportError('learner.gradient_booster.model.trees is empty');
  const trees = gb.trees.map((t, i) => savedTree(t, i, numFeature));
  const xgbVersion = Array.isArray(version) ? version.join('.') : 'unknown';
  return {
    model: build(trees, baseMargin, featureNames, objective, { importedFrom: 'xgboost-json', xgboostVersion: xgbVersion, baseScore }),
    summary: { format: 'xgboost-json' as const, trees: trees.length, sourceFeatureNames: own, sourceObjective: objective },
  };
}

const ARRAYS = ['left_children', 'right_children', 'split_indices', 'split_conditions', 'default_left'] as const;

function savedTree(raw: unknown, i: number, numFeature: number): Tree {
  const where = `tree ${i}`;
  if (!isObject(raw)) throw new ModelImportError(`${where} (learner.gradient_booster.model.trees[${i}]) is not an object`);
  const n = Array.isArray(raw.left_children) ? raw.left_children.length : -1;
  for (const key of ARRAYS) {
    const a = raw[key];
    if (!Array.isArray(a) || a.length !== n || a.some((x) => typeof x !== 'number')) {
      throw new ModelImportError(`${where}: ${key} is not an array of ${n < 0 ? 'numbers' : `${n} numbers`}`);
    }
  }
  if (n < 1) throw new ModelImportError(`${where} has no nodes`);
  const leftC = raw.left_children as number[];
  const rightC = raw.right_children as number[];
  const split = raw.split_indices as number[];
  const cond = raw.split_conditions as number[];
  const defLeft = raw.default_left as number[];
  const splitType = Array.isArray(raw.split_type) ? (raw.split_type as number[]) : [];
  const num = (key: string, k: number) => {
    const a = raw[key];
    return Array.isArray(a) && typeof a[k] === 'number' ? (a[k] as number) : 0;
  };
  const t = emptyTree();
  let visited = 0;
  // Preorder from XGBoost's root (node 0), so our root is internal node 0 as the layout wants.
  const visit = (id: number): number => {
    if (!Number.isInteger(id) || id < 0 || id >= n) throw new ModelImportError(`${where}: child ${id} is not a node`);
    if (++visited > n) throw new ModelImportError(`${where}: nodes form a cycle`);
    if (leftC[id] === -1) {
      t.leafValue.push(Math.fround(cond[id]!));
      t.leafCover.push(num('sum_hessian', id));
      return ~(t.leafValue.length - 1);
    }
    if (splitType[id] === 1)
      throw new ModelImportError(`${where}, node ${id}: split_type is categorical; only numerical splits are supported`);
    const f = split[id]!;
    if (!Number.isInteger(f) || f < 0 || f >= numFeature)
      throw new ModelImportError(`${where}, node ${id}: split_indices ${f} is not a feature`);
    const k = t.feature.length;
    t.feature.push(f);
    t.threshold.push(Math.fround(cond[id]!));
    t.defaultLeft.push(defLeft[id] === 1);
    t.gain.push(num('loss_changes', id));
    t.cover.push(num('sum_hessian', id));
    t.internalValue.push(0);
    t.left.push(0);
    t.right.push(0);
    t.left[k] = visit(leftC[id]!);
    t.right[k] = visit(rightC[id]!);
    return k;
  };
  visit(0);
  fillMeanValues(t);
  return t;
}

/** The dump form: split names are the features; `f<i>` means column i. */
function fromDump(list: unknown[], override?: readonly string[]) {
  const splitNames = new Set<string>();
  const collect = (n: unknown) => {
    if (!isObject(n)) return;
    if (typeof n.split === 'string') splitNames.add(n.split);
    if (Array.isArray(n.children)) n.children.forEach(collect);
  };
  list.forEach(collect);
  const positional = [...splitNames].every((s) => /^f\d+$/.test(s));
  let own: string[];
  if (positional) {
    const count = Math.max(0, ...[...splitNames].map((s) => Number(s.slice(1)) + 1));
    own = override && override.length >= count ? override.map((_, i) => `f${i}`) : Array.from({ length: count }, (_, i) => `f${i}`);
  } else own = override ? [...override] : [...splitNames];
  const featureNames = mapFeatureNames(own, override);
  const index = new Map(own.map((n, i) => [n, i]));
  const column = (name: string) => {
    const j = index.get(name);
    if (j === undefined) throw new ModelImportError(`splits on "${name}", which featureNames does not list`, 'featureNames');
    return j;
  };
  const trees = list.map((node, i) => {
    try {
      const t = xgbToTree(node as XgbNode, column, `tree ${i}`);
      fillMeanValues(t);
      return t;
    } catch (error) {
      if (error instanceof ModelImportError) throw error;
      throw new ModelImportError((error as Error).message);
    }
  });
  return {
    // The dump has no base_score: scores are XGBoost's margins minus that constant (same order).
    model: build(trees, 0, featureNames, 'unknown (get_dump)', { importedFrom: 'xgboost-dump' }),
    summary: { format: 'xgboost-dump' as const, trees: trees.length, sourceFeatureNames: own, sourceObjective: 'unknown' },
  };
}

export function build(
  trees: Tree[],
  baseScore: number,
  featureNames: string[],
  objective: string,
  params: Record<string, string | number>,
): Model {
  const kind: ObjectiveName = /^(binary|reg:logistic|cross_entropy|xentropy)/.test(objective) ? 'binary' : 'lambdarank';
  return {
    format: 'searchloop-gbdt',
    version: 1,
    objective: kind,
    baseScore,
    featureNames,
    trees,
    bestIteration: trees.length,
    params: { ...params, sourceObjective: objective },
  };
}
