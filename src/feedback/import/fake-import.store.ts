import type { FeedbackRecord } from '../feedback.store.js';
import { submissionsOf, type FeedbackImportStore, type ImportBatchResult, type ImportEntry } from './import.store.js';

/** In memory, held to the Kysely store by test/contract/feedback-import.contract.test.ts. */
export class FakeFeedbackImportStore implements FeedbackImportStore {
  readonly keys = new Map<string, string>();
  readonly items: FeedbackRecord[] = [];
  readonly submissions: ReturnType<typeof submissionsOf> = [];

  async importBatch(entries: ImportEntry[], importedAt: number): Promise<ImportBatchResult> {
    const fresh = entries.filter((e) => !this.keys.has(e.key));
    for (const e of fresh) this.keys.set(e.key, e.record.id);
    this.items.push(...fresh.map((e) => e.record));
    this.submissions.push(
      ...submissionsOf(
        fresh.map((e) => e.record),
        importedAt,
      ),
    );
    return { inserted: fresh.length, duplicates: entries.length - fresh.length };
  }
}
