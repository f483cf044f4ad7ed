import type { EngagementSettings } from '../../model/model-config.js';
import {
  binaryReport,
  compileModel,
  deserializeModel,
  featureImportance,
  logLoss,
  scoreBatch,
  toProbability,
  type Dataset,
} from '../../../ranker/index.js';
import { trainThreaded } from '../ranker-threads.js';
import { isClick, isImpression, isSatisfiedClick } from '../../../vocabulary/index.js';
import { emptyColumns, groupBySearch, type FeedbackColumns } from './feedback-columns.js';
import { finiteOrNull, type TrainingInput, type TrainingOutput } from './protocol.js';
import { CATEGORICAL_FEATURES, ENGAGEMENT_FEATURES, type CategoricalFeature, type EngagementArtifact } from '../../model/artifacts.js';
import { trainParams } from './tree-params.js';
import { encodeExamples, type EngagementExample } from '../../model/feature-rows.js';

/**
 * Every impression with a position is an example; its label is a click on the same result in
 * the same search (for `satisfied_click`, one with dwell ≥ 30 s). Context fields missing on
 * the impression are taken from the rest of the search (clients often send them once).
 */
export function engagementExamples(cols: FeedbackColumns, target: EngagementSettings['target']) {
  const examples: (EngagementExample & { label: number; time: number })[] = [];
  for (const rows of groupBySearch(cols)) {
    const first = <T>(column: (T | null)[]): T | null => {
      for (const i of rows) if (column[i] != null) return column[i] as T;
      return null;
    };
    const context = {
      deviceType: first(cols.deviceType),
      searchType: first(cols.searchType),
      language: first(cols.language),
      viewportWidth: first(cols.viewportWidth),
      viewportHeight: first(cols.viewportHeight),
    };
    const positive = new Set<string>();
    for (const i of rows) {
      const action = cols.action[i];
      if (!isClick(action) || cols.resultId[i] == null) continue;
      if (target === 'click' || isSatisfiedClick(action, cols.dwellTime[i])) positive.add(cols.resultId[i] as string);
    }
    for (const i of rows) {
      const id = cols.resultId[i];
      const pos = cols.position[i];
      if (!isImpression(cols.action[i]) || id == null || pos == null) continue;
      const time = cols.eventTime[i] as number;
      examples.push({
        ...context,
        position: pos,
        category: cols.category[i] ?? first(cols.category),
        hour: new Date(time).getUTCHours(),
        label: positive.has(id) ? 1 : 0,
        time,
      });
    }
  }
  return examples;
}

export function buildVocabulary(examples: readonly EngagementExample[]): Record<CategoricalFeature, string[]> {
  const vocab = {} as Record<CategoricalFeature, string[]>;
  for (const f of CATEGORICAL_FEATURES) {
    const counts = new Map<string, number>();
    for (const e of examples) if (e[f] !== null) counts.set(e[f] as string, (counts.get(e[f] as string) ?? 0) + 1);
    vocab[f] = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([v]) => v);
  }
  return vocab;
}

/** Fits on the earlier examples, reports AUC / log-loss / calibration / base rate on the latest slice. */
export function runEngagement(input: TrainingInput, settings: EngagementSettings): TrainingOutput {
  const examples = engagementExamples(input.feedback ?? emptyColumns(), settings.target).sort((a, b) => a.time - b.time);
  const positives = examples.reduce((n, e) => n + e.label, 0);
  const counts = { examples: examples.length, positives };
  if (examples.length < 20 || positives === 0 || positives === examples.length) {
    return {
      kind: 'no-data',
      message: `needs at least 20 impressions with positions and both clicked and unclicked ones; found ${examples.length} with ${positives} positive`,
      counts,
    };
  }
  const cut = examples.length - Math.max(1, Math.round(examples.length * settings.heldOutFraction));
  const trainEx = examples.slice(0, cut);
  const heldOut = examples.slice(cut);
  const vocabulary = buildVocabulary(trainEx);
  const data: Dataset = {
    numRows: trainEx.length,
    numFeatures: ENGAGEMENT_FEATURES.length,
    features: encodeExamples(trainEx, vocabulary),
    labels: Float32Array.from(trainEx, (e) => e.label),
    featureNames: [...ENGAGEMENT_FEATURES],
  };
  const result = trainThreaded(data, { objective: 'binary', ...trainParams(settings.tree) });
  const heldLabels = Float32Array.from(heldOut, (e) => e.label);
  const probs = toProbability(scoreBatch(compileModel(result.model), encodeExamples(heldOut, vocabulary)));
  const report = binaryReport(heldLabels, probs);
  let active: number | null = null;
  if (input.activeArtifact) {
    const previous = JSON.parse(input.activeArtifact) as EngagementArtifact;
    if (previous.target === settings.target) {
      const p = toProbability(scoreBatch(compileModel(deserializeModel(previous.model)), encodeExamples(heldOut, previous.vocabulary)));
      active = finiteOrNull(logLoss(heldLabels, p));
    }
  }
  const artifact: EngagementArtifact = {
    format: 'searchloop.engagement',
    version: 1,
    target: settings.target,
    vocabulary,
    model: result.model,
  };
  return {
    kind: 'trained',
    metrics: {
      target: settings.target,
      auc: finiteOrNull(report.auc),
      logLoss: finiteOrNull(report.logLoss),
      calibrationError: finiteOrNull(report.ece),
      baseRate: finiteOrNull(report.baseRate),
      meanPrediction: finiteOrNull(report.meanPrediction),
      heldOutExamples: report.n,
      featureImportance: featureImportance(result.model),
      trees: result.model.trees.length,
    },
    counts: { ...counts, trainExamples: trainEx.length, heldOutExamples: heldOut.length },
    artifact: JSON.stringify(artifact),
    comparison: { metric: 'logLoss', higherIsBetter: false, value: finiteOrNull(report.logLoss), active },
  };
}
