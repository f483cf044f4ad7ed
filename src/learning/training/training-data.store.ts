import type { FeedbackRow } from './runs/feedback-columns.js';

/** Keyset position in (eventTime, id) order. */
export interface FeedbackCursor {
  eventTime: number;
  id: string;
}

/** Read model over feedback_items for training: one window, oldest first, in pages. */
export interface TrainingDataStore {
  readPage(
    window: { start: number; end: number },
    after: FeedbackCursor | undefined,
    limit: number,
  ): Promise<{ rows: FeedbackRow[]; last: FeedbackCursor | undefined }>;
  /**
   * Whether the window holds at least one impression with a queryHash and a position: the least a
   * search needs to be a logged list that position bias can be estimated from. One indexed probe,
   * so POST …/train can refuse an ips ranker with nothing to harvest before queueing it.
   */
  hasImpressions(window: { start: number; end: number }): Promise<boolean>;
}
