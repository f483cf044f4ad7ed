import type { FeedbackRecord } from '../feedback.store.js';

/** One item to import and the digest that identifies it across re-imports. */
export interface ImportEntry {
  key: string;
  record: FeedbackRecord;
}

export interface ImportBatchResult {
  inserted: number;
  duplicates: number;
}

export interface FeedbackImportStore {
  /**
   * In ONE transaction: claims each entry's key (an entry whose key is already taken is a
   * duplicate and writes nothing), inserts the claimed items, and one submission row per
   * submission id among them with its item count. Keys must be distinct within a batch.
   */
  importBatch(entries: ImportEntry[], importedAt: number): Promise<ImportBatchResult>;
}

/** Submission rows for the inserted items: one per submission id, with its count. */
export function submissionsOf(records: FeedbackRecord[], receivedAt: number) {
  const bySubmission = new Map<string, { id: string; sessionId: string; itemCount: number; receivedAt: number }>();
  for (const r of records) {
    const found = bySubmission.get(r.submissionId);
    if (found) found.itemCount += 1;
    else bySubmission.set(r.submissionId, { id: r.submissionId, sessionId: r.sessionId, itemCount: 1, receivedAt });
  }
  return [...bySubmission.values()];
}
