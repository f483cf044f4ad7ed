import { describe, expect, it } from 'vitest';
import {
  EXPERIMENT_STATES,
  LIFECYCLE_ACTIONS,
  allowedActions,
  transition,
  type ExperimentState,
  type LifecycleAction,
  type TransitionContext,
} from './lifecycle.js';

const NOW = new Date('2025-03-10T12:00:00Z');
const DAY = 86_400_000;
const at = (offsetDays: number): Date => new Date(NOW.getTime() + offsetDays * DAY);

const CONTEXTS: Record<string, TransitionContext> = {
  noDates: { now: NOW },
  beforeStart: { now: NOW, startDate: at(1), endDate: at(10) },
  inWindow: { now: NOW, startDate: at(-1), endDate: at(10) },
  afterEnd: { now: NOW, startDate: at(-10), endDate: at(-1) },
  emptyWindow: { now: NOW, startDate: at(5), endDate: at(2) },
};

/**
 * Expected outcome of every (context, state, action), written out by hand from
 * README.md: a state name is the next state, `!reason` a rejection and `-`
 * means `not_allowed_from_state`. Columns follow LIFECYCLE_ACTIONS:
 * start, pause, resume, stop, conclude, archive, activate, expire.
 */
type Row = readonly [string, string, string, string, string, string, string, string];
const ALL_REJECTED: Row = ['-', '-', '-', '-', '-', '-', '-', '-'];
const STOPPED: Row = ['-', '-', '-', '-', 'concluded', 'archived', '-', '-'];
const CONCLUDED: Row = ['-', '-', '-', '-', '-', 'archived', '-', '-'];

const EXPECTED: Record<string, Record<ExperimentState, Row>> = {
  noDates: {
    created: ['running', '-', '-', '-', '-', 'archived', '-', '-'],
    scheduled: ['running', '-', '-', '-', '-', 'archived', 'running', '!no_end_date'],
    running: ['-', 'paused', '-', 'stopped', 'concluded', '-', '-', '!no_end_date'],
    paused: ['-', '-', 'running', 'stopped', 'concluded', '-', '-', '!no_end_date'],
    stopped: STOPPED,
    concluded: CONCLUDED,
    archived: ALL_REJECTED,
  },
  beforeStart: {
    created: ['scheduled', '-', '-', '-', '-', 'archived', '-', '-'],
    scheduled: ['scheduled', '-', '-', '-', '-', 'archived', '!before_start_date', '!before_end_date'],
    running: ['-', 'paused', '-', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    paused: ['-', '-', 'running', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    stopped: STOPPED,
    concluded: CONCLUDED,
    archived: ALL_REJECTED,
  },
  inWindow: {
    created: ['running', '-', '-', '-', '-', 'archived', '-', '-'],
    scheduled: ['running', '-', '-', '-', '-', 'archived', 'running', '!before_end_date'],
    running: ['-', 'paused', '-', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    paused: ['-', '-', 'running', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    stopped: STOPPED,
    concluded: CONCLUDED,
    archived: ALL_REJECTED,
  },
  afterEnd: {
    created: ['!end_date_passed', '-', '-', '-', '-', 'archived', '-', '-'],
    scheduled: ['!end_date_passed', '-', '-', '-', '-', 'archived', '!end_date_passed', 'stopped'],
    running: ['-', 'paused', '-', 'stopped', 'concluded', '-', '-', 'stopped'],
    paused: ['-', '-', '!end_date_passed', 'stopped', 'concluded', '-', '-', 'stopped'],
    stopped: STOPPED,
    concluded: CONCLUDED,
    archived: ALL_REJECTED,
  },
  emptyWindow: {
    created: ['!empty_window', '-', '-', '-', '-', 'archived', '-', '-'],
    scheduled: ['!empty_window', '-', '-', '-', '-', 'archived', '!before_start_date', '!before_end_date'],
    running: ['-', 'paused', '-', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    paused: ['-', '-', 'running', 'stopped', 'concluded', '-', '-', '!before_end_date'],
    stopped: STOPPED,
    concluded: CONCLUDED,
    archived: ALL_REJECTED,
  },
};

const cells = Object.entries(CONTEXTS).flatMap(([ctxName, ctx]) =>
  EXPERIMENT_STATES.flatMap((state) =>
    LIFECYCLE_ACTIONS.map((action, i) => ({ ctxName, ctx, state, action, expected: EXPECTED[ctxName]?.[state][i] })),
  ),
);

describe('lifecycle transition table', () => {
  it(`covers every state × action in ${Object.keys(CONTEXTS).length} date contexts (${cells.length} cells)`, () => {
    expect(cells).toHaveLength(Object.keys(CONTEXTS).length * 7 * 8);
    for (const { ctxName, ctx, state, action, expected } of cells) {
      const result = transition(state, action, ctx);
      const actual = result.ok ? result.next : result.reason === 'not_allowed_from_state' ? '-' : `!${result.reason}`;
      expect({ ctxName, state, action, outcome: actual }).toEqual({ ctxName, state, action, outcome: expected });
    }
  });

  it('lists as allowed exactly the actions that would succeed, and never the one just refused', () => {
    for (const { ctx, state, action } of cells) {
      const result = transition(state, action, ctx);
      const succeeding = LIFECYCLE_ACTIONS.filter((a) => transition(state, a, ctx).ok);
      expect(allowedActions(state, ctx)).toEqual(succeeding);
      if (!result.ok) {
        expect(result.allowed).toEqual(succeeding);
        expect(result.allowed).not.toContain(action);
      }
    }
  });

  it('makes archived terminal and every state reachable from created', () => {
    const reached = new Set<ExperimentState>(['created']);
    const queue: ExperimentState[] = ['created'];
    while (queue.length > 0) {
      const state = queue.shift() as ExperimentState;
      for (const ctx of Object.values(CONTEXTS)) {
        for (const action of LIFECYCLE_ACTIONS) {
          const result = transition(state, action, ctx);
          if (result.ok && !reached.has(result.next)) {
            reached.add(result.next);
            queue.push(result.next);
          }
        }
      }
    }
    expect([...reached].sort()).toEqual([...EXPERIMENT_STATES].sort());
    for (const ctx of Object.values(CONTEXTS)) expect(allowedActions('archived', ctx)).toEqual([]);
  });
});

describe('scheduled start with an injected clock', () => {
  const startDate = new Date('2025-04-01T00:00:00Z');
  const endDate = new Date('2025-04-15T00:00:00Z');
  const dates = { startDate, endDate };
  const step = (state: ExperimentState, action: LifecycleAction, now: string) =>
    transition(state, action, { now: new Date(now), ...dates });

  it('schedules, activates at startDate (inclusive), expires at endDate (exclusive) and concludes', () => {
    expect(step('created', 'start', '2025-03-31T23:59:59.999Z')).toEqual({ ok: true, next: 'scheduled' });
    expect(step('scheduled', 'activate', '2025-03-31T23:59:59.999Z')).toEqual({
      ok: false,
      reason: 'before_start_date',
      allowed: ['start', 'archive'],
    });
    expect(step('scheduled', 'activate', '2025-04-01T00:00:00.000Z')).toEqual({ ok: true, next: 'running' });
    expect(step('running', 'expire', '2025-04-14T23:59:59.999Z')).toMatchObject({ ok: false, reason: 'before_end_date' });
    expect(step('running', 'expire', '2025-04-15T00:00:00.000Z')).toEqual({ ok: true, next: 'stopped' });
    expect(step('stopped', 'conclude', '2025-04-20T00:00:00Z')).toEqual({ ok: true, next: 'concluded' });
    expect(step('concluded', 'archive', '2025-05-01T00:00:00Z')).toEqual({ ok: true, next: 'archived' });
  });

  it('starts immediately when now is at or after startDate', () => {
    expect(step('created', 'start', '2025-04-01T00:00:00.000Z')).toEqual({ ok: true, next: 'running' });
    expect(step('created', 'start', '2025-04-03T00:00:00Z')).toEqual({ ok: true, next: 'running' });
  });

  it('lets a scheduled experiment start early once its startDate is moved to now', () => {
    const now = new Date('2025-03-20T00:00:00Z');
    expect(transition('scheduled', 'start', { now, startDate: now, endDate })).toEqual({ ok: true, next: 'running' });
  });

  it('expires a scheduled experiment whose whole window passed instead of running it', () => {
    expect(step('scheduled', 'activate', '2025-04-16T00:00:00Z')).toEqual({
      ok: false,
      reason: 'end_date_passed',
      allowed: ['archive', 'expire'],
    });
    expect(step('scheduled', 'expire', '2025-04-16T00:00:00Z')).toEqual({ ok: true, next: 'stopped' });
  });

  it('refuses invalid dates loudly', () => {
    expect(() => transition('created', 'start', { now: new Date('nope') })).toThrow(RangeError);
    expect(() => transition('running', 'expire', { now: NOW, endDate: new Date(Number.NaN) })).toThrow(/endDate/);
    expect(() => transition('archived', 'start', { now: NOW, startDate: new Date('') })).toThrow(/startDate/);
    expect(() => allowedActions('created', { now: new Date(Number.NaN) })).toThrow(RangeError);
  });
});
