import type { ModelSettings } from '../../model/model-config.js';
import type { FeedbackColumns } from './feedback-columns.js';

/** What the job runner sends a worker thread: plain data only. */
export interface TrainingInput {
  settings: ModelSettings;
  window: { start: number; end: number };
  feedback?: FeedbackColumns;
  /** LETOR text of an uploaded dataset (rankers trained from a dataset). */
  dataset?: string;
  /** The active version's artifact, scored on the same held-out data to decide replacement. */
  activeArtifact?: string;
  /** A click model's artifact whose judgments label a ranker's pairs. */
  judgmentsArtifact?: string;
}

/** The held-out figure versions are compared on. */
export interface Comparison {
  metric: string;
  higherIsBetter: boolean;
  value: number | null;
  /** The active version on the same held-out data (null: none, or not comparable). */
  active: number | null;
}

export type TrainingOutput =
  | { kind: 'no-data'; message: string; counts: Record<string, number> }
  | { kind: 'trained'; metrics: Record<string, unknown>; counts: Record<string, number>; artifact: string; comparison: Comparison };

/** Finite numbers only: NaN and infinities become null so metrics survive JSON. */
export function finiteOrNull(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x;
}
