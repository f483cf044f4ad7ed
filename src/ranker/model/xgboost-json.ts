import { compileTrees, rowFromMap, scoreRow, type CompiledForest } from './forest.js';
import type { Model } from './model.js';
import { emptyTree, rootRef, type Tree } from '../trees/tree.js';

/**
 * The XGBoost JSON dump (`booster.get_dump(dump_format='json')` as one array), which the
 * Elasticsearch / OpenSearch LTR plugins load as `model/xgboost+json`.
 *
 * Semantics, as the plugin evaluates them (o19s NaiveAdditiveDecisionTree):
 * - `value < split_condition` goes to `yes` (children[0]), otherwise `no` (children[1]);
 *   split_condition is read as a float32, so we only emit float32-exact thresholds.
 * - The plugin sums the leaves and ignores XGBoost's base_score, so our base score is folded
 *   into every leaf of the first tree (a single-leaf first tree if the model has none).
 * - `missing` is XGBoost's default branch. The plugin ignores it and feeds 0 for a feature
 *   that did not match, so train on data parsed with `missing: 'zero'` when that matters.
 * - Leaves are raw margins. For a binary model the plugin's ranking is the same (the sigmoid
 *   is monotone); pass `objective` in the plugin's params to get probabilities.
 */
export interface XgbSplitNode {
  nodeid: number;
  depth: number;
  split: string;
  split_condition: number;
  yes: number;
  no: number;
  missing: number;
  children: [XgbNode, XgbNode];
}
export interface XgbLeafNode {
  nodeid: number;
  leaf: number;
}
export type XgbNode = XgbSplitNode | XgbLeafNode;

export function toXgboostJson(model: Model): XgbNode[] {
  const trees = model.trees.length > 0 ? model.trees : [];
  const out = trees.map((t, i) => treeToXgb(t, model.featureNames, i === 0 ? model.baseScore : 0));
  if (out.length === 0) out.push({ nodeid: 0, leaf: model.baseScore });
  return out;
}

/** The `_ltr/_featureset/<set>/_createmodel` body for the plugin. */
export function toLtrPluginModel(
  model: Model,
  name: string,
): { model: { name: string; model: { type: 'model/xgboost+json'; definition: string } } } {
  return { model: { name, model: { type: 'model/xgboost+json', definition: JSON.stringify(toXgboostJson(model)) } } };
}

function treeToXgb(t: Tree, names: readonly string[], bias: number): XgbNode {
  let nextId = 0;
  const visit = (ref: number, depth: number): XgbNode => {
    const nodeid = nextId++;
    if (ref < 0) return { nodeid, leaf: t.leafValue[~ref]! + bias };
    const yes = visit(t.left[ref]!, depth + 1);
    const no = visit(t.right[ref]!, depth + 1);
    return {
      nodeid,
      depth,
      split: names[t.feature[ref]!] ?? String(t.feature[ref]),
      split_condition: t.threshold[ref]!,
      yes: yes.nodeid,
      no: no.nodeid,
      missing: t.defaultLeft[ref] ? yes.nodeid : no.nodeid,
      children: [yes, no],
    };
  };
  return visit(rootRef(t), 0);
}

/** A dump parsed back for scoring feature maps; its own feature order is first-seen split names. */
export interface XgbScorer {
  readonly forest: CompiledForest;
  /** Raw score of one document's features; absent names take the `missing` branch. */
  score(features: Readonly<Record<string, number>>): number;
}

export function parseXgboostJson(input: string | unknown, featureNames?: readonly string[]): XgbScorer {
  const raw = typeof input === 'string' ? (JSON.parse(input) as unknown) : input;
  // Accept the bare array and the `{ "splits": [...] }` wrapper that carries an objective.
  const list = Array.isArray(raw) ? raw : (raw as { splits?: unknown })?.splits;
  if (!Array.isArray(list)) throw new Error('expected an array of trees (or an object with "splits")');
  const names = [...(featureNames ?? [])];
  const index = new Map(names.map((n, i) => [n, i]));
  const column = (name: string) => {
    let j = index.get(name);
    if (j === undefined) {
      j = names.length;
      names.push(name);
      index.set(name, j);
    }
    return j;
  };
  const trees = list.map((node, i) => xgbToTree(node as XgbNode, column, `tree ${i}`));
  const forest = compileTrees(trees, 0, names);
  return { forest, score: (values) => scoreRow(forest, rowFromMap(forest, values, index), 0) };
}

export function xgbToTree(root: XgbNode, column: (name: string) => number, where: string): Tree {
  const t = emptyTree();
  const visit = (n: XgbNode, path: string): number => {
    if (typeof n !== 'object' || n === null || typeof n.nodeid !== 'number') throw new Error(`${path}: not a node`);
    if ('leaf' in n) {
      if (typeof n.leaf !== 'number') throw new Error(`${path}: leaf is not a number`);
      t.leafValue.push(n.leaf);
      t.leafCover.push(0);
      return ~(t.leafValue.length - 1);
    }
    const s = n as XgbSplitNode;
    if (typeof s.split !== 'string' || typeof s.split_condition !== 'number' || !Array.isArray(s.children) || s.children.length !== 2) {
      throw new Error(`${path} (node ${s.nodeid}): split needs split, split_condition and two children`);
    }
    const [yes, no] = s.children;
    if (yes.nodeid !== s.yes || no.nodeid !== s.no) throw new Error(`${path} (node ${s.nodeid}): children do not match yes/no`);
    const k = t.feature.length;
    t.feature.push(column(s.split));
    // XGBoost prints float32 thresholds with 9 digits (0.39 → 0.389999986); compare as the
    // plugin does, in float32, or values equal to the cut land on the wrong side.
    t.threshold.push(Math.fround(s.split_condition));
    t.defaultLeft.push((s.missing ?? s.yes) === s.yes);
    t.left.push(0);
    t.right.push(0);
    t.gain.push(0);
    t.cover.push(0);
    t.internalValue.push(0);
    t.left[k] = visit(yes, `${path}/yes`);
    t.right[k] = visit(no, `${path}/no`);
    return k;
  };
  visit(root, where);
  return t;
}
