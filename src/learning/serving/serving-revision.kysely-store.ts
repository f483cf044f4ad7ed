import { sql, type Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';

/**
 * The serving cache's revision (ServingCache): changes with every write that can change what rank
 * serves, on any instance. Each part only grows: a trained or imported version raises its model's
 * latest_version (a version is only ever activated as it is written, and versions are never deleted);
 * every alias move, clearing included, appends an event; registering a model adds a row (models are
 * never deleted). Three aggregates over small tables, read once a second.
 */
export async function servingRevision(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ versions: number | string | null; moves: number | string; models: number | string }>`
    select
      (select sum(latest_version) from model_training_state) as versions,
      (select count(*) from model_alias_events) as moves,
      (select count(*) from models) as models
  `.execute(db);
  const r = rows[0];
  return r ? `${r.versions ?? 0}:${r.moves}:${r.models}` : '';
}
