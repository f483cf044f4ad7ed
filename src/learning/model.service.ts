import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError } from '../http/errors.js';
import { MODEL_CONFIG_MAX_BYTES, type ModelCreateBody, type ModelListQuery, type ModelView } from './model.schemas.js';
import type { ModelRecord, ModelStore } from './model.store.js';

export function toModelView(m: ModelRecord): ModelView {
  return {
    modelId: m.id,
    name: m.name,
    type: m.type,
    status: m.status,
    metrics: m.metrics,
    lastUpdated: new Date(m.updatedAt).toISOString(),
    config: m.config,
    error: m.error,
    createdAt: new Date(m.createdAt).toISOString(),
  };
}

/** The model registry: what exists, of which type, in which state, with which metrics. */
export class ModelService {
  constructor(
    private readonly store: ModelStore,
    private readonly clock: Clock,
  ) {}

  async register(body: ModelCreateBody): Promise<ModelView> {
    const config = body.config ?? {};
    const size = Buffer.byteLength(JSON.stringify(config), 'utf8');
    if (size > MODEL_CONFIG_MAX_BYTES) {
      throw ValidationError.field('/config', `serializes to ${size} bytes; at most ${MODEL_CONFIG_MAX_BYTES}`);
    }
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
    if ((await this.store.insert(record)) === 'duplicate') {
      const field = body.modelId !== undefined && (await this.store.get(body.modelId)) ? 'modelId' : 'name';
      throw new ConflictError(`a model with this ${field} already exists`, [{ path: `/${field}`, message: 'is already taken', in: 'body' }]);
    }
    return toModelView(record);
  }

  async get(modelId: string): Promise<ModelView> {
    const model = await this.store.get(modelId);
    if (!model) throw new NotFoundError(`model ${modelId} not found`);
    return toModelView(model);
  }

  async list(query: ModelListQuery): Promise<Page<ModelView>> {
    const after = decodeNewestFirstCursor(query.cursor);
    const rows = await this.store.list({ type: query.type, status: query.status, after }, query.limit + 1);
    const page = toPage(rows, query.limit, keyOfNewestFirst);
    return { items: page.items.map(toModelView), nextCursor: page.nextCursor };
  }
}
