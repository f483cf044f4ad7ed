import { pageNewestFirst } from '../common/pagination.js';
import type {
  ExperimentChange,
  ExperimentEvent,
  ExperimentFilter,
  ExperimentRecord,
  ExperimentStore,
  PhaseRecord,
} from './experiment.store.js';

/** In-memory ExperimentStore for service unit tests. */
export class FakeExperimentStore implements ExperimentStore {
  readonly experiments = new Map<string, ExperimentRecord>();
  readonly events: ExperimentEvent[] = [];
  readonly phases: PhaseRecord[] = [];
  private changes = 0;

  async insert(e: ExperimentRecord, event: ExperimentEvent) {
    if ([...this.experiments.values()].some((x) => x.name === e.name)) return 'duplicate' as const;
    this.experiments.set(e.id, structuredClone(e));
    this.events.push(structuredClone(event));
    this.changes += 1;
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
    this.changes += 1;
    return 'updated' as const;
  }

  async listEvents(experimentId: string, afterId: string | undefined, limit: number) {
    return this.events.filter((e) => e.experimentId === experimentId && (afterId === undefined || e.id > afterId)).slice(0, limit);
  }

  async getPhase(experimentId: string, phase: number) {
    return this.phases.find((p) => p.experimentId === experimentId && p.phase === phase);
  }

  async listPhases(experimentIds: string[]) {
    return this.phases.filter((p) => experimentIds.includes(p.experimentId));
  }

  async listServing() {
    return [...this.experiments.values()].filter((e) => e.status === 'running' || e.status === 'concluded').map((e) => structuredClone(e));
  }

  async revision() {
    return String(this.changes);
  }

  async listDue(now: number) {
    return [...this.experiments.values()].filter(
      (e) =>
        (e.status === 'scheduled' && e.startDate !== null && e.startDate <= now) ||
        (['scheduled', 'running', 'paused'].includes(e.status) && e.endDate !== null && e.endDate <= now),
    );
  }
}
