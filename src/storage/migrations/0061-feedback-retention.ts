import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { FEEDBACK_PARTITIONS_AHEAD_DAYS, partitionDdl } from '../feedback-partitions.js';

/**
 * Retention removes feedback by `received_at`, so both feedback tables get an index on it. On
 * PostgreSQL `feedback_items` becomes a table partitioned by day of `received_at`, so that old days
 * are dropped whole (no table-wide delete, no long lock): the existing rows are copied into the new
 * table once (today's into their day's partition, older ones into the default partition, which
 * retention empties in small batches), then the old table goes. Indexes and constraints keep their
 * names; the primary key and the (submission, seq) key gain `received_at`, as PostgreSQL requires of
 * unique keys on a partitioned table (both were unique without it: ids are never reused, and all
 * items of a submission share its `received_at`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('feedback_submissions_received_idx').on('feedback_submissions').column('received_at').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema.createIndex('feedback_items_received_idx').on('feedback_items').column('received_at').execute();
    return;
  }
  await sql`alter table feedback_items rename to feedback_items_unpartitioned`.execute(db);
  await sql`create table feedback_items (like feedback_items_unpartitioned including defaults) partition by range (received_at)`.execute(
    db,
  );
  await sql`create table feedback_items_default partition of feedback_items default`.execute(db);
  for (const ddl of partitionDdl(Date.now(), FEEDBACK_PARTITIONS_AHEAD_DAYS)) await sql.raw(ddl.create).execute(db);
  await sql`insert into feedback_items select * from feedback_items_unpartitioned`.execute(db);
  await sql`drop table feedback_items_unpartitioned`.execute(db);
  await sql`alter table feedback_items add constraint feedback_items_pkey primary key (id, received_at)`.execute(db);
  await sql`alter table feedback_items add constraint feedback_items_submission_seq_uq unique (submission_id, seq, received_at)`.execute(
    db,
  );
  await sql`create index feedback_items_session_idx on feedback_items (session_id, id)`.execute(db);
  await sql`create index feedback_items_query_idx on feedback_items (query_id, id)`.execute(db);
  await sql`create index feedback_items_event_time_idx on feedback_items (event_time)`.execute(db);
  await sql`create index feedback_items_received_idx on feedback_items (received_at)`.execute(db);
  await sql`create index feedback_items_unattributed_idx on feedback_items (id) where attributed = 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feedback_submissions_received_idx').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema.dropIndex('feedback_items_received_idx').execute();
    return;
  }
  await sql`alter table feedback_items rename to feedback_items_partitioned`.execute(db);
  await sql`create table feedback_items (like feedback_items_partitioned including defaults)`.execute(db);
  await sql`insert into feedback_items select * from feedback_items_partitioned`.execute(db);
  await sql`drop table feedback_items_partitioned`.execute(db);
  await sql`alter table feedback_items add primary key (id)`.execute(db);
  await sql`alter table feedback_items add constraint feedback_items_submission_seq_uq unique (submission_id, seq)`.execute(db);
  await sql`create index feedback_items_session_idx on feedback_items (session_id, id)`.execute(db);
  await sql`create index feedback_items_query_idx on feedback_items (query_id, id)`.execute(db);
  await sql`create index feedback_items_event_time_idx on feedback_items (event_time)`.execute(db);
  await sql`create index feedback_items_unattributed_idx on feedback_items (id) where attributed = 0`.execute(db);
}
