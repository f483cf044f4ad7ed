import { sql, type Kysely } from 'kysely';

/**
 * An alias can be cleared: it then serves the search engine's original order (issue 25). Its
 * target (`model_aliases.model_id`) and an event's destination (`model_alias_events.to_model_id`)
 * become nullable, and the alias keeps the reason and experiment of its latest move so that the
 * production view reads "since when, by whom, why, from which experiment" from one row.
 *
 * SQLite cannot drop a NOT NULL constraint, so both dialects rebuild the two tables the same way:
 * create the new shape, copy, drop the old table (its index goes with it), rename, index again.
 */
async function rebuild(db: Kysely<any>, nullableTargets: boolean): Promise<void> {
  const target = (c: any) => (nullableTargets ? c : c.notNull());
  await db.schema
    .createTable('model_aliases_next')
    .addColumn('alias', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('model_id', 'varchar(64)', target)
    .addColumn('version', 'integer')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(200)', (c) => c.notNull())
    .$call((t) => (nullableTargets ? t.addColumn('reason', 'text').addColumn('experiment_id', 'varchar(26)') : t))
    .execute();
  await db.schema
    .createTable('model_alias_events_next')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('from_model_id', 'varchar(64)')
    .addColumn('from_version', 'integer')
    .addColumn('to_model_id', 'varchar(64)', target)
    .addColumn('to_version', 'integer')
    .addColumn('reason', 'text')
    .addColumn('experiment_id', 'varchar(26)')
    .execute();

  const columns = 'id, alias, at, actor, from_model_id, from_version, to_model_id, to_version, reason, experiment_id';
  if (nullableTargets) {
    // The latest event of each alias carries the reason and experiment of the move that set it.
    await sql`insert into model_aliases_next (alias, model_id, version, updated_at, updated_by, reason, experiment_id)
      select a.alias, a.model_id, a.version, a.updated_at, a.updated_by,
        (select e.reason from model_alias_events e where e.alias = a.alias order by e.id desc limit 1),
        (select e.experiment_id from model_alias_events e where e.alias = a.alias order by e.id desc limit 1)
      from model_aliases a`.execute(db);
    await sql.raw(`insert into model_alias_events_next (${columns}) select ${columns} from model_alias_events`).execute(db);
  } else {
    // Down: a cleared alias has no model to point at in the old shape, so it (and its clearing events) go.
    await sql`insert into model_aliases_next (alias, model_id, version, updated_at, updated_by)
      select alias, model_id, version, updated_at, updated_by from model_aliases where model_id is not null`.execute(db);
    await sql
      .raw(`insert into model_alias_events_next (${columns}) select ${columns} from model_alias_events where to_model_id is not null`)
      .execute(db);
  }
  await db.schema.dropTable('model_aliases').execute();
  await db.schema.dropTable('model_alias_events').execute();
  await db.schema.alterTable('model_aliases_next').renameTo('model_aliases').execute();
  await db.schema.alterTable('model_alias_events_next').renameTo('model_alias_events').execute();
  await db.schema.createIndex('model_alias_events_alias_idx').on('model_alias_events').columns(['alias', 'id']).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, false);
}
