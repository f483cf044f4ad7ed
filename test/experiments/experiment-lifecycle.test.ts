import { expect, it } from 'vitest';
import { expectError, getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing/experiments';
let n = 0;
const body = (extra: Record<string, unknown> = {}) => ({
  name: `lifecycle-${(n += 1)}`,
  configuration: {
    variants: [
      { id: 'control', weight: 0.5 },
      { id: 'treatment', weight: 0.5 },
    ],
    trafficAllocation: 0.5,
    targetMetrics: ['ctr'],
  },
  ...extra,
});

describeOnEveryDatabase('experiment lifecycle', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  const create = async (extra: Record<string, unknown> = {}) => (await postJson(t.app, BASE, body(extra))).body.data.experimentId as string;
  const act = (id: string, action: string, payload?: unknown) =>
    payload === undefined
      ? request(t.app, { method: 'POST', url: `${BASE}/${id}/${action}` })
      : postJson(t.app, `${BASE}/${id}/${action}`, payload);

  it('walks created → running → paused → running → stopped → concluded → archived', async () => {
    const id = await create();
    for (const [action, status] of [
      ['start', 'running'],
      ['pause', 'paused'],
      ['resume', 'running'],
      ['stop', 'stopped'],
    ] as const) {
      const res = await act(id, action);
      expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.status).toBe(status);
    }
    const concluded = await act(id, 'conclude', { decision: 'ship', winnerVariantId: 'treatment', notes: 'CTR up' });
    expect(concluded.body.data.status).toBe('concluded');
    expect(concluded.body.data.conclusion).toMatchObject({ decision: 'ship', winnerVariantId: 'treatment', notes: 'CTR up' });
    expect((await act(id, 'archive')).body.data.status).toBe('archived');
  });

  it('409 CONFLICT listing the allowed actions for a move the state machine forbids', async () => {
    const id = await create();
    const res = await act(id, 'pause');
    expectError(res, 409, 'CONFLICT', '/status');
    expect(res.body.error.message).toContain('allowed: start, archive');
    await act(id, 'start');
    const again = await act(id, 'start');
    expectError(again, 409, 'CONFLICT');
    expect(again.body.error.message).toMatch(/allowed: pause, stop, conclude/);
    expectError(await act('unknown-id', 'start'), 404, 'NOT_FOUND');
  });

  it('allowedActions lists exactly the moves that succeed now, in every state and around the dates', async () => {
    const MOVES = ['start', 'pause', 'resume', 'stop', 'conclude', 'archive'];
    const tryMove = (id: string, move: string) => act(id, move, move === 'conclude' ? { decision: 'inconclusive' } : undefined);
    // Walk each state; at each, every listed move works on a twin and every other one is a 409.
    const future = new Date(clock.now() + 86_400_000).toISOString();
    const walks: [Record<string, unknown>, string[][]][] = [
      [{}, [[], ['start'], ['start', 'pause'], ['start', 'stop'], ['start', 'conclude'], ['archive']]],
      [{ startDate: future }, [['start'], ['start', 'archive']]],
    ];
    const reach = async (steps: string[], extra: Record<string, unknown>) => {
      const id = await create(extra);
      for (const step of steps) expect((await tryMove(id, step)).statusCode).toBe(200);
      return id;
    };
    for (const [extra, paths] of walks) {
      for (const steps of paths) {
        const id = await reach(steps, extra);
        const view = (await getJson(t.app, `${BASE}/${id}`)).body.data;
        const listed = (await getJson(t.app, `${BASE}?status=${view.status}&limit=200`)).body.data.items.find(
          (e: { experimentId: string }) => e.experimentId === id,
        );
        expect(listed.allowedActions).toEqual(view.allowedActions);
        for (const move of MOVES) {
          const twin = await reach(steps, extra);
          const res = await tryMove(twin, move);
          expect(res.statusCode, `${view.status} ${move}: ${JSON.stringify(res.body)}`).toBe(
            view.allowedActions.includes(move) ? 200 : 409,
          );
          if (res.statusCode === 200) expect(Array.isArray(res.body.data.allowedActions)).toBe(true);
        }
      }
    }
    const created = (await postJson(t.app, BASE, body())).body.data;
    expect(created.allowedActions).toEqual(['start', 'archive']);
    // An end date in the past leaves nothing to start or resume: the list follows the clock.
    const ending = await create({ endDate: new Date(clock.now() + 60_000).toISOString() });
    expect((await getJson(t.app, `${BASE}/${ending}`)).body.data.allowedActions).toEqual(['start', 'archive']);
    clock.advance(120_000);
    expect((await getJson(t.app, `${BASE}/${ending}`)).body.data.allowedActions).toEqual(['archive']);
    expectError(await act(ending, 'start'), 409, 'CONFLICT');
    // The audit log records what the experiment is, not what could be done with it at the time.
    const events = (await getJson(t.app, `${BASE}/${ending}/events`)).body.data.items;
    expect(events[0].after).not.toHaveProperty('allowedActions');
  });

  it('conclude validates the decision and the winner', async () => {
    const id = await create();
    await act(id, 'start');
    expectError(await act(id, 'conclude', { decision: 'maybe' }), 400, 'VALIDATION_ERROR', '/decision');
    expectError(await act(id, 'conclude', { decision: 'ship', winnerVariantId: 'ghost' }), 400, 'VALIDATION_ERROR', '/winnerVariantId');
    expectError(await act(id, 'conclude', { decision: 'ship' }), 400, 'VALIDATION_ERROR', '/winnerVariantId');
    expect((await act(id, 'conclude', { decision: 'inconclusive' })).body.data.conclusion.winnerVariantId).toBeNull();
  });

  it('start before startDate schedules; the scheduler starts it at startDate and stops it at endDate', async () => {
    const start = clock.now() + 3_600_000;
    const id = await create({ startDate: new Date(start).toISOString(), endDate: new Date(start + 7_200_000).toISOString() });
    expect((await act(id, 'start')).body.data.status).toBe('scheduled');
    expect(await t.container.experiments.services.lifecycleService.applyDue()).toBe(0);
    clock.set(start);
    expect(await t.container.experiments.services.lifecycleService.applyDue()).toBe(1);
    expect((await getJson(t.app, `${BASE}/${id}`)).body.data.status).toBe('running');
    clock.set(start + 7_200_000);
    expect(await t.container.experiments.services.lifecycleService.applyDue()).toBe(1);
    expect((await getJson(t.app, `${BASE}/${id}`)).body.data.status).toBe('stopped');
    const events = (await getJson(t.app, `${BASE}/${id}/events`)).body.data.items;
    expect(events.map((e: { action: string }) => e.action)).toEqual(['create', 'start', 'activate', 'expire']);
    expect(events[2].actor).toBe('scheduler');
  });

  it('PATCH merges a partial body and records before/after in the audit log', async () => {
    const id = await create({ description: 'first' });
    const res = await request(t.app, { method: 'PATCH', url: `${BASE}/${id}`, payload: { configuration: { trafficAllocation: 0.9 } } });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.configuration).toMatchObject({ trafficAllocation: 0.9, targetMetrics: ['ctr'] });
    expect(res.body.data.configuration.variants.map((v: { id: string }) => v.id)).toEqual(['control', 'treatment']);
    expect(res.body.data.description).toBe('first');
    const renamed = await request(t.app, {
      method: 'PATCH',
      url: `${BASE}/${id}`,
      payload: { name: `renamed-${id}`, configuration: { targetMetrics: ['mrr', 'ctr'] } },
    });
    expect(renamed.body.data).toMatchObject({
      name: `renamed-${id}`,
      configuration: { trafficAllocation: 0.9, targetMetrics: ['mrr', 'ctr'] },
    });
    const events = (await getJson(t.app, `${BASE}/${id}/events`)).body.data.items;
    const update = events[1];
    expect(update).toMatchObject({ action: 'update', actor: 'anonymous' });
    expect(update.before.configuration.trafficAllocation).toBe(0.5);
    expect(update.after.configuration.trafficAllocation).toBe(0.9);
    expect(Object.keys(update.after)).toEqual(['configuration']);
  });

  it('PATCH refuses invalid merges and duplicate names', async () => {
    const id = await create();
    const other = await create();
    const otherName = (await getJson(t.app, `${BASE}/${other}`)).body.data.name;
    const patch = (payload: unknown) => request(t.app, { method: 'PATCH', url: `${BASE}/${id}`, payload: payload as object });
    expectError(
      await patch({
        configuration: {
          variants: [
            { id: 'a', weight: 0.3 },
            { id: 'b', weight: 0.3 },
          ],
        },
      }),
      400,
      'VALIDATION_ERROR',
      '/configuration/variants',
    );
    expectError(await patch({ endDate: '2020-01-01T00:00:00Z', startDate: '2021-01-01T00:00:00Z' }), 400, 'VALIDATION_ERROR', '/endDate');
    expectError(await patch({ configuration: { controlVariantId: 'nope' } }), 400, 'VALIDATION_ERROR', '/configuration/controlVariantId');
    expectError(await patch({ configuration: { conditions: { country: { $regex: 'x' } } } }), 400, 'VALIDATION_ERROR');
    expectError(await patch({ name: otherName }), 409, 'CONFLICT', '/name');
    expectError(await patch({ newPhase: true }), 400, 'VALIDATION_ERROR', '/newPhase');
  });

  it('while running: raising traffic is free; lowering it or changing weights needs a new phase', async () => {
    const id = await create();
    await act(id, 'start');
    const patch = (payload: unknown) => request(t.app, { method: 'PATCH', url: `${BASE}/${id}`, payload: payload as object });
    expect((await patch({ configuration: { trafficAllocation: 0.8 } })).statusCode).toBe(200);
    const lowered = await patch({ configuration: { trafficAllocation: 0.4 } });
    expectError(lowered, 409, 'CONFLICT', '/configuration/trafficAllocation');
    expect(lowered.body.error.message).toContain('newPhase');
    expectError(
      await patch({
        configuration: {
          variants: [
            { id: 'control', weight: 0.7 },
            { id: 'treatment', weight: 0.3 },
          ],
        },
      }),
      409,
      'CONFLICT',
      '/configuration/variants',
    );
    const phased = await patch({ configuration: { trafficAllocation: 0.4 }, newPhase: true });
    expect(phased.statusCode).toBe(200);
    expect(phased.body.data.phase).toBe(1);
    const events = (await getJson(t.app, `${BASE}/${id}/events`)).body.data.items;
    expect(events.at(-1).action).toBe('new_phase');
  });

  it('a stopped experiment keeps its assignment settings frozen', async () => {
    const id = await create();
    await act(id, 'start');
    await act(id, 'stop');
    const res = await request(t.app, { method: 'PATCH', url: `${BASE}/${id}`, payload: { configuration: { trafficAllocation: 1 } } });
    expectError(res, 409, 'CONFLICT');
    expect((await request(t.app, { method: 'PATCH', url: `${BASE}/${id}`, payload: { description: 'post-mortem' } })).statusCode).toBe(200);
  });
});
