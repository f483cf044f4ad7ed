import type { Kysely, Selectable } from 'kysely';
import type { Database, ModelAliasEventTable, ModelAliasTable } from '../../storage/schema.js';
import type { AliasChange, AliasEvent, AliasRecord, AliasStore } from './alias.store.js';

const fromRow = (r: Selectable<ModelAliasTable>): AliasRecord => ({
  alias: r.alias,
  modelId: r.model_id,
  version: r.version,
  updatedAt: Number(r.updated_at),
  updatedBy: r.updated_by,
  reason: r.reason,
  experimentId: r.experiment_id,
});

const eventFromRow = (r: Selectable<ModelAliasEventTable>): AliasEvent => ({
  id: r.id,
  alias: r.alias,
  at: Number(r.at),
  actor: r.actor,
  from: r.from_model_id === null ? null : { modelId: r.from_model_id, version: r.from_version },
  to: r.to_model_id === null ? null : { modelId: r.to_model_id, version: r.to_version },
  reason: r.reason,
  experimentId: r.experiment_id,
});

/**
 * Writes one alias move inside a caller's transaction: experiments' conclusion uses it so that the
 * promotion and the conclusion commit together (the container hands it over; no module imports it).
 */
export async function writeAliasMove(trx: Kysely<Database>, change: AliasChange): Promise<AliasEvent> {
  const { record, event } = change;
  const before = await trx.selectFrom('model_aliases').selectAll().where('alias', '=', record.alias).executeTakeFirst();
  const values = {
    model_id: record.modelId,
    version: record.version,
    updated_at: record.updatedAt,
    updated_by: record.updatedBy,
    reason: record.reason,
    experiment_id: record.experimentId,
  };
  await trx
    .insertInto('model_aliases')
    .values({ alias: record.alias, ...values })
    .onConflict((oc) => oc.column('alias').doUpdateSet(values))
    .execute();
  const written: AliasEvent = {
    ...event,
    from: before?.model_id ? { modelId: before.model_id, version: before.version } : null,
  };
  await trx
    .insertInto('model_alias_events')
    .values({
      id: written.id,
      alias: written.alias,
      at: written.at,
      actor: written.actor,
      from_model_id: written.from?.modelId ?? null,
      from_version: written.from?.version ?? null,
      to_model_id: written.to?.modelId ?? null,
      to_version: written.to?.version ?? null,
      reason: written.reason,
      experiment_id: written.experimentId,
    })
    .execute();
  return written;
}

export class KyselyAliasStore implements AliasStore {
  constructor(private readonly db: Kysely<Database>) {}

  async get(alias: string): Promise<AliasRecord | undefined> {
    const row = await this.db.selectFrom('model_aliases').selectAll().where('alias', '=', alias).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(afterAlias: string | undefined, limit: number): Promise<AliasRecord[]> {
    let query = this.db.selectFrom('model_aliases').selectAll();
    if (afterAlias !== undefined) query = query.where('alias', '>', afterAlias);
    return (await query.orderBy('alias').limit(limit).execute()).map(fromRow);
  }

  move(change: AliasChange): Promise<AliasEvent> {
    return this.db.transaction().execute((trx) => writeAliasMove(trx, change));
  }

  async listEvents(alias: string, afterId: string | undefined, limit: number): Promise<AliasEvent[]> {
    let query = this.db.selectFrom('model_alias_events').selectAll().where('alias', '=', alias);
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    return (await query.orderBy('id').limit(limit).execute()).map(eventFromRow);
  }
}
