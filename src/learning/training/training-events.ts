import { groupDigits } from '../../common/numbers.js';
import type { CompletedRun } from './training-job.store.js';

/** One domain event of a finished training run, as DomainEventLog.record takes it. */
export interface TrainingEvent {
  event: 'model.trained' | 'model.activated' | 'model.rejected' | 'model.failed';
  fields: Record<string, unknown>;
  message: string;
}

// How each held-out metric reads in a sentence (the comparison's metric names, runs/*.ts).
const METRIC_NAMES: Record<string, string> = { 'ndcg@10': 'NDCG@10', logLikelihood: 'log-likelihood', logLoss: 'log loss' };
// The count a version was fitted on, by model kind: ranker, click model, engagement model.
const TRAIN_COUNTS: [key: string, words: string][] = [
  ['trainRows', 'train rows'],
  ['trainSessions', 'train sessions'],
  ['trainExamples', 'train examples'],
];

const seconds = (s: number) => `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
const figure = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(2));

/** "NDCG@10 0.71, 720 train rows, 41 s": what a version scored, on how much, in how long. */
function versionFigures(version: NonNullable<CompletedRun['version']>): string {
  const parts: string[] = [];
  const compared = version.metrics.comparedOn as { metric?: string; value?: number | null } | undefined;
  if (compared?.metric !== undefined && typeof compared.value === 'number') {
    parts.push(`${METRIC_NAMES[compared.metric] ?? compared.metric} ${figure(compared.value)}`);
  }
  const count = TRAIN_COUNTS.find(([key]) => typeof version.counts[key] === 'number');
  if (count) parts.push(`${groupDigits(version.counts[count[0]]!)} ${count[1]}`);
  parts.push(seconds(version.trainingSeconds));
  return parts.join(', ');
}

/**
 * The log lines of a finished run: a version trained and then activated or rejected, or the run
 * failed. A run that found no data writes none (a model waiting for feedback retries every minute).
 * `version` is the number the store gave the new version; `activeBefore` the one serving before.
 */
export function trainingEvents(modelId: string, run: CompletedRun, version: number | null, activeBefore: number | null): TrainingEvent[] {
  const model = `model "${modelId}"`;
  if (run.jobStatus === 'failed') {
    const still = activeBefore === null ? '' : ` (v${activeBefore} still serves)`;
    return [
      {
        event: 'model.failed',
        fields: { modelId, jobId: run.jobId, error: run.jobError, activeVersion: activeBefore },
        message: `${model} training failed: ${run.jobError ?? 'no reason given'}${still}`,
      },
    ];
  }
  if (!run.version || version === null) return [];
  const fields = { modelId, jobId: run.jobId, version, counts: run.version.counts, trainingSeconds: run.version.trainingSeconds };
  const trained: TrainingEvent = {
    event: 'model.trained',
    fields,
    message: `${model} trained: v${version} (${versionFigures(run.version)})`,
  };
  if (run.version.outcome === 'activated') {
    const replaces = activeBefore === null ? 'its first version' : `replaces v${activeBefore}`;
    return [
      trained,
      {
        event: 'model.activated',
        fields: { modelId, version, previousVersion: activeBefore },
        message: `${model} v${version} activated (${replaces})`,
      },
    ];
  }
  return [
    trained,
    {
      event: 'model.rejected',
      fields: { modelId, version, activeVersion: activeBefore },
      message: `${model} v${version} not activated: ${run.version.message ?? `v${activeBefore} stays active`}`,
    },
  ];
}
