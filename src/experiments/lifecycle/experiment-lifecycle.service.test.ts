import { describe, expect, it } from 'vitest';
import type { DomainEventLog } from '../../common/domain-events.js';
import { AppError } from '../../common/errors.js';
import { ExperimentLifecycleService } from './experiment-lifecycle.service.js';
import type { ExperimentCreateBody } from '../model/schemas/experiment.schemas.js';
import { createFakeExperiments } from '../fake-experiments.js';

function setup(events?: DomainEventLog) {
  let now = Date.parse('2026-11-22T00:00:00Z');
  const clock = { now: () => now };
  const fake = createFakeExperiments({ now: clock.now });
  const {
    stores: { experiments: store },
    experimentService: experiments,
  } = fake;
  let changes = 0;
  // This service alone, with a counter for the assignment cache and a failing sample-ratio check.
  const lifecycle = new ExperimentLifecycleService({
    store,
    clock,
    load: (id) => experiments.load(id),
    onChange: () => (changes += 1),
    srm: async () => ({ passed: false, pValue: 1e-9 }),
    ...(events ? { events } : {}),
  });
  return { store, experiments, lifecycle, advance: (ms: number) => (now += ms), changes: () => changes };
}
const body = (name: string) => ({ name, configuration: { variants: [{ id: 'a' }, { id: 'b' }] } }) as ExperimentCreateBody;

describe('ExperimentLifecycleService (fake store)', () => {
  it('opens phase 0 on start, closes it on stop, and tells the assignment cache every time', async () => {
    const t = setup();
    const { experimentId } = await t.experiments.create(body('x'));
    await t.lifecycle.act(experimentId, 'start');
    t.advance(1000);
    await t.lifecycle.act(experimentId, 'stop');
    expect(t.store.phases).toEqual([
      expect.objectContaining({ experimentId, phase: 0, seed: experimentId, endedAt: Date.parse('2026-11-22T00:00:01Z') }),
    ]);
    expect(t.changes()).toBe(2);
    expect(t.store.events.map((e) => e.action)).toEqual(['create', 'start', 'stop']);
  });

  it('refuses to ship over a failed SRM check unless forced', async () => {
    const t = setup();
    const { experimentId } = await t.experiments.create(body('srm'));
    await t.lifecycle.act(experimentId, 'start');
    await expect(t.lifecycle.conclude(experimentId, { decision: 'ship', winnerVariantId: 'b' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const concluded = await t.lifecycle.conclude(experimentId, { decision: 'ship', winnerVariantId: 'b', force: true });
    expect(concluded.conclusion).toMatchObject({ decision: 'ship', winnerVariantId: 'b', forced: true });
  });

  it('a new phase bumps the phase and derives its seed', async () => {
    const t = setup();
    const { experimentId } = await t.experiments.create(body('phase'));
    await t.lifecycle.act(experimentId, 'start');
    const patched = await t.lifecycle.patch(experimentId, { configuration: { trafficAllocation: 0.5 }, newPhase: true });
    expect(patched.phase).toBe(1);
    expect(t.store.phases.map((p) => p.seed)).toEqual([experimentId, `${experimentId}:1`]);
  });

  it('lists newest first across pages', async () => {
    const t = setup();
    for (const name of ['one', 'two', 'three']) {
      await t.experiments.create(body(name));
      t.advance(10);
    }
    const first = await t.experiments.list({ limit: 2 });
    expect(first.items.map((e) => e.name)).toEqual(['three', 'two']);
    const second = await t.experiments.list({ limit: 2, cursor: first.nextCursor! });
    expect(second.items.map((e) => e.name)).toEqual(['one']);
    expect(second.nextCursor).toBeNull();
    await expect(t.experiments.get('missing')).rejects.toBeInstanceOf(AppError);
  });

  it('writes a log line for each transition and the conclusion, saying what serves afterwards', async () => {
    const lines: [string, string][] = [];
    const t = setup({ record: (event, _fields, message) => lines.push([event, message]) });
    const { experimentId } = await t.experiments.create(body('logged'));
    await t.lifecycle.act(experimentId, 'start', 'ann');
    await t.lifecycle.act(experimentId, 'pause', 'ann');
    await t.lifecycle.act(experimentId, 'resume', 'bob');
    await t.lifecycle.conclude(experimentId, { decision: 'ship', winnerVariantId: 'b', force: true }, 'bob');
    expect(lines).toEqual([
      ['experiment.started', 'experiment "logged" created → running (start by ann)'],
      ['experiment.paused', 'experiment "logged" running → paused (pause by ann)'],
      ['experiment.resumed', 'experiment "logged" paused → running (resume by bob)'],
      [
        'experiment.concluded',
        'experiment "logged" concluded by bob: ship b; "b" is served to every unit this experiment assigns (it has no ranker, so no alias moves); ' +
          'searches outside experiments keep the engine\'s original order (alias "production")',
      ],
    ]);
  });
});
