import { isImpression } from '../../vocabulary/index.js';
import type { FeedbackRow } from './runs/feedback-columns.js';
import type { FeedbackCursor, TrainingDataStore } from './training-data.store.js';

/** A feedback row as the training read model sees it, with the item's id for the keyset. */
export type TrainingFeedbackRow = FeedbackRow & { id: string };

/**
 * In-memory TrainingDataStore over feedback the test hands in (the feedback module owns the
 * items); test/contract holds it to the Kysely read model.
 */
export class FakeTrainingDataStore implements TrainingDataStore {
  constructor(private readonly feedback: () => readonly TrainingFeedbackRow[]) {}

  async readPage(window: { start: number; end: number }, after: FeedbackCursor | undefined, limit: number) {
    const rows = this.feedback()
      .filter((r) => r.eventTime >= window.start && r.eventTime < window.end)
      .filter((r) => !after || r.eventTime > after.eventTime || (r.eventTime === after.eventTime && r.id > after.id))
      .sort((a, b) => a.eventTime - b.eventTime || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    const last = rows[rows.length - 1];
    return {
      rows: rows.map(({ id: _id, ...row }) => row),
      last: last ? { eventTime: last.eventTime, id: last.id } : undefined,
    };
  }

  async hasImpressions(window: { start: number; end: number }) {
    return this.feedback().some(
      (r) =>
        r.eventTime >= window.start && r.eventTime < window.end && isImpression(r.action) && r.queryHash !== null && r.position !== null,
    );
  }
}
