import type { FeedbackItemFields } from '../storage/tables/feedback-row.js';
/** One stored feedback item, flattened: the known customMetadata fields are columns (the row mapping: storage/tables/feedback-row.ts). */
export type FeedbackRecord = FeedbackItemFields;

export interface FeedbackSubmissionRecord {
  id: string;
  sessionId: string;
  itemCount: number;
  receivedAt: number;
}

export interface IdempotencyRecord {
  scope: string;
  key: string;
  requestHash: string;
  statusCode: number;
  responseBody: string;
  createdAt: number;
}

export interface NewSubmission {
  submission: FeedbackSubmissionRecord;
  items: FeedbackRecord[];
  idempotency?: IdempotencyRecord;
}

export interface FeedbackFilter {
  sessionId?: string;
  queryId?: string;
  since?: number;
  until?: number;
  /** Keyset cursor: items after this id in the chosen order. */
  afterId?: string;
  /** Most recently received first (ids descend); default oldest first. */
  newestFirst?: boolean;
}

export interface FeedbackStore {
  findIdempotencyRecord(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Writes several submissions, their items and idempotency records in ONE transaction (group
   * commit). Per submission: 'duplicate-key' (nothing written for it) when its idempotency key
   * was already taken, by an earlier request or an earlier entry of the same batch.
   */
  insertSubmissions(batch: NewSubmission[]): Promise<('inserted' | 'duplicate-key')[]>;
  getSubmission(id: string): Promise<{ submission: FeedbackSubmissionRecord; items: FeedbackRecord[] } | undefined>;
  /** Items matching the filter in id order, at most `limit`. */
  listItems(filter: FeedbackFilter, limit: number): Promise<FeedbackRecord[]>;
  deleteSession(sessionId: string): Promise<{ items: number; submissions: number }>;
  /** Forgets idempotency records created before `cutoff`; returns how many went. */
  deleteIdempotencyRecordsBefore(cutoff: number): Promise<number>;
}
