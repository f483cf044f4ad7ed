import type { FeedbackRecord, NewSubmission } from '../../../src/feedback/feedback.store.js';

/** A feedback item with every column null but the ones given. */
export function feedbackItem(over: Partial<FeedbackRecord> & Pick<FeedbackRecord, 'id' | 'submissionId' | 'sessionId'>): FeedbackRecord {
  return {
    seq: 0,
    queryId: 'q',
    rating: null,
    userAction: null,
    eventTime: 1000,
    receivedAt: 1000,
    resultId: null,
    queryHash: null,
    engagementType: null,
    searchType: null,
    position: null,
    timeToClick: null,
    deviceType: null,
    viewportWidth: null,
    viewportHeight: null,
    scrollDepth: null,
    dwellTime: null,
    category: null,
    language: null,
    extraMetadata: null,
    ...over,
  };
}

let counter = 0;
/** Ids that sort in creation order, like the service's ULIDs. */
export const nextId = (prefix = 'id') => `${prefix}-${String((counter += 1)).padStart(8, '0')}`;

/** One submission of `items` (each: its columns; ids, seq and session are filled in). */
export function submission(
  sessionId: string,
  receivedAt: number,
  items: Partial<FeedbackRecord>[],
  idempotency?: { key: string; createdAt?: number },
): NewSubmission {
  const id = nextId('sub');
  return {
    submission: { id, sessionId, itemCount: items.length, receivedAt },
    items: items.map((over, seq) =>
      feedbackItem({ eventTime: receivedAt, receivedAt, ...over, id: nextId('item'), submissionId: id, sessionId, seq }),
    ),
    ...(idempotency
      ? {
          idempotency: {
            scope: 'feedback',
            key: idempotency.key,
            requestHash: `hash-of-${id}`,
            statusCode: 201,
            responseBody: JSON.stringify({ feedbackId: id }),
            createdAt: idempotency.createdAt ?? receivedAt,
          },
        }
      : {}),
  };
}
