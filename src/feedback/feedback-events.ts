import { toIso } from '../common/clock.js';
import { groupDigits } from '../common/numbers.js';
import type { ErasureReport } from '../common/personal-data.js';
import type { RetentionOutcome } from './feedback-retention.store.js';
import type { ImportBatchReport } from './import/import.service.js';

/** One domain event of the feedback module, as DomainEventLog.record takes it. */
export interface FeedbackEvent {
  event: 'import.batch' | 'retention.run' | 'session.erased';
  fields: Record<string, unknown>;
  message: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${groupDigits(n)} ${n === 1 ? one : many}`;

/** "import batch finished: 5 000 lines, 9 996 items accepted, 0 already imported, 2 lines rejected (first: line 17 …)". */
export function importBatchEvent(report: ImportBatchReport): FeedbackEvent {
  const first = report.rejected[0];
  const why = first ? ` (first: line ${first.line}: ${first.reason})` : '';
  return {
    event: 'import.batch',
    fields: { lines: report.lines, imported: report.imported, duplicates: report.duplicates, rejected: report.rejected.length },
    message:
      `import batch finished: ${plural(report.lines, 'line')}, ${plural(report.imported, 'item')} accepted, ` +
      `${groupDigits(report.duplicates)} already imported, ${plural(report.rejected.length, 'line')} rejected${why}`,
  };
}

/** "retention run: 1 204 feedback items and 300 submissions received before 2026-08-30T12:00:00.000Z removed (90 days)". */
export function retentionEvent(outcome: RetentionOutcome & { partitionsCreated: number }, days: number, cutoff: number): FeedbackEvent {
  const partitions = [
    outcome.partitionsCreated > 0 ? `${plural(outcome.partitionsCreated, 'daily partition')} created` : '',
    outcome.partitionsDropped > 0 ? `${plural(outcome.partitionsDropped, 'daily partition')} dropped` : '',
  ].filter(Boolean);
  const removed =
    days > 0
      ? `${plural(outcome.items, 'feedback item')} and ${plural(outcome.submissions, 'submission')} received before ${toIso(cutoff)} removed (FEEDBACK_RETENTION_DAYS=${days})`
      : 'feedback kept (FEEDBACK_RETENTION_DAYS=0)';
  return {
    event: 'retention.run',
    fields: { ...outcome, retentionDays: days, ...(days > 0 ? { cutoff: toIso(cutoff) } : {}) },
    message: `retention run: ${[removed, ...partitions].join('; ')}`,
  };
}

/** A report kind (`feedbackItems`, `experimentUnits`) in words: "feedback items". */
const words = (kind: string) => kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/**
 * "session erased: 12 feedback items, 3 feedback submissions, 1 experiment units". The session id
 * stays out of the line: the log would otherwise keep what the erasure removed.
 */
export function erasureEvent(removed: ErasureReport): FeedbackEvent {
  const kinds = Object.entries(removed).filter(([, n]) => n > 0);
  const what = kinds.length === 0 ? 'nothing was stored for it' : kinds.map(([kind, n]) => `${groupDigits(n)} ${words(kind)}`).join(', ');
  return { event: 'session.erased', fields: { removed }, message: `session erased: ${what}` };
}
