/**
 * The service's own training path, fed the simulated log as the job runner would feed it: one
 * FeedbackColumns row per impression (action `impression`, its position) and per click, the sample's
 * features in `customMetadata.features` (the item's extra JSON) on a result's first impression. The
 * trained version is scored the way serving scores it (behaviour table + the request's features).
 */
import { runTraining } from '../../src/learning/training/runs/run-training.js';
import { emptyColumns, type FeedbackColumns } from '../../src/learning/training/runs/feedback-columns.js';
import { resolveSettings, type RankerSettings } from '../../src/learning/model/model-config.js';
import type { RankerArtifact } from '../../src/learning/model/artifacts.js';
import { behaviourRow } from '../../src/learning/model/feature-rows.js';
import { compileModel, deserializeModel, rowFromMap, scoreRow } from '../../src/ranker/index.js';
import type { TrainingOutput } from '../../src/learning/training/runs/protocol.js';
import { forEachSession, type SimLog } from './simulate.js';
import type { World } from './world.js';

/** Per row of the sample: its features by name (all of them, zeros included: the sample's missing = 0). */
export function featureMaps(world: World): Record<string, number>[] {
  const { data } = world;
  const F = data.numFeatures;
  return Array.from({ length: data.numRows }, (_, r) => {
    const m: Record<string, number> = {};
    for (let f = 0; f < F; f++) m[`f${data.featureNames[f]}`] = data.features[r * F + f]!;
    return m;
  });
}

export function feedbackColumns(world: World, log: SimLog, features: Record<string, number>[]): FeedbackColumns {
  const cols = emptyColumns();
  const extra = features.map((m) => JSON.stringify({ features: m }));
  const seen = new Uint8Array(world.grade.length);
  const t0 = Date.UTC(2026, 0, 1);
  const push = (s: number, q: string, r: number, pos: number, action: string, ex: string | null) => {
    cols.queryId.push(`s${s}`);
    cols.queryHash.push(q);
    cols.resultId.push(world.docIds[r]!);
    cols.position.push(pos);
    cols.action.push(action);
    cols.eventTime.push(t0 + s);
    cols.rating.push(null);
    cols.dwellTime.push(null);
    cols.deviceType.push(null);
    cols.searchType.push(null);
    cols.language.push(null);
    cols.category.push(null);
    cols.viewportWidth.push(null);
    cols.viewportHeight.push(null);
    cols.extra.push(ex);
  };
  forEachSession(log, (s, q, rows, clicked) => {
    const qh = world.queryHashes[q]!;
    rows.forEach((r, i) => {
      push(s, qh, r, i + 1, 'impression', seen[r] ? null : extra[r]!);
      seen[r] = 1;
    });
    rows.forEach((r, i) => {
      if (clicked[i]) push(s, qh, r, i + 1, 'click', null);
    });
  });
  return cols;
}

/** The service's settings for a ranker config (validated as registration would). */
export function settingsOf(config: Record<string, unknown>): RankerSettings {
  return resolveSettings('ranker', config) as RankerSettings;
}

export interface ServiceRun {
  output: TrainingOutput;
  seconds: number;
  /** Per row of the sample (NaN when the run trained nothing). */
  scores: Float64Array;
}

export function trainService(
  world: World,
  cols: FeedbackColumns,
  settings: RankerSettings,
  features: Record<string, number>[],
): ServiceRun {
  const t = performance.now();
  let output: TrainingOutput;
  try {
    output = runTraining({ settings, window: { start: 0, end: Date.UTC(2027, 0, 1) }, feedback: cols });
  } catch (e) {
    // A run that throws is a failed version in the service; the table shows it as such ("—" and a note).
    output = { kind: 'no-data', message: `run threw: ${(e as Error).message}`, counts: {} };
  }
  const seconds = (performance.now() - t) / 1000;
  const scores = new Float64Array(world.grade.length).fill(Number.NaN);
  if (output.kind === 'trained') scoreArtifact(world, output.artifact, features, scores);
  return { output, seconds, scores };
}

/** As serving does: the behaviour table's row for (queryHash, resultId) with the request's features, or features by name. */
export function scoreArtifact(world: World, artifactJson: string, features: Record<string, number>[], into: Float64Array): void {
  const artifact = JSON.parse(artifactJson) as RankerArtifact;
  const model = deserializeModel(artifact.model);
  const forest = compileModel(model);
  const index = new Map(forest.featureNames.map((n, j) => [n, j]));
  world.queries.forEach((rows, q) => {
    for (const r of rows) {
      const row = artifact.behaviour
        ? behaviourRow(artifact.behaviour, world.queryHashes[q], world.docIds[r]!, features[r])
        : rowFromMap(forest, features[r]!, index);
      into[r] = scoreRow(forest, row, 0);
    }
  });
}
