import { sql, type Kysely, type Selectable } from 'kysely';
import type { DatabaseCapabilities } from '../../storage/database.js';
import type { Database, ModelVersionTable } from '../../storage/schema.js';
import type { ImportedVersionWrite, ModelVersionStore } from './model-version.store.js';
import type { LastOutcome, ModelVersion, TrainingState, VersionOutcome } from '../model/model-version.js';

function versionFromRow(row: Omit<Selectable<ModelVersionTable>, 'artifact'>): ModelVersion {
  return {
    modelId: row.model_id,
    version: row.version,
    jobId: row.job_id,
    outcome: row.outcome as VersionOutcome,
    message: row.message,
    metrics: JSON.parse(row.metrics) as Record<string, unknown>,
    counts: JSON.parse(row.counts) as Record<string, number>,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    trainingSeconds: row.training_seconds,
    createdAt: row.created_at,
  };
}

const VERSION_COLUMNS = [
  'model_id',
  'version',
  'job_id',
  'outcome',
  'message',
  'metrics',
  'counts',
  'window_start',
  'window_end',
  'training_seconds',
  'created_at',
] as const;

export class KyselyModelVersionStore implements ModelVersionStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** Instances taking due retrains lock the rows they take with SKIP LOCKED where the database can. */
    private readonly capabilities: Pick<DatabaseCapabilities, 'supportsSkipLocked'>,
  ) {}

  async getState(modelId: string): Promise<TrainingState | undefined> {
    return (await this.getStates([modelId])).get(modelId);
  }

  async getStates(modelIds: readonly string[]): Promise<Map<string, TrainingState>> {
    if (modelIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('model_training_state').selectAll().where('model_id', 'in', modelIds).execute();
    return new Map(
      rows.map((row) => [
        row.model_id,
        {
          modelId: row.model_id,
          activeVersion: row.active_version,
          latestVersion: row.latest_version,
          lastOutcome: row.last_outcome === null ? null : (JSON.parse(row.last_outcome) as LastOutcome),
          nextRetrainAt: row.next_retrain_at,
        },
      ]),
    );
  }

  async listVersions(modelId: string, limit: number, beforeVersion?: number): Promise<ModelVersion[]> {
    const rows = await this.db
      .selectFrom('model_versions')
      .select(VERSION_COLUMNS)
      .where('model_id', '=', modelId)
      .$if(beforeVersion !== undefined, (q) => q.where('version', '<', beforeVersion as number))
      .orderBy('version', 'desc')
      .limit(limit)
      .execute();
    return rows.map(versionFromRow);
  }

  async getArtifact(modelId: string, version: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('model_versions')
      .select('artifact')
      .where('model_id', '=', modelId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row?.artifact;
  }

  async takeDueRetrains(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .updateTable('model_training_state')
      .set({ next_retrain_at: null })
      .where('model_id', 'in', (eb) =>
        eb
          .selectFrom('model_training_state as s')
          .select('s.model_id')
          .where('s.next_retrain_at', '<=', now)
          .orderBy('s.next_retrain_at')
          .limit(limit)
          .$if(this.capabilities.supportsSkipLocked, (q) => q.forUpdate().skipLocked()),
      )
      .returning('model_id')
      .execute();
    return rows.map((r) => r.model_id);
  }

  async insertImported(w: ImportedVersionWrite): Promise<{ version: number; activeBefore: number | null }> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('model_training_state')
        .values({ model_id: w.modelId, active_version: null, latest_version: 0, last_outcome: null, next_retrain_at: null })
        .onConflict((oc) => oc.column('model_id').doNothing())
        .execute();
      // Read the state under the row lock the update takes: a training run finishing at the same
      // moment waits, so the two never take the same version number.
      const before = await trx
        .updateTable('model_training_state')
        .set({ latest_version: sql<number>`latest_version + 1` })
        .where('model_id', '=', w.modelId)
        .returning(['latest_version', 'active_version'])
        .executeTakeFirstOrThrow();
      const version = before.latest_version;
      const activated = w.outcome === 'activated';
      await trx
        .insertInto('model_versions')
        .values({
          model_id: w.modelId,
          version,
          job_id: w.importId,
          outcome: w.outcome,
          message: w.message,
          metrics: JSON.stringify({ version, ...w.metrics }),
          counts: JSON.stringify(w.counts),
          window_start: null,
          window_end: null,
          training_seconds: 0,
          artifact: w.artifact,
          created_at: w.createdAt,
        })
        .execute();
      await trx
        .updateTable('model_training_state')
        .set({
          ...(activated ? { active_version: version } : {}),
          last_outcome: JSON.stringify({ ...w.lastOutcome, version } satisfies LastOutcome),
        })
        .where('model_id', '=', w.modelId)
        .execute();
      if (activated) {
        await trx
          .updateTable('models')
          .set({
            status: 'ready',
            error: null,
            metrics: JSON.stringify({ version, ...w.modelMetrics }),
            updated_at: sql<number>`case when status = 'ready' then updated_at else ${w.createdAt} end`,
          })
          .where('id', '=', w.modelId)
          .execute();
      }
      // The active version before this import: unchanged by the update above when not activated.
      return { version, activeBefore: before.active_version };
    });
  }
}
