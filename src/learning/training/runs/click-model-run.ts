import { evaluate, fitClickModel, restoreClickModel, splitByTime, type SerializedClickModel } from '../../../click-models/index.js';
import type { ClickModelSettings } from '../../model/model-config.js';
import { emptyColumns } from './feedback-columns.js';
import { finiteOrNull, type TrainingInput, type TrainingOutput } from './protocol.js';
import { buildSessions } from './sessions.js';

const DEFAULT_DEPTH = 10;

/** Fits on the earlier sessions of the window and scores on its latest `heldOutFraction`. */
export function runClickModel(input: TrainingInput, settings: ClickModelSettings): TrainingOutput {
  const depth = settings.maxDepth ?? DEFAULT_DEPTH;
  const { sessions, stats } = buildSessions(input.feedback ?? emptyColumns(), depth);
  const counts = { feedbackItems: input.feedback?.queryId.length ?? 0, ...stats };
  if (sessions.length === 0) {
    return {
      kind: 'no-data',
      message: 'no searches with impressions or clicks (with positions and a queryHash) in the training window',
      counts,
    };
  }
  const { train, heldOut } = splitByTime(sessions, settings.heldOutFraction);
  const model = fitClickModel(train, {
    algorithm: settings.algorithm,
    maxDepth: depth,
    ...(settings.iterations === undefined ? {} : { iterations: settings.iterations }),
    ...(settings.examinationMinImpressions === undefined ? {} : { examinationMinImpressions: settings.examinationMinImpressions }),
  });
  const ev = evaluate(model, heldOut);
  let active: number | null = null;
  if (input.activeArtifact && heldOut.length > 0) {
    const previous = restoreClickModel(JSON.parse(input.activeArtifact) as SerializedClickModel);
    active = finiteOrNull(evaluate(previous, heldOut).logLikelihood);
  }
  const queries = new Set(sessions.map((s) => s.queryHash)).size;
  const allCounts = {
    ...counts,
    trainSessions: train.length,
    heldOutSessions: heldOut.length,
    queries,
    results: new Set(sessions.flatMap((s) => s.resultIds)).size,
    pairs: model.summary.pairs,
    clicks: model.summary.clicks,
  };
  const metrics = {
    algorithm: model.algorithm,
    examination: model.examination,
    logLikelihood: finiteOrNull(ev.logLikelihood),
    perplexity: finiteOrNull(ev.perplexity),
    perplexityByRank: ev.perplexityByRank.map(finiteOrNull),
    conditionalPerplexity: finiteOrNull(ev.conditionalPerplexity),
    heldOutSessions: ev.sessions,
    impressionsInferred: stats.impressions > 0 ? stats.impressionsInferred / stats.impressions : 0,
    emIterations: model.summary.iterations,
    converged: model.summary.converged,
  };
  return {
    kind: 'trained',
    metrics,
    counts: allCounts,
    artifact: JSON.stringify(model.toJSON()),
    comparison: { metric: 'logLikelihood', higherIsBetter: true, value: metrics.logLikelihood, active },
  };
}
