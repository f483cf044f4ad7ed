import type { AliasMove } from '../ports/model-catalog.js';
import { pageNewestFirst } from '../../common/pagination.js';
import { FakeExperimentData } from '../model/fake-experiment-data.js';
import type {
  ExperimentChange,
  ExperimentEvent,
  ExperimentFilter,
  ExperimentRecord,
  ExperimentStore,
  PhaseRecord,
} from '../model/experiment.store.js';

/** In-memory ExperimentStore for service unit tests; test/contract holds it to the Kysely store. */
export class FakeExperimentStore implements ExperimentStore {
  /** Promotions' alias moves, as the Kysely store hands them to the learning module's writer. */
  readonly aliasMoves: AliasMove[] = [];

  constructor(readonly data = new FakeExperimentData()) {}

  get experiments(): Map<string, ExperimentRecord> {
    return this.data.experiments;
  }
  get events(): ExperimentEvent[] {
    return this.data.events;
  }
  get phases(): PhaseRecord[] {
    return this.data.phases;
  }

  async insert(e: ExperimentRecord, event: ExperimentEvent) {
    if ([...this.experiments.values()].some((x) => x.name === e.name)) return 'duplicate' as const;
    this.experiments.set(e.id, structuredClone(e));
    this.events.push(structuredClone(event));
    this.data.changes += 1;
    return 'inserted' as const;
  }

  async get(id: string) {
    const found = this.experiments.get(id);
    return found ? structuredClone(found) : undefined;
  }

  async list(filter: ExperimentFilter, limit: number) {
    const matching = [...this.experiments.values()].filter((e) => !filter.status || e.status === filter.status);
    return pageNewestFirst(matching, filter.after, limit).map((e) => structuredClone(e));
  }

  async update(change: ExperimentChange, expectedUpdatedAt: number) {
    const current = this.experiments.get(change.next.id);
    if (!current || current.updatedAt !== expectedUpdatedAt) return 'stale' as const;
    if ([...this.experiments.values()].some((x) => x.id !== change.next.id && x.name === change.next.name)) return 'duplicate' as const;
    this.experiments.set(change.next.id, structuredClone(change.next));
    if (change.endPhaseAt !== undefined) {
      for (const p of this.phases) if (p.experimentId === change.next.id && p.endedAt === null) p.endedAt = change.endPhaseAt;
    }
    if (change.startPhase) this.phases.push(structuredClone(change.startPhase));
    this.events.push(structuredClone(change.event));
    if (change.aliasMove) this.aliasMoves.push(structuredClone(change.aliasMove));
    this.data.changes += 1;
    return 'updated' as const;
  }

  async listEvents(experimentId: string, afterId: string | undefined, limit: number) {
    return this.events
      .filter((e) => e.experimentId === experimentId && (afterId === undefined || e.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }

  async getPhase(experimentId: string, phase: number) {
    const found = this.phases.find((p) => p.experimentId === experimentId && p.phase === phase);
    return found ? structuredClone(found) : undefined;
  }

  async listPhases(experimentIds: string[]) {
    return this.phases.filter((p) => experimentIds.includes(p.experimentId)).map((p) => structuredClone(p));
  }

  async listServing() {
    return [...this.experiments.values()].filter((e) => e.status === 'running' || e.status === 'concluded').map((e) => structuredClone(e));
  }

  async revision() {
    return String(this.data.changes);
  }

  async listDue(now: number) {
    return [...this.experiments.values()]
      .filter(
        (e) =>
          (e.status === 'scheduled' && e.startDate !== null && e.startDate <= now) ||
          (['scheduled', 'running', 'paused'].includes(e.status) && e.endDate !== null && e.endDate <= now),
      )
      .map((e) => structuredClone(e));
  }
}
