import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { decodeNewestFirstCursor, keyOfNewestFirst, toPage, type Page } from '../common/pagination.js';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../http/errors.js';
import { EXPERIMENT_LIMITS, type ExperimentCreateBody, type ExperimentListQuery, type ExperimentView } from './experiment.schemas.js';
import type { ExperimentRecord, ExperimentStore, VariantRecord } from './experiment.store.js';
import type { MetricName } from './metric-catalogue.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

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
    createdAt: new Date(e.createdAt).toISOString(),
    updatedAt: new Date(e.updatedAt).toISOString(),
  };
}

/** Rules JSON Schema cannot state: unique ids, weights summing to 1, date order. */
function checkExperiment(body: ExperimentCreateBody): { variants: VariantRecord[]; problems: ErrorDetail[] } {
  const problems: ErrorDetail[] = [];
  const variants = body.configuration.variants;
  const seen = new Map<string, number>();
  variants.forEach((v, i) => {
    const first = seen.get(v.id);
    if (first !== undefined) problems.push({ path: `/configuration/variants/${i}/id`, message: `duplicates the id of variant ${first} ("${v.id}")`, in: 'body' });
    else seen.set(v.id, i);
    const size = Buffer.byteLength(JSON.stringify(v.config ?? {}), 'utf8');
    if (size > EXPERIMENT_LIMITS.variantConfigMaxBytes) {
      problems.push({ path: `/configuration/variants/${i}/config`, message: `serializes to ${size} bytes; at most ${EXPERIMENT_LIMITS.variantConfigMaxBytes}`, in: 'body' });
    }
  });
  const withWeight = variants.filter((v) => v.weight !== undefined).length;
  let weights: number[];
  if (withWeight === 0) {
    weights = variants.map(() => 1 / variants.length);
  } else if (withWeight < variants.length) {
    const missing = variants.findIndex((v) => v.weight === undefined);
    problems.push({ path: `/configuration/variants/${missing}/weight`, message: 'is required when any variant has a weight', in: 'body' });
    weights = variants.map((v) => v.weight ?? 0);
  } else {
    weights = variants.map((v) => v.weight!);
    const sum = weights.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > EXPERIMENT_LIMITS.weightTolerance) {
      problems.push({ path: '/configuration/variants', message: `weights sum to ${Number(sum.toPrecision(12))}; they must sum to 1 (±1e-6)`, in: 'body' });
    }
  }
  const metrics = body.configuration.targetMetrics ?? [];
  metrics.forEach((m, i) => {
    if (metrics.indexOf(m) !== i) problems.push({ path: `/configuration/targetMetrics/${i}`, message: `repeats "${m}"`, in: 'body' });
  });
  if (body.startDate !== undefined && body.endDate !== undefined && Date.parse(body.endDate) <= Date.parse(body.startDate)) {
    problems.push({ path: '/endDate', message: 'must be after startDate', in: 'body' });
  }
  return {
    variants: variants.map((v, i) => ({ id: v.id, name: v.name ?? v.id, weight: weights[i]!, config: v.config ?? {} })),
    problems,
  };
}

export class ExperimentService {
  constructor(
    private readonly store: ExperimentStore,
    private readonly clock: Clock,
  ) {}

  async create(body: ExperimentCreateBody): Promise<ExperimentView> {
    const { variants, problems } = checkExperiment(body);
    if (problems.length > 0) throw new ValidationError(`${problems[0]!.path}: ${problems[0]!.message}`, problems);
    const now = this.clock.now();
    const record: ExperimentRecord = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      status: 'created',
      startDate: body.startDate === undefined ? null : Date.parse(body.startDate),
      endDate: body.endDate === undefined ? null : Date.parse(body.endDate),
      configuration: {
        variants,
        trafficAllocation: body.configuration.trafficAllocation ?? 1,
        targetMetrics: (body.configuration.targetMetrics ?? ['ctr']) as MetricName[],
      },
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.store.insert(record)) === 'duplicate') {
      throw new ConflictError(`an experiment named "${body.name}" already exists`, [{ path: '/name', message: 'is already taken', in: 'body' }]);
    }
    return toExperimentView(record);
  }

  async get(experimentId: string): Promise<ExperimentView> {
    const found = await this.store.get(experimentId);
    if (!found) throw new NotFoundError(`experiment ${experimentId} not found`);
    return toExperimentView(found);
  }

  async list(query: ExperimentListQuery): Promise<Page<ExperimentView>> {
    const after = decodeNewestFirstCursor(query.cursor);
    const rows = await this.store.list({ status: query.status, after }, query.limit + 1);
    const page = toPage(rows, query.limit, keyOfNewestFirst);
    return { items: page.items.map(toExperimentView), nextCursor: page.nextCursor };
  }
}
