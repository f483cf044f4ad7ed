/**
 * The experiment lifecycle as a pure state machine: no clock, no storage.
 * The caller passes `now` and the experiment's dates, persists `next`, and
 * turns a rejection into a 409 that lists `allowed`. The full table and the
 * reasons behind it are in lifecycle.md next to this file.
 */

export const EXPERIMENT_STATES = ['created', 'scheduled', 'running', 'paused', 'stopped', 'concluded', 'archived'] as const;
export type ExperimentState = (typeof EXPERIMENT_STATES)[number];

/** User actions first, then the two the scheduler applies when a date is reached. */
export const LIFECYCLE_ACTIONS = ['start', 'pause', 'resume', 'stop', 'conclude', 'archive', 'activate', 'expire'] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/** The actions a user may ask for (POST …/{action}); the scheduler applies activate and expire itself. */
export const MANUAL_LIFECYCLE_ACTIONS = ['start', 'pause', 'resume', 'stop', 'conclude', 'archive'] as const;

export interface TransitionContext {
  readonly now: Date;
  /** Enrollment opens at startDate (inclusive). */
  readonly startDate?: Date;
  /** Enrollment closes at endDate (exclusive): at `now >= endDate` the window is over. */
  readonly endDate?: Date;
}

export type TransitionRejection =
  /** The action is not defined from this state whatever the dates. */
  | 'not_allowed_from_state'
  /** `activate` before startDate. */
  | 'before_start_date'
  /** `expire` before endDate. */
  | 'before_end_date'
  /** `expire` on an experiment without endDate. */
  | 'no_end_date'
  /** `start`, `resume` or `activate` at or after endDate: nothing would be enrolled. */
  | 'end_date_passed'
  /** `start` with startDate >= endDate. */
  | 'empty_window';

export type TransitionResult =
  | { readonly ok: true; readonly next: ExperimentState }
  | {
      readonly ok: false;
      readonly reason: TransitionRejection;
      /** Actions that would succeed from the current state with the same context. */
      readonly allowed: readonly LifecycleAction[];
    };

/** States each action may leave from, independent of dates. */
export const SOURCE_STATES: Readonly<Record<LifecycleAction, readonly ExperimentState[]>> = {
  start: ['created', 'scheduled'],
  pause: ['running'],
  resume: ['paused'],
  stop: ['running', 'paused'],
  conclude: ['running', 'paused', 'stopped'],
  // Not from running or paused: archiving must never be the way traffic stops, so `stop` comes first.
  archive: ['created', 'scheduled', 'stopped', 'concluded'],
  activate: ['scheduled'],
  expire: ['scheduled', 'running', 'paused'],
};

type Attempt = { readonly next: ExperimentState } | { readonly reason: TransitionRejection };

const time = (d: Date, name: string): number => {
  const t = d.getTime();
  if (Number.isNaN(t)) throw new RangeError(`${name} is an invalid Date`);
  return t;
};

interface Instants {
  readonly now: number;
  readonly start: number | undefined;
  readonly end: number | undefined;
}

/** Dates are checked whatever the state, so a bad clock never hides behind a rejection. */
function instants(ctx: TransitionContext): Instants {
  return {
    now: time(ctx.now, 'now'),
    start: ctx.startDate === undefined ? undefined : time(ctx.startDate, 'startDate'),
    end: ctx.endDate === undefined ? undefined : time(ctx.endDate, 'endDate'),
  };
}

function attempt(state: ExperimentState, action: LifecycleAction, { now, start, end }: Instants): Attempt {
  if (!SOURCE_STATES[action].includes(state)) return { reason: 'not_allowed_from_state' };
  const ended = end !== undefined && now >= end;

  switch (action) {
    case 'start':
      if (start !== undefined && end !== undefined && start >= end) return { reason: 'empty_window' };
      if (ended) return { reason: 'end_date_passed' };
      // From `scheduled`, start re-reads startDate: the way to start early or to reschedule.
      return { next: start !== undefined && now < start ? 'scheduled' : 'running' };
    case 'activate':
      if (start !== undefined && now < start) return { reason: 'before_start_date' };
      // A window that closed while the scheduler was down is expired, never briefly run.
      if (ended) return { reason: 'end_date_passed' };
      return { next: 'running' };
    case 'resume':
      if (ended) return { reason: 'end_date_passed' };
      return { next: 'running' };
    case 'expire':
      if (end === undefined) return { reason: 'no_end_date' };
      if (!ended) return { reason: 'before_end_date' };
      return { next: 'stopped' };
    case 'pause':
      return { next: 'paused' };
    case 'stop':
      return { next: 'stopped' };
    case 'conclude':
      return { next: 'concluded' };
    case 'archive':
      return { next: 'archived' };
  }
}

const succeeding = (state: ExperimentState, at: Instants): LifecycleAction[] =>
  LIFECYCLE_ACTIONS.filter((action) => 'next' in attempt(state, action, at));

/** Actions that would succeed from `state` in this context, in LIFECYCLE_ACTIONS order. */
export function allowedActions(state: ExperimentState, ctx: TransitionContext): LifecycleAction[] {
  return succeeding(state, instants(ctx));
}

/** Applies `action` to `state`; throws RangeError only for an invalid Date in `ctx`. */
export function transition(state: ExperimentState, action: LifecycleAction, ctx: TransitionContext): TransitionResult {
  const at = instants(ctx);
  const result = attempt(state, action, at);
  if ('next' in result) return { ok: true, next: result.next };
  return { ok: false, reason: result.reason, allowed: succeeding(state, at) };
}
