import type { Kysely } from 'kysely';

/**
 * The closed loop (issue 10): model aliases with their append-only history, and the interleaved
 * lists POST /api/nous/rank showed, keyed by query, with the credit their clicks earned so far.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('model_aliases')
    .addColumn('alias', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('model_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('model_alias_events')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('from_model_id', 'varchar(64)')
    .addColumn('from_version', 'integer')
    .addColumn('to_model_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('to_version', 'integer')
    .addColumn('reason', 'text')
    .addColumn('experiment_id', 'varchar(26)')
    .execute();
  await db.schema.createIndex('model_alias_events_alias_idx').on('model_alias_events').columns(['alias', 'id']).execute();

  await db.schema
    .createTable('interleaved_queries')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('unit_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('recorded_at', 'bigint', (c) => c.notNull())
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('credit', 'text')
    .addPrimaryKeyConstraint('interleaved_queries_pk', ['experiment_id', 'phase', 'unit_id', 'query_id'])
    .execute();
  await db.schema.createIndex('interleaved_queries_query_idx').on('interleaved_queries').columns(['unit_id', 'query_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('interleaved_queries').ifExists().execute();
  await db.schema.dropTable('model_alias_events').ifExists().execute();
  await db.schema.dropTable('model_aliases').ifExists().execute();
}
