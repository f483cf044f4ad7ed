import type { Comparison } from '../api/types';

const STATUS_ICON: Record<string, string> = {
  created: '○',
  scheduled: '◷',
  running: '▶',
  paused: '❚❚',
  stopped: '■',
  concluded: '✓',
  archived: '⌫',
  pending: '○',
  training: '⟳',
  ready: '✓',
  failed: '✕',
};

/** What each status means, shown on hover and read by screen readers (the badge's word alone is terse). */
export const STATUS_MEANING: Record<string, string> = {
  created: 'Created: not started yet; no session is assigned',
  scheduled: 'Scheduled: starts by itself at its start date',
  running: 'Running: sessions are assigned and results update',
  paused: 'Paused: no new sessions are assigned; results keep what was collected',
  stopped: 'Stopped: no more sessions; waiting for a decision (conclude)',
  concluded: 'Concluded: a decision was recorded',
  archived: 'Archived: kept for the record, read-only',
  pending: 'Pending: not trained yet',
  training: 'Training: a run is in progress',
  ready: 'Ready: an active version serves',
  failed: 'Failed: the last run failed; see its message',
};

/** Status as icon + word: readable without colour; its meaning on hover. */
export function StatusBadge({ status }: { status: string }) {
  const meaning = STATUS_MEANING[status];
  return (
    <span className={`badge status-${status}`} title={meaning}>
      <span aria-hidden="true">{STATUS_ICON[status] ?? '•'} </span>
      {status}
    </span>
  );
}

/** What the last training run did to a model, as lastTraining.outcome reports it. */
export const OUTCOME_MEANING: Record<string, string> = {
  activated: 'activated: the new version beat the active one and now serves',
  rejected: 'rejected: the new version did no better, so the active version stays',
  imported: 'imported: a model trained elsewhere, stored without activating; the active version stays',
  failed: 'failed: the run stopped with an error; the active version stays',
  skipped: 'skipped: there was no new data to learn from; training tries again at the next scheduled time',
};

/** A training outcome in words, explained on hover and in the accessible name. */
export function OutcomeBadge({ outcome }: { outcome: string }) {
  const meaning = OUTCOME_MEANING[outcome];
  return (
    <span className={`badge outcome-${outcome}`} title={meaning}>
      {outcome}
    </span>
  );
}

const REASON_TEXT: Record<string, string> = {
  empty_arm: 'an arm has no session yet',
  too_few_units: 'too few sessions in an arm to test',
  zero_denominator: 'nothing to divide by yet (no impressions or sessions with the metric)',
  zero_variance: 'every session has the same value, so there is nothing to test yet',
  zero_control_mean: 'the control’s value is 0, so a relative lift is undefined (read the absolute scale)',
  control_mean_near_zero: 'the control’s value is near 0, so a relative lift is unstable (read the absolute scale)',
  invalid_input: 'the sums cannot be tested',
};

/** Why a comparison has no p-value yet, in words. */
export function reasonText(reason: string): string {
  return REASON_TEXT[reason.toLowerCase()] ?? reason.toLowerCase().replaceAll('_', ' ');
}

/** Significance in words and a symbol, coloured only as a second cue; what it means on hover. */
export function Verdict({ comparison }: { comparison: Comparison }) {
  if (comparison.pValue === null) {
    const why = comparison.reason ? reasonText(comparison.reason) : null;
    return (
      <span className="verdict verdict-none" title={`Not computed yet${why ? `: ${why}` : ''}`}>
        n/a{why ? ` (${why})` : ''}
      </span>
    );
  }
  if (!comparison.significant) {
    return (
      <span className="verdict verdict-ns" title="The interval still includes no difference: keep collecting, or decide it does not matter">
        <span aria-hidden="true">≈ </span>not significant
      </span>
    );
  }
  return comparison.improved ? (
    <span className="verdict verdict-better" title="The adjusted interval excludes no difference, in the metric's good direction">
      <span aria-hidden="true">▲ </span>significant, better
    </span>
  ) : (
    <span className="verdict verdict-worse" title="The adjusted interval excludes no difference, in the metric's bad direction">
      <span aria-hidden="true">▼ </span>significant, worse
    </span>
  );
}
