import type { FakeFeedbackStore } from './fake-feedback.store.js';
import type { FeedbackRetentionStore, RetentionOutcome } from './feedback-retention.store.js';

/**
 * In-memory FeedbackRetentionStore over a FakeFeedbackStore's items and submissions, so what it
 * removes is gone from the feedback fake too. It has no partitions, like SQLite: ensurePartitions
 * creates none and nothing is dropped whole. Batches are not observable in memory (no writer waits
 * between them), so it removes everything past the cutoff at once; the totals are the same.
 */
export class FakeFeedbackRetentionStore implements FeedbackRetentionStore {
  constructor(private readonly feedback: FakeFeedbackStore) {}

  async ensurePartitions(): Promise<number> {
    return 0;
  }

  async removeReceivedBefore(cutoff: number): Promise<RetentionOutcome> {
    const { items, submissions } = this.feedback;
    const before = items.length;
    for (let i = items.length - 1; i >= 0; i -= 1) if (items[i]!.receivedAt < cutoff) items.splice(i, 1);
    let removedSubmissions = 0;
    for (const [id, s] of submissions) {
      if (s.receivedAt >= cutoff) continue;
      submissions.delete(id);
      removedSubmissions += 1;
    }
    return { items: before - items.length, submissions: removedSubmissions, partitionsDropped: 0 };
  }
}
