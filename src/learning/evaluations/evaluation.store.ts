import type { NewestFirstKey } from '../../common/pagination.js';

export type EvaluationStatus = 'running' | 'done' | 'failed';

/** One stored evaluation; `request` and `result` are the JSON the service wrote. */
export interface EvaluationRecord {
  id: string;
  name: string;
  status: EvaluationStatus;
  progress: number;
  request: string;
  result: string | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
  /** Moves while it runs: a running row whose beat stopped was left by a process that stopped. */
  heartbeatAt: number;
  createdBy: string;
  candidateModelId: string | null;
  candidateVersion: number | null;
}

/** What an evaluation reads of each feedback item in its window (a read model over feedback_items). */
export interface WindowRow {
  queryId: string;
  sessionId: string;
  queryHash: string | null;
  resultId: string | null;
  position: number | null;
  action: string | null;
  dwellTime: number | null;
  deviceType: string | null;
  /** The client's extra customMetadata as JSON text (holds `features`). */
  extra: string | null;
  eventTime: number;
}

export interface WindowCursor {
  eventTime: number;
  id: string;
}

export interface EvaluationStore {
  insert(record: EvaluationRecord): Promise<void>;
  /** Progress and heartbeat of a running evaluation (never moves a finished one). */
  setProgress(id: string, progress: number, at: number): Promise<void>;
  finish(id: string, outcome: { status: 'done'; result: string } | { status: 'failed'; error: string }, at: number): Promise<void>;
  get(id: string): Promise<EvaluationRecord | undefined>;
  /** Newest first; limit + 1 rows for toPage. */
  list(filter: { modelId?: string; after?: NewestFirstKey }, limit: number): Promise<EvaluationRecord[]>;
  /** Every finished evaluation of a model candidate, for the track record. */
  listDoneWithModel(): Promise<EvaluationRecord[]>;
  /**
   * Searches (distinct queryIds) with at least one impression in [start, end) (event time); with
   * `receivedBefore`, only impressions the service had received by then (what a training run read).
   */
  countSearches(window: { start: number; end: number }, receivedBefore?: number): Promise<number>;
  /** The window's feedback items in (eventTime, id) order, a page at a time. */
  readWindowPage(
    window: { start: number; end: number },
    after: WindowCursor | undefined,
    limit: number,
  ): Promise<{ rows: WindowRow[]; last: WindowCursor | undefined }>;
}
