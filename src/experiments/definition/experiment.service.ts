import { toIso, type Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { decodeCursor, decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../http/errors.js';
import { checkDates, normaliseConfiguration } from './experiment-rules.js';
import type { ExperimentCreateBody, ExperimentListQuery, ExperimentView } from './experiment.schemas.js';
import type { ExperimentEvent, ExperimentRecord, ExperimentStore } from './experiment.store.js';

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

export function toExperimentView(e: ExperimentRecord): ExperimentView {
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
  ) {}

  async create(body: ExperimentCreateBody, actor = 'anonymous'): Promise<ExperimentView> {
    const problems: ErrorDetail[] = [];
    const configuration = normaliseConfiguration(body.configuration as Parameters<typeof normaliseConfiguration>[0], problems);
    const startDate = body.startDate === undefined ? null : Date.parse(body.startDate);
    const endDate = body.endDate === undefined ? null : Date.parse(body.endDate);
    checkDates(startDate, endDate, problems);
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
    const view = toExperimentView(record);
    const event = { id: newId(), experimentId: record.id, at: now, actor, action: 'create', before: null, after: view };
    if ((await this.store.insert(record, event)) === 'duplicate') {
      throw new ConflictError(`an experiment named "${body.name}" already exists`, [
        { path: '/name', message: 'is already taken', in: 'body' },
      ]);
    }
    return view;
  }

  async get(experimentId: string): Promise<ExperimentView> {
    return toExperimentView(await this.load(experimentId));
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
    return { items: page.items.map(toExperimentView), nextCursor: page.nextCursor };
  }

  /** The append-only audit log, oldest first. */
  async events(experimentId: string, query: { limit: number; cursor?: string }) {
    await this.load(experimentId);
    const rows = await this.store.listEvents(experimentId, decodeCursor(query.cursor), query.limit + 1);
    const page = toPage(rows, query.limit, (e) => e.id);
    return { items: page.items.map(toEventView), nextCursor: page.nextCursor };
  }
}
