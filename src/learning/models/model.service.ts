import { toIso, type Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { decodeCursor, decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import { MODEL_CONFIG_MAX_BYTES, resolveSettings } from '../model/model-config.js';
import type { DomainEventLog } from '../../common/domain-events.js';
import type { ModelVersionStore } from './model-version.store.js';
import type {
  ImportedVersionView,
  ModelCreateBody,
  ModelImportBody,
  ModelListQuery,
  ModelView,
  VersionListQuery,
  VersionView,
} from './model.schemas.js';
import { importRankerVersion } from './model-import.js';
import type { ImportedModelInfo } from '../model/artifacts.js';
import type { ModelStore } from './model.store.js';
import type { ModelVersion, TrainingState } from '../model/model-version.js';
import type { ModelRecord } from '../model/model-types.js';
import type { NewJob } from '../model/training-job.js';

export function toModelView(m: ModelRecord, state?: TrainingState): ModelView {
  const last = state?.lastOutcome ?? null;
  return {
    modelId: m.id,
    name: m.name,
    type: m.type,
    status: m.status,
    metrics: m.metrics,
    lastUpdated: toIso(m.updatedAt),
    config: m.config,
    error: m.error,
    createdAt: toIso(m.createdAt),
    activeVersion: state?.activeVersion ?? null,
    lastTraining: last === null ? null : { at: toIso(last.at), version: last.version, outcome: last.outcome, message: last.message },
    nextTrainingAt: state?.nextRetrainAt == null ? null : toIso(state.nextRetrainAt),
  };
}

function toVersionView(v: ModelVersion, activeVersion: number | null): VersionView {
  const imported = v.metrics.source === 'import' ? (v.metrics.imported as ImportedModelInfo | undefined) : undefined;
  return {
    version: v.version,
    active: v.version === activeVersion,
    outcome: v.outcome,
    message: v.message,
    metrics: v.metrics,
    counts: v.counts,
    window: v.windowStart === null || v.windowEnd === null ? null : { from: toIso(v.windowStart), to: toIso(v.windowEnd) },
    trainingSeconds: v.trainingSeconds,
    createdAt: toIso(v.createdAt),
    source: imported ? 'import' : 'trained',
    ...(imported ? { imported } : {}),
  };
}

/** The model registry: what exists, of which type, in which state, with which metrics, and its versions. */
export class ModelService {
  constructor(
    private readonly store: ModelStore,
    private readonly versions: Pick<ModelVersionStore, 'getState' | 'getStates' | 'listVersions' | 'insertImported'>,
    private readonly clock: Clock,
    /** model.imported / model.activated lines of imports (silent when absent). */
    private readonly events?: DomainEventLog,
  ) {}

  /**
   * Registers a model and queues its first training run, except for a ranker trained from an
   * uploaded dataset: its first run is queued by the upload.
   */
  async register(body: ModelCreateBody): Promise<ModelView> {
    const config = body.config ?? {};
    const size = Buffer.byteLength(JSON.stringify(config), 'utf8');
    if (size > MODEL_CONFIG_MAX_BYTES) {
      throw ValidationError.field('/config', `serializes to ${size} bytes; at most ${MODEL_CONFIG_MAX_BYTES}`);
    }
    const settings = resolveSettings(body.type, config);
    const now = this.clock.now();
    const record: ModelRecord = {
      id: body.modelId ?? newId(),
      name: body.name,
      type: body.type,
      status: 'pending',
      config,
      metrics: {},
      error: null,
      createdAt: now,
      updatedAt: now,
    };
    const waitsForUpload = settings.kind === 'ranker' && settings.trainingData === 'dataset';
    const job: NewJob | undefined = waitsForUpload
      ? undefined
      : { id: newId(), modelId: record.id, reason: 'created', force: false, runAfter: now, requestedAt: now };
    if ((await this.store.insert(record, job)) === 'duplicate') {
      const field = body.modelId !== undefined && (await this.store.get(body.modelId)) ? 'modelId' : 'name';
      throw new ConflictError(`a model with this ${field} already exists`, [
        { path: `/${field}`, message: 'is already taken', in: 'body' },
      ]);
    }
    return toModelView(record);
  }

  /** Registers the model unless its id exists; true when it was created now. */
  async ensure(body: ModelCreateBody & { modelId: string }): Promise<boolean> {
    if (await this.store.get(body.modelId)) return false;
    try {
      await this.register(body);
      return true;
    } catch (error) {
      // Another instance registered it first.
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }

  async getRecord(modelId: string): Promise<ModelRecord> {
    const model = await this.store.get(modelId);
    if (!model) throw new NotFoundError(`model ${modelId} not found`);
    return model;
  }

  async get(modelId: string): Promise<ModelView> {
    const model = await this.getRecord(modelId);
    return toModelView(model, (await this.versions.getStates([modelId])).get(modelId));
  }

  async list(query: ModelListQuery): Promise<Page<ModelView>> {
    const after = decodeNewestFirstCursor(query.cursor);
    const rows = await this.store.list({ type: query.type, status: query.status, after }, query.limit + 1);
    const page = toPage(rows, query.limit, keyOfNewestFirst);
    const states = await this.versions.getStates(page.items.map((m) => m.id));
    return { items: page.items.map((m) => toModelView(m, states.get(m.id))), nextCursor: page.nextCursor };
  }

  async listVersions(modelId: string, query: VersionListQuery): Promise<Page<VersionView>> {
    await this.getRecord(modelId);
    const key = decodeCursor(query.cursor);
    const before = key === undefined ? undefined : Number(key);
    if (before !== undefined && !Number.isSafeInteger(before))
      throw ValidationError.field('/cursor', 'is not a cursor this service issued', 'querystring');
    const [rows, state] = await Promise.all([
      this.versions.listVersions(modelId, query.limit + 1, before),
      this.versions.getState(modelId),
    ]);
    const page = toPage(rows, query.limit, (v) => String(v.version));
    return { items: page.items.map((v) => toVersionView(v, state?.activeVersion ?? null)), nextCursor: page.nextCursor };
  }

  /** `POST …/versions/import`: a ranker version from an XGBoost or LightGBM model file (model-import.ts). */
  async importVersion(modelId: string, body: ModelImportBody): Promise<ImportedVersionView> {
    const model = await this.getRecord(modelId);
    const { version } = await importRankerVersion({ versions: this.versions, events: this.events, now: this.clock.now() }, model, body);
    const [row, state] = await Promise.all([this.versions.listVersions(modelId, 1, version + 1), this.versions.getState(modelId)]);
    if (row[0]?.version !== version) throw new NotFoundError(`model ${modelId} version ${version} not found`);
    return { modelId, ...toVersionView(row[0], state?.activeVersion ?? null) };
  }
}
