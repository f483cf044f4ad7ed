/**
 * The judgment pipeline with its suspects as switches (the investigation's ablations): the steps of
 * runRankerFromFeedback (ranker-run.ts) re-assembled from the same service functions, so one
 * switch at a time can be turned. `today` reproduces the service's path.
 */
import { fitClickModel, toJudgments, type SearchSession } from '../../src/click-models/index.js';
import { buildSessions } from '../../src/learning/training/runs/sessions.js';
import { buildBehaviourTable } from '../../src/learning/training/runs/behaviour-features.js';
import { selectBehaviour } from '../../src/learning/training/runs/clicks-features.js';
import { behaviourRow, featureNamesOf } from '../../src/learning/model/feature-rows.js';
import type { FeedbackColumns } from '../../src/learning/training/runs/feedback-columns.js';
import { compileModel, scoreRow, splitForValidation, train, type Dataset } from '../../src/ranker/index.js';
import type { World } from './world.js';

export interface Variant {
  minImpressions: number;
  /** fixed thresholds (today), quantile grades, or the relevance itself as a gain-linear label. */
  grades: 'fixed' | 'quantile' | 'linear';
  /** all (today); none: client features only; crossfit: behaviour of training rows from the other half of the sessions. */
  behaviour: 'all' | 'none' | 'crossfit' | 'impressions';
}

export const TODAY: Variant = { minImpressions: 10, grades: 'fixed', behaviour: 'all' };

/** Gain 2^label − 1 = 15 × relevance: a result's gain proportional to the click model's relevance (its click probability when examined). */
export const linearLabel = (relevance: number): number => Math.log2(1 + 15 * Math.max(0, Math.min(1, relevance)));

export function trainVariant(world: World, cols: FeedbackColumns, v: Variant, features: Record<string, number>[], seed = 1): Float64Array {
  const { sessions } = buildSessions(cols, 10);
  const labelSessions: SearchSession[] = v.behaviour === 'crossfit' ? sessions.filter((_, i) => i % 2 === 0) : sessions;
  const model = fitClickModel(labelSessions, { algorithm: 'pbm' });
  const list = toJudgments(model, {
    minImpressions: v.minImpressions,
    mapping: { method: v.grades === 'quantile' ? 'quantile' : 'fixed' },
  });
  const full = buildBehaviourTable(cols, sessions);
  const served =
    v.behaviour === 'none' ? selectBehaviour(full, []) : v.behaviour === 'impressions' ? selectBehaviour(full, ['impressions']) : full;
  const trained =
    v.behaviour === 'crossfit'
      ? buildBehaviourTable(
          cols,
          sessions.filter((_, i) => i % 2 === 1),
        )
      : served;
  // Client features are recorded per pair in the full table; the half table may miss pairs only the other half showed.
  if (v.behaviour === 'crossfit') trained.clientFeatures = full.clientFeatures;
  trained.clientFeatureNames = full.clientFeatureNames;
  const names = featureNamesOf(served);
  const feats: number[] = [];
  const labels: number[] = [];
  const sizes: number[] = [];
  let last = '';
  for (const j of list.judgments) {
    if (j.queryHash !== last) {
      sizes.push(0);
      last = j.queryHash;
    }
    sizes[sizes.length - 1]! += 1;
    labels.push(v.grades === 'linear' ? linearLabel(j.relevance) : j.grade);
    for (const x of behaviourRow(v.behaviour === 'crossfit' ? trained : served, j.queryHash, j.resultId)) feats.push(x);
  }
  const groups = new Int32Array(sizes.length + 1);
  sizes.forEach((s, i) => (groups[i + 1] = groups[i]! + s));
  const data: Dataset = {
    numRows: labels.length,
    numFeatures: names.length,
    features: Float32Array.from(feats),
    labels: Float32Array.from(labels),
    groups,
    featureNames: names,
  };
  const { train: trainSet } = splitForValidation(data, 0.2, seed + 7919);
  const result = train(trainSet, { objective: 'lambdarank', seed });
  const forest = compileModel(result.model);
  const scores = new Float64Array(world.grade.length);
  world.queries.forEach((rows, q) => {
    for (const r of rows) scores[r] = scoreRow(forest, behaviourRow(served, world.queryHashes[q], world.docIds[r]!, features[r]), 0);
  });
  return scores;
}
