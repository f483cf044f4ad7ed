import type { Kysely } from 'kysely';

/**
 * Bulk import (issue 14): one row per imported item, keyed by a digest of the line it came
 * from, so importing the same file again stores nothing new (ON CONFLICT DO NOTHING).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feedback_import_keys')
    .addColumn('import_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('item_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feedback_import_keys').ifExists().execute();
}
