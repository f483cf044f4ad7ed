import { toIso } from '../../common/clock.js';
import { ValidationError, type ErrorDetail } from '../../common/errors.js';
import type { ExperimentSnapshot, ExperimentView } from './schemas/experiment-view.schemas.js';
import { describeAliasMove } from '../../vocabulary/index.js';
import type { Conclusion, ExperimentEvent, ExperimentRecord } from './experiment.store.js';
import { allowedActions, MANUAL_LIFECYCLE_ACTIONS } from './lifecycle.js';

const iso = (ms: number | null) => (ms === null ? null : toIso(ms));

/** Conclusions written before summaries were recorded: what the stored promotion (or its absence) says. */
function olderSummary(c: Conclusion): string {
  const p = c.promotion;
  if (p) return describeAliasMove(p.alias, p.from, { modelId: p.modelId, version: p.version });
  return `no alias moved with this conclusion (${c.decision}${c.winnerVariantId ? ` ${c.winnerVariantId}` : ''})`;
}

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
    conclusion: e.conclusion
      ? { ...e.conclusion, concludedAt: toIso(e.conclusion.concludedAt), summary: e.conclusion.summary ?? olderSummary(e.conclusion) }
      : null,
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
