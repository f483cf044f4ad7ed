import { sql, type Kysely } from 'kysely';

/**
 * Search analytics, issue 12: which experiments cover a query. Per experiment phase, variant and
 * query hash, the searches attributed to the experiment and those with a click, kept by attribution
 * in the transaction that marks feedback attributed (additive upsert, like the variant sums). The
 * index on query_hash makes "experiments covering this query" an index range.
 *
 * Backfill: attribution already recorded each attributed search (experiment_searches: unit, queryId,
 * has_click) but not its hash, so the rows are rebuilt from the feedback that opened each search and
 * brought its first click, by the rule attribution follows from now on: items are attributed in id
 * order, so the opener is the search's lowest-id attributed item inside the unit's window (received at
 * or after the exposure, before the phase ended), the first click its lowest-id `click` item there, and
 * each counts under its own query_hash (null: not counted); last_seen is the latest of their received
 * times. Without it, clicks arriving after the upgrade for searches opened before it would count as
 * clicked searches of a query with no searches. Searches whose feedback retention or erasure already
 * removed are not recovered (their items are gone).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('experiment_query_sums')
    .addColumn('experiment_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('variant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('query_hash', 'varchar(256)', (c) => c.notNull())
    .addColumn('searches', 'bigint', (c) => c.notNull())
    .addColumn('clicked_searches', 'bigint', (c) => c.notNull())
    .addColumn('last_seen', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('experiment_query_sums_pk', ['experiment_id', 'phase', 'variant_id', 'query_hash'])
    .execute();
  // Columns no upsert changes: growing sums leave this index as it is (on PostgreSQL, HOT updates when the page has room).
  await db.schema
    .createIndex('experiment_query_sums_query_idx')
    .on('experiment_query_sums')
    .columns(['query_hash', 'experiment_id', 'phase'])
    .execute();

  // The lowest-id attributed item of a search inside its unit's window; `click` is the vocabulary's one click verb.
  const firstItem = (clicksOnly: boolean) => sql`(select min(o.id) from feedback_items o
    where o.session_id = s.unit_id and o.query_id = s.query_id and o.attributed = 1
      and o.received_at >= u.exposed_at and (p.ended_at is null or o.received_at < p.ended_at)
      ${clicksOnly ? sql`and o.user_action = 'click'` : sql``})`;
  const counted = (searches: number, clicked: number, clicksOnly: boolean) => sql`
    select s.experiment_id, s.phase, u.variant_id, f.query_hash, ${sql.lit(searches)} as searches,
      ${sql.lit(clicked)} as clicked_searches, f.received_at as last_seen
    from experiment_searches s
    join experiment_units u on u.experiment_id = s.experiment_id and u.phase = s.phase and u.unit_id = s.unit_id
    join experiment_phases p on p.experiment_id = s.experiment_id and p.phase = s.phase
    join feedback_items f on f.id = ${firstItem(clicksOnly)}
    where f.query_hash is not null ${clicksOnly ? sql`and s.has_click = 1` : sql``}`;
  await sql`insert into experiment_query_sums
      (experiment_id, phase, variant_id, query_hash, searches, clicked_searches, last_seen)
    select experiment_id, phase, variant_id, query_hash, sum(searches), sum(clicked_searches), max(last_seen)
    from (${counted(1, 0, false)} union all ${counted(0, 1, true)}) t
    group by experiment_id, phase, variant_id, query_hash`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('experiment_query_sums').ifExists().execute();
}
