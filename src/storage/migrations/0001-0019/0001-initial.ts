import type { Kysely } from 'kysely';

// Never edit a migration that has landed: add a new file instead.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feedback_submissions')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_submissions_session_idx').on('feedback_submissions').columns(['session_id', 'id']).execute();

  await db.schema
    .createTable('feedback_items')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('submission_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('query_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('rating', 'double precision')
    .addColumn('user_action', 'varchar(64)')
    .addColumn('event_time', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('result_id', 'varchar(256)')
    .addColumn('query_hash', 'varchar(256)')
    .addColumn('engagement_type', 'varchar(64)')
    .addColumn('search_type', 'varchar(64)')
    .addColumn('position', 'integer')
    .addColumn('time_to_click', 'double precision')
    .addColumn('device_type', 'varchar(64)')
    .addColumn('viewport_width', 'double precision')
    .addColumn('viewport_height', 'double precision')
    .addColumn('scroll_depth', 'double precision')
    .addColumn('dwell_time', 'double precision')
    .addColumn('category', 'varchar(256)')
    .addColumn('language', 'varchar(64)')
    .addColumn('extra_metadata', 'text')
    .addUniqueConstraint('feedback_items_submission_seq_uq', ['submission_id', 'seq'])
    .execute();
  await db.schema.createIndex('feedback_items_session_idx').on('feedback_items').columns(['session_id', 'id']).execute();
  await db.schema.createIndex('feedback_items_query_idx').on('feedback_items').columns(['query_id', 'id']).execute();
  await db.schema.createIndex('feedback_items_event_time_idx').on('feedback_items').columns(['event_time']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('scope', 'varchar(64)', (c) => c.notNull())
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response_body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();

  await db.schema
    .createTable('models')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('models_type_status_idx').on('models').columns(['type', 'status', 'id']).execute();

  await db.schema
    .createTable('experiments')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('start_date', 'bigint')
    .addColumn('end_date', 'bigint')
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('experiments_status_idx').on('experiments').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['experiments', 'models', 'idempotency_keys', 'feedback_items', 'feedback_submissions']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
