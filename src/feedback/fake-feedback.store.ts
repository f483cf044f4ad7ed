import type {
  FeedbackFilter,
  FeedbackRecord,
  FeedbackStore,
  FeedbackSubmissionRecord,
  IdempotencyRecord,
  NewSubmission,
} from './feedback.store.js';

/** In-memory FeedbackStore for service unit tests. */
export class FakeFeedbackStore implements FeedbackStore {
  readonly submissions = new Map<string, FeedbackSubmissionRecord>();
  readonly items: FeedbackRecord[] = [];
  readonly idempotency = new Map<string, IdempotencyRecord>();

  async findIdempotencyRecord(scope: string, key: string) {
    return this.idempotency.get(`${scope}\u0000${key}`);
  }

  async insertSubmissions(batch: NewSubmission[]) {
    return batch.map(({ submission, items, idempotency }) => {
      if (idempotency) {
        const k = `${idempotency.scope}\u0000${idempotency.key}`;
        if (this.idempotency.has(k)) return 'duplicate-key' as const;
        this.idempotency.set(k, idempotency);
      }
      this.submissions.set(submission.id, submission);
      this.items.push(...items);
      return 'inserted' as const;
    });
  }

  async getSubmission(id: string) {
    const submission = this.submissions.get(id);
    if (!submission) return undefined;
    return { submission, items: this.items.filter((i) => i.submissionId === id).sort((a, b) => a.seq - b.seq) };
  }

  async listItems(filter: FeedbackFilter, limit: number) {
    return this.items
      .filter(
        (i) =>
          (filter.sessionId === undefined || i.sessionId === filter.sessionId) &&
          (filter.queryId === undefined || i.queryId === filter.queryId) &&
          (filter.since === undefined || i.eventTime >= filter.since) &&
          (filter.until === undefined || i.eventTime < filter.until) &&
          (filter.afterId === undefined || (filter.newestFirst ? i.id < filter.afterId : i.id > filter.afterId)),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1) * (filter.newestFirst ? -1 : 1))
      .slice(0, limit);
  }

  async deleteSession(sessionId: string) {
    const before = this.items.length;
    for (let i = this.items.length - 1; i >= 0; i -= 1) if (this.items[i]!.sessionId === sessionId) this.items.splice(i, 1);
    let submissions = 0;
    for (const [id, s] of this.submissions) {
      if (s.sessionId !== sessionId) continue;
      this.submissions.delete(id);
      submissions += 1;
    }
    return { items: before - this.items.length, submissions };
  }

  async deleteIdempotencyRecordsBefore(cutoff: number) {
    let deleted = 0;
    for (const [k, r] of this.idempotency) {
      if (r.createdAt >= cutoff) continue;
      this.idempotency.delete(k);
      deleted += 1;
    }
    return deleted;
  }
}
