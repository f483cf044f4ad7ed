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
}
