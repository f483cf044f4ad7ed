import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import { toRow } from '../feedback.kysely-store.js';
import { submissionsOf, type FeedbackImportStore, type ImportBatchResult, type ImportEntry } from './import.store.js';

// 23 columns × 400 rows stays under SQLite's 32 766 bound-parameter limit.
const CHUNK = 400;

export class KyselyFeedbackImportStore implements FeedbackImportStore {
  constructor(private readonly db: Kysely<Database>) {}

  async importBatch(entries: ImportEntry[], importedAt: number): Promise<ImportBatchResult> {
    if (entries.length === 0) return { inserted: 0, duplicates: 0 };
    return this.db.transaction().execute(async (trx) => {
      const claimed = new Set<string>();
      for (let i = 0; i < entries.length; i += CHUNK * 4) {
        const rows = entries.slice(i, i + CHUNK * 4).map((e) => ({ import_key: e.key, item_id: e.record.id, imported_at: importedAt }));
        const won = await trx
          .insertInto('feedback_import_keys')
          .values(rows)
          .onConflict((oc) => oc.column('import_key').doNothing())
          .returning('import_key')
          .execute();
        for (const row of won) claimed.add(row.import_key);
      }
      const records = entries.filter((e) => claimed.has(e.key)).map((e) => e.record);
      for (let i = 0; i < records.length; i += CHUNK) {
        await trx
          .insertInto('feedback_items')
          .values(records.slice(i, i + CHUNK).map(toRow))
          .execute();
      }
      const submissions = submissionsOf(records, importedAt).map((s) => ({
        id: s.id,
        session_id: s.sessionId,
        item_count: s.itemCount,
        received_at: s.receivedAt,
      }));
      for (let i = 0; i < submissions.length; i += CHUNK) {
        await trx
          .insertInto('feedback_submissions')
          .values(submissions.slice(i, i + CHUNK))
          .execute();
      }
      return { inserted: records.length, duplicates: entries.length - records.length };
    });
  }
}
