import { toIso, type Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { decodeCursor, decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../common/errors.js';
import { checkDates, normaliseConfiguration } from '../model/experiment-rules.js';
import type { ExperimentCreateBody, ExperimentListQuery, ExperimentSnapshot, ExperimentView } from '../model/experiment.schemas.js';
import type { ExperimentEvent, ExperimentRecord, ExperimentStore } from '../model/experiment.store.js';
import { allowedActions, MANUAL_LIFECYCLE_ACTIONS } from '../model/lifecycle.js';
import { NO_MODELS, type ModelCatalog } from '../ports/model-catalog.js';

/** Every model-backed variant must name an existing ranker (and an existing version when it fixes one). */
export async function checkVariantModels(
  catalog: Pick<ModelCatalog, 'resolveRankable'>,
  variants: readonly { model?: { modelId: string; version?: number } }[],
  problems: ErrorDetail[],
): Promise<void> {
  for (const [i, v] of variants.entries()) {
    if (!v.model) continue;
    const check = await catalog.resolveRankable(v.model.modelId, v.model.version);
    if (!check.ok) problems.push({ path: `/configuration/variants/${i}/model/${check.field}`, message: check.message, in: 'body' });
  }
}

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

/** The experiment as the audit log records it. */
export function toExperimentSnapshot(e: ExperimentRecord): ExperimentSnapshot {
  return {
    experimentId: e.id,
    name: e.name,
    description: e.description,
    status: e.status,
    startDate: iso(e.startDate),
    endDate: iso(e.endDate),
    variants: e.configuration.variants,
    configuration: e.configuration,
    phase: e.phase,
    conclusion: e.conclusion ? { ...e.conclusion, concludedAt: toIso(e.conclusion.concludedAt) } : null,
    createdAt: toIso(e.createdAt),
    updatedAt: toIso(e.updatedAt),
  };
}

const MANUAL = new Set<string>(MANUAL_LIFECYCLE_ACTIONS);

/** The experiment as the API answers it: its snapshot and the lifecycle moves allowed at `now`. */
export function toExperimentView(e: ExperimentRecord, now: number): ExperimentView {
  const moves = allowedActions(e.status, {
    now: new Date(now),
    ...(e.startDate !== null ? { startDate: new Date(e.startDate) } : {}),
    ...(e.endDate !== null ? { endDate: new Date(e.endDate) } : {}),
  });
  const allowed = moves.filter((a): a is ExperimentView['allowedActions'][number] => MANUAL.has(a));
  return { ...toExperimentSnapshot(e), allowedActions: allowed };
}

export function throwIfProblems(problems: ErrorDetail[]): void {
  if (problems.length > 0) throw new ValidationError(`${problems[0]!.path}: ${problems[0]!.message}`, problems);
}

export function toEventView(e: ExperimentEvent) {
  return { eventId: e.id, at: toIso(e.at), actor: e.actor, action: e.action, before: e.before ?? null, after: e.after ?? null };
}

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
