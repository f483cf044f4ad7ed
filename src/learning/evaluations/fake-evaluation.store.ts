import { pageNewestFirst } from '../../common/pagination.js';
import { isImpression } from '../../vocabulary/index.js';
import type { EvaluationRecord, EvaluationStore, WindowCursor, WindowRow } from './evaluation.store.js';

/** In-memory EvaluationStore over feedback the test hands in (the feedback module owns the items). */
export class FakeEvaluationStore implements EvaluationStore {
  private readonly rows = new Map<string, EvaluationRecord>();

  /** `receivedAt` defaults to the event time. */
  constructor(private readonly feedback: () => readonly (WindowRow & { id: string; receivedAt?: number })[] = () => []) {}

  async insert(e: EvaluationRecord) {
    this.rows.set(e.id, { ...e });
  }
  async setProgress(id: string, progress: number, at: number) {
    const e = this.rows.get(id);
    if (e?.status === 'running') Object.assign(e, { progress, heartbeatAt: at });
  }
  async finish(id: string, outcome: { status: 'done'; result: string } | { status: 'failed'; error: string }, at: number) {
    const e = this.rows.get(id);
    if (!e) return;
    Object.assign(e, outcome.status === 'done' ? { status: 'done', progress: 1, result: outcome.result } : outcome, { finishedAt: at });
  }
  async get(id: string) {
    const e = this.rows.get(id);
    return e ? { ...e } : undefined;
  }
  async list(filter: { modelId?: string; after?: { createdAt: number; id: string } }, limit: number) {
    const rows = [...this.rows.values()].filter((e) => filter.modelId === undefined || e.candidateModelId === filter.modelId);
    return pageNewestFirst(rows, filter.after, limit);
  }
  async listDoneWithModel() {
    return [...this.rows.values()]
      .filter((e) => e.status === 'done' && e.candidateModelId !== null)
      .sort((a, b) => a.createdAt - b.createdAt);
  }
  private inWindow(window: { start: number; end: number }) {
    return this.feedback().filter((r) => r.eventTime >= window.start && r.eventTime < window.end);
  }
  async countSearches(window: { start: number; end: number }, receivedBefore?: number) {
    return new Set(
      this.inWindow(window)
        .filter((r) => isImpression(r.action) && (receivedBefore === undefined || (r.receivedAt ?? r.eventTime) < receivedBefore))
        .map((r) => r.queryId),
    ).size;
  }
  async readWindowPage(window: { start: number; end: number }, after: WindowCursor | undefined, limit: number) {
    const rows = this.inWindow(window)
      .filter((r) => !after || r.eventTime > after.eventTime || (r.eventTime === after.eventTime && r.id > after.id))
      .sort((a, b) => a.eventTime - b.eventTime || (a.id < b.id ? -1 : 1))
      .slice(0, limit);
    const last = rows[rows.length - 1];
    return { rows: rows.map(({ id: _id, ...row }) => row), last: last ? { eventTime: last.eventTime, id: last.id } : undefined };
  }
}
