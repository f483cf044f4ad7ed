import { PostgresAdapter, sql, type Kysely } from 'kysely';

// A frozen copy of storage/feedback-partitions.ts as it was when this migration landed: a landed
// migration must not change when runtime code does (the retention store keeps its own, live copy).
const DAY_MS = 86_400_000;
const FEEDBACK_PARTITIONS_AHEAD_DAYS = 7;

/** DDL for the partitions of the day holding `now` and the `ahead` days after it. */
function partitionDdl(now: number, ahead: number): { name: string; create: string }[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: ahead + 1 }, (_, i) => {
    const from = today + i * DAY_MS;
    const name = `feedback_items_p${new Date(from).toISOString().slice(0, 10).replaceAll('-', '')}`;
    return {
      name,
      create: `create table if not exists ${name} partition of feedback_items for values from (${from}) to (${from + DAY_MS})`,
    };
  });
}

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
  // Every index of the table (earlier migrations add their own, e.g. analytics' backlog index) is
  // recreated by its own definition on the new table; the two unique constraints are rebuilt below.
  const { rows: indexes } = await sql<{ indexdef: string }>`
    select i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = 'feedback_items'
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = (select oid from pg_namespace where nspname = current_schema()))`.execute(
    db,
  );
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
  for (const { indexdef } of indexes) await sql.raw(indexdef).execute(db);
  await sql`create index feedback_items_received_idx on feedback_items (received_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('feedback_submissions_received_idx').execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema.dropIndex('feedback_items_received_idx').execute();
    return;
  }
  const { rows: indexes } = await sql<{ indexdef: string }>`
    select i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = 'feedback_items' and i.indexname <> 'feedback_items_received_idx'
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.connamespace = (select oid from pg_namespace where nspname = current_schema()))`.execute(
    db,
  );
  await sql`alter table feedback_items rename to feedback_items_partitioned`.execute(db);
  await sql`create table feedback_items (like feedback_items_partitioned including defaults)`.execute(db);
  await sql`insert into feedback_items select * from feedback_items_partitioned`.execute(db);
  await sql`drop table feedback_items_partitioned`.execute(db);
  await sql`alter table feedback_items add primary key (id)`.execute(db);
  await sql`alter table feedback_items add constraint feedback_items_submission_seq_uq unique (submission_id, seq)`.execute(db);
  for (const { indexdef } of indexes) await sql.raw(indexdef.replace(/ ONLY /, ' ')).execute(db);
}
