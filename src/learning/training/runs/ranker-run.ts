import { fitClickModel, restoreClickModel, toJudgments, type SerializedClickModel } from '../../../click-models/index.js';
import type { RankerSettings } from '../../model/model-config.js';
import {
  compareToBaselines,
  compileModel,
  deserializeModel,
  featureImportance,
  ndcgAt,
  parseLetor,
  scoreBatch,
  splitForValidation,
  type Dataset,
  type TrainResult,
} from '../../../ranker/index.js';
import { trainThreaded } from '../ranker-threads.js';
import { buildBehaviourTable, feedbackBehaviour } from './behaviour-features.js';
import { selectBehaviour } from './clicks-features.js';
import { emptyColumns } from './feedback-columns.js';
import { finiteOrNull, type TrainingInput, type TrainingOutput } from './protocol.js';
import type { RankerArtifact } from '../../model/artifacts.js';
import { buildSessions } from './sessions.js';
import { trainParams } from './tree-params.js';
import { trainingBlock } from './training-block.js';
import { behaviourRow, featureNamesOf } from '../../model/feature-rows.js';
import { type BehaviourTable, isUnknownResult } from '../../model/artifacts.js';

const TOP_FEATURES = 25;

/** What every ranker version reports of its held-out ranking and its trees, whatever it learned from. */
export function rankerReport(report: ReturnType<typeof compareToBaselines>, result: Pick<TrainResult, 'model' | 'bestScore'>) {
  return {
    ndcg: report.model.ndcg,
    map: report.model.map,
    mrr: report.model.mrr,
    baseline: { original: report.original, random: report.random },
    featureNames: result.model.featureNames,
    featureImportance: featureImportance(result.model).slice(0, TOP_FEATURES),
    trees: result.model.trees.length,
    bestIteration: result.model.bestIteration,
    validationNdcg: finiteOrNull(result.bestScore),
  };
}

/** LambdaMART on held-in queries; NDCG/MAP/MRR on held-out queries next to the original and a random order. */
function fitAndReport(
  data: Dataset,
  settings: RankerSettings,
  source: RankerArtifact['source'],
  behaviour: BehaviourTable | undefined,
  input: TrainingInput,
): TrainingOutput {
  const queries = (data.groups?.length ?? 1) - 1;
  if (queries < 2)
    return {
      kind: 'no-data',
      message: `ranking data needs at least 2 queries with judged results; found ${queries}`,
      counts: { rows: data.numRows, queries },
    };
  const seed = settings.tree.seed ?? 1;
  const { train: trainSet, valid: test } = splitForValidation(data, settings.heldOutFraction, seed + 7919);
  const result = trainThreaded(trainSet, { objective: 'lambdarank', ...trainParams(settings.tree) });
  const scores = scoreBatch(compileModel(result.model), test.features);
  const report = compareToBaselines(test.labels, scores, test.groups as Int32Array, seed);
  let active: number | null = null;
  if (input.activeArtifact) {
    const previous = deserializeModel((JSON.parse(input.activeArtifact) as RankerArtifact).model);
    if (previous.featureNames.join('\u0000') === result.model.featureNames.join('\u0000')) {
      active = finiteOrNull(ndcgAt(test.labels, scoreBatch(compileModel(previous), test.features), test.groups as Int32Array, 10));
    }
  }
  const artifact: RankerArtifact = {
    format: 'searchloop.ranker',
    version: 1,
    source,
    model: result.model,
    ...(behaviour ? { behaviour } : {}),
  };
  const metrics = {
    source,
    training: trainingBlock(settings),
    ...rankerReport(report, result),
    heldOutQueries: report.model.numQueries,
  };
  return {
    kind: 'trained',
    metrics,
    counts: {
      rows: data.numRows,
      queries,
      features: data.numFeatures,
      trainRows: result.trainRows + result.validRows,
      heldOutRows: test.numRows,
    },
    artifact: JSON.stringify(artifact),
    comparison: { metric: 'ndcg@10', higherIsBetter: true, value: finiteOrNull(report.model.ndcg[10]), active },
  };
}

export function runRankerFromDataset(input: TrainingInput, settings: RankerSettings): TrainingOutput {
  if (input.dataset === undefined)
    return { kind: 'no-data', message: 'no dataset uploaded: POST a LETOR file to /api/nous/learn/models/{modelId}/dataset', counts: {} };
  return fitAndReport(parseLetor(input.dataset, { missing: settings.missing }), settings, 'dataset', undefined, input);
}

/** Explicit ratings (-1…5) as grades 0–4: thumbs down and 0 → 0, 5 stars → 4. */
export function gradeOfRating(mean: number): number {
  return Math.max(0, Math.min(4, Math.round(mean)));
}

/**
 * Pairs labelled by click-model judgments (the referenced click model's active version, or a
 * PBM fitted on the same window), explicit ratings where no judgment exists, with client features
 * and the behaviour features feedbackBehaviour keeps. Within a query, rows follow the mean position
 * shown (the original order).
 */
export function runRankerFromFeedback(
  input: TrainingInput,
  settings: RankerSettings,
  /** Which behaviour features the rows carry; default feedbackBehaviour's choice (the tests measure others). */
  behaviourFeatures?: readonly string[],
): TrainingOutput {
  const cols = input.feedback ?? emptyColumns();
  const { sessions } = buildSessions(cols, 10);
  const clickModel = input.judgmentsArtifact
    ? restoreClickModel(JSON.parse(input.judgmentsArtifact) as SerializedClickModel)
    : sessions.length > 0
      ? fitClickModel(sessions, { algorithm: 'pbm' })
      : undefined;
  const grades = new Map<string, number>();
  const key = (q: string, r: string) => `${q}\u0000${r}`;
  if (clickModel) {
    for (const j of toJudgments(clickModel, { minImpressions: settings.minImpressions }).judgments) {
      if (!isUnknownResult(j.resultId)) grades.set(key(j.queryHash, j.resultId), j.grade);
    }
  }
  // Labels and row order read the full table; the rows' features are the ones feedbackBehaviour keeps.
  const full = buildBehaviourTable(cols, sessions);
  const table = behaviourFeatures ? selectBehaviour(full, behaviourFeatures) : feedbackBehaviour(full);
  const ratingIndex = full.names.indexOf('meanRating');
  const positionIndex = full.names.indexOf('meanPosition');
  const names = featureNamesOf(table);
  const features: number[] = [];
  const labels: number[] = [];
  const sizes: number[] = [];
  let fromJudgments = 0;
  let fromRatings = 0;
  for (const [q, results] of Object.entries(full.pairs)) {
    const rows: { r: string; label: number; pos: number }[] = [];
    for (const [r, values] of Object.entries(results)) {
      const judged = grades.get(key(q, r));
      const rating = values[ratingIndex];
      const label = judged ?? (rating != null ? gradeOfRating(rating) : undefined);
      if (label === undefined) continue;
      if (judged !== undefined) fromJudgments += 1;
      else fromRatings += 1;
      rows.push({ r, label, pos: values[positionIndex] ?? Infinity });
    }
    if (rows.length < 2) continue;
    rows.sort((a, b) => a.pos - b.pos);
    for (const row of rows) {
      labels.push(row.label);
      for (const v of behaviourRow(table, q, row.r)) features.push(v);
    }
    sizes.push(rows.length);
  }
  const groups = new Int32Array(sizes.length + 1);
  sizes.forEach((s, i) => (groups[i + 1] = (groups[i] as number) + s));
  const data: Dataset = {
    numRows: labels.length,
    numFeatures: names.length,
    features: Float32Array.from(features),
    labels: Float32Array.from(labels),
    groups,
    featureNames: names,
  };
  const out = fitAndReport(data, settings, 'feedback', table, input);
  out.counts = {
    ...out.counts,
    feedbackItems: cols.queryId.length,
    sessions: sessions.length,
    labelsFromJudgments: fromJudgments,
    labelsFromRatings: fromRatings,
  };
  return out;
}
