import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { decodeCursor, decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../../common/pagination.js';
import { ConflictError, NotFoundError, type ErrorDetail } from '../../common/errors.js';
import { checkDates, normaliseConfiguration } from '../model/experiment-rules.js';
import type { ExperimentCreateBody, ExperimentListQuery } from '../model/schemas/experiment.schemas.js';
import type { ExperimentView } from '../model/schemas/experiment-view.schemas.js';
import type { ExperimentRecord, ExperimentStore } from '../model/experiment.store.js';
import { checkVariantModels, NO_MODELS, type ModelCatalog } from '../ports/model-catalog.js';
import { throwIfProblems, toEventView, toExperimentSnapshot, toExperimentView } from '../model/experiment-view.js';

/** Creating, reading and listing experiments; changes go through ExperimentLifecycleService. */
export class ExperimentService {
  constructor(
    private readonly store: ExperimentStore,
    private readonly clock: Clock,
    private readonly catalog: Pick<ModelCatalog, 'resolveRankable'> = NO_MODELS,
  ) {}

  async create(body: ExperimentCreateBody, actor = 'anonymous'): Promise<ExperimentView> {
    const problems: ErrorDetail[] = [];
    const configuration = normaliseConfiguration(body.configuration as Parameters<typeof normaliseConfiguration>[0], problems);
    const startDate = body.startDate === undefined ? null : Date.parse(body.startDate);
    const endDate = body.endDate === undefined ? null : Date.parse(body.endDate);
    checkDates(startDate, endDate, problems);
    throwIfProblems(problems);
    await checkVariantModels(this.catalog, configuration.variants, problems);
    throwIfProblems(problems);
    const now = this.clock.now();
    const record: ExperimentRecord = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      status: 'created',
      startDate,
      endDate,
      configuration,
      phase: 0,
      conclusion: null,
      createdAt: now,
      updatedAt: now,
    };
    const event = {
      id: newId(),
      experimentId: record.id,
      at: now,
      actor,
      action: 'create',
      before: null,
      after: toExperimentSnapshot(record),
    };
    if ((await this.store.insert(record, event)) === 'duplicate') {
      throw new ConflictError(`an experiment named "${body.name}" already exists`, [
        { path: '/name', message: 'is already taken', in: 'body' },
      ]);
    }
    return toExperimentView(record, now);
  }

  async get(experimentId: string): Promise<ExperimentView> {
    return toExperimentView(await this.load(experimentId), this.clock.now());
  }

  async load(experimentId: string): Promise<ExperimentRecord> {
    const found = await this.store.get(experimentId);
    if (!found) throw new NotFoundError(`experiment ${experimentId} not found`);
    return found;
  }

  async list(query: ExperimentListQuery): Promise<Page<ExperimentView>> {
    const after = decodeNewestFirstCursor(query.cursor);
    const rows = await this.store.list({ status: query.status, after }, query.limit + 1);
    const page = toPage(rows, query.limit, keyOfNewestFirst);
    const now = this.clock.now();
    return { items: page.items.map((e) => toExperimentView(e, now)), nextCursor: page.nextCursor };
  }

  /** The append-only audit log, oldest first. */
  async events(experimentId: string, query: { limit: number; cursor?: string }) {
    await this.load(experimentId);
    const rows = await this.store.listEvents(experimentId, decodeCursor(query.cursor), query.limit + 1);
    const page = toPage(rows, query.limit, (e) => e.id);
    return { items: page.items.map(toEventView), nextCursor: page.nextCursor };
  }
}
