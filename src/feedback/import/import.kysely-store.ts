import { CompiledQuery } from 'kysely';
import type { DatabaseHandle } from '../../storage/database.js';
import { PG_IMPORT_ITEMS, SqliteBulkStatements, itemArrays } from './store/bulk-statements.js';
import { submissionsOf, type FeedbackImportStore, type ImportBatchResult, type ImportEntry } from './import.store.js';

/**
 * The import's writes, one transaction per batch, with the plain bulk statements of
 * store/bulk-statements.ts (the same ones bench/import's raw ceiling uses): on SQLite prepared
 * statements reused row by row, on PostgreSQL one unnest statement per batch that claims the
 * keys, inserts the claimed items and their submission rows.
 */
export class KyselyFeedbackImportStore implements FeedbackImportStore {
  private statements: SqliteBulkStatements | undefined;

  constructor(private readonly database: Pick<DatabaseHandle, 'db' | 'sqliteTransaction'>) {}

  async importBatch(entries: ImportEntry[], importedAt: number): Promise<ImportBatchResult> {
    if (entries.length === 0) return { inserted: 0, duplicates: 0 };
    if (this.database.sqliteTransaction) {
      // Resolves once the batch is on disk: only then may it count as imported and the resume position move past it.
      return this.database.sqliteTransaction((connection) => {
        const statements = (this.statements ??= new SqliteBulkStatements(connection));
        const records = entries.filter((e) => statements.claimKey.run([e.key, e.record.id, importedAt]).changes === 1).map((e) => e.record);
        statements.items(records);
        statements.submissions(submissionsOf(records, importedAt));
        return { inserted: records.length, duplicates: entries.length - records.length };
      });
    }
    const records = entries.map((e) => e.record);
    const { rows } = await this.database.db.executeQuery<{ inserted: number }>(
      CompiledQuery.raw(PG_IMPORT_ITEMS, [...itemArrays(records), entries.map((e) => e.key), importedAt]),
    );
    const inserted = rows[0]?.inserted ?? 0;
    return { inserted, duplicates: entries.length - inserted };
  }
}
