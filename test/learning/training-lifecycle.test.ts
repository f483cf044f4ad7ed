import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createLearningModule, type LearningModule } from '../../src/learning/learning.module.js';
import type { TrainingRunner } from '../../src/learning/training/training-pool.js';
import type { TrainingInput, TrainingOutput } from '../../src/learning/training/runs/protocol.js';
import { KyselyTrainingJobStore } from '../../src/learning/training/training-job.kysely-store.js';
import type { DatabaseHandle } from '../../src/storage/database.js';
import { TestClock } from '../support/test-clock.js';
import { createTestDatabase, describeOnEveryDatabase, openTestDatabase, type TestDatabase } from '../support/test-database.js';

const HOUR = 3_600_000;

/** A runner that answers from a script: training itself is covered by the API tests; these test the rules around it. */
class ScriptedRunner implements TrainingRunner {
  readonly inputs: TrainingInput[] = [];
  next: ((input: TrainingInput) => Promise<TrainingOutput>)[] = [];
  async run(input: TrainingInput): Promise<TrainingOutput> {
    this.inputs.push(input);
    const step = this.next.shift();
    if (!step) throw new Error('no scripted output');
    return step(input);
  }
  async close() {}
}

const trained =
  (value: number | null, active: number | null, extra: Record<string, unknown> = {}) =>
  async (): Promise<TrainingOutput> => ({
    kind: 'trained',
    metrics: { logLikelihood: value, ...extra },
    counts: { sessions: 10 },
    artifact: '{}',
    comparison: { metric: 'logLikelihood', higherIsBetter: true, value, active },
  });
const noData = async (): Promise<TrainingOutput> => ({ kind: 'no-data', message: 'nothing in the window', counts: { sessions: 0 } });

describeOnEveryDatabase('training lifecycle', (kind) => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let runner: ScriptedRunner;
  let learning: LearningModule;
  const clock = new TestClock();
  const modules: LearningModule[] = [];
  const make = (r: TrainingRunner = runner) => {
    const m = createLearningModule({ database, clock, runner: r });
    modules.push(m);
    return m;
  };
  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = await openTestDatabase(testDatabase);
  });
  afterAll(async () => {
    await database.close();
    await testDatabase.drop();
  });
  afterEach(async () => {
    await Promise.all(modules.splice(0).map((m) => m.close()));
  });
  const setup = () => {
    runner = new ScriptedRunner();
    learning = make();
  };
  const register = (
    modelId: string,
    config: Record<string, unknown> = {},
    type: 'click_model' | 'ranker' | 'engagement_predictor' = 'click_model',
  ) => learning.services.modelService.register({ modelId, name: modelId, type, config });

  it('pending → training → ready, with lastUpdated moving at each status change only', async () => {
    setup();
    const created = await register('life');
    expect(created.status).toBe('pending');
    clock.advance(1000);
    runner.next.push(async () => {
      const during = await learning.services.modelService.get('life');
      expect(during.status).toBe('training');
      expect(during.lastUpdated).toBe(new Date(clock.now()).toISOString());
      clock.advance(1000);
      return trained(-2, null)();
    });
    await learning.services.trainingService.runUntilIdle();
    const done = await learning.services.modelService.get('life');
    expect(done).toMatchObject({ status: 'ready', activeVersion: 1, error: null, lastTraining: { outcome: 'activated', version: 1 } });
    expect(done.metrics).toMatchObject({ version: 1, logLikelihood: -2, counts: { sessions: 10 } });
    expect(done.metrics.trainingSeconds).toBeGreaterThanOrEqual(0);
    expect(done.lastUpdated).toBe(new Date(clock.now()).toISOString());
    expect(runner.inputs[0]!.window.start).toBe(clock.now() - 1000 - 30 * 24 * HOUR);
  });

  it('a worse version does not replace the active one (the model reports it); force and replaceIfWorse do', async () => {
    setup();
    await register('champ');
    runner.next.push(trained(-2, null));
    await learning.services.trainingService.runUntilIdle();
    await learning.services.trainingService.requestTraining('champ', {});
    runner.next.push(trained(-2.5, -2));
    await learning.services.trainingService.runUntilIdle();
    const kept = await learning.services.modelService.get('champ');
    expect(kept).toMatchObject({
      status: 'ready',
      activeVersion: 1,
      metrics: { version: 1, logLikelihood: -2 },
      lastTraining: { outcome: 'rejected', version: 2 },
    });
    expect(kept.lastTraining?.message).toMatch(/worse than active version 1/);
    const versions = await learning.services.modelService.listVersions('champ', { limit: 10 });
    expect(versions.items.map((v) => [v.version, v.outcome, v.active])).toEqual([
      [2, 'rejected', false],
      [1, 'activated', true],
    ]);

    await learning.services.trainingService.requestTraining('champ', { force: true });
    runner.next.push(trained(-2.6, -2));
    await learning.services.trainingService.runUntilIdle();
    expect(await learning.services.modelService.get('champ')).toMatchObject({ activeVersion: 3, metrics: { logLikelihood: -2.6 } });

    await register('lenient', { replaceIfWorse: true });
    runner.next.push(trained(-2, null), trained(-3, -2));
    await learning.services.trainingService.runUntilIdle();
    await learning.services.trainingService.requestTraining('lenient', {});
    await learning.services.trainingService.runUntilIdle();
    expect((await learning.services.modelService.get('lenient')).activeVersion).toBe(2);
  });

  it('409 while a run is queued or running; 404 for an unknown model', async () => {
    setup();
    await register('busy');
    await expect(learning.services.trainingService.requestTraining('busy', {})).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/queued/),
    });
    let release!: () => void;
    runner.next.push(async () => {
      await new Promise<void>((r) => (release = r));
      return trained(-1, null)();
    });
    const running = learning.services.trainingService.runNext();
    await new Promise((r) => setTimeout(r, 50));
    await expect(learning.services.trainingService.requestTraining('busy', {})).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/already training/),
    });
    release();
    await running;
    await expect(learning.services.trainingService.requestTraining('ghost', {})).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('no data: fails without a schedule, waits (pending, retried soon) with one, keeps the active version otherwise', async () => {
    setup();
    await register('once');
    runner.next.push(noData);
    await learning.services.trainingService.runUntilIdle();
    expect(await learning.services.modelService.get('once')).toMatchObject({
      status: 'failed',
      error: 'nothing in the window',
      lastTraining: { outcome: 'failed' },
    });

    await register('scheduled', { retrainEvery: '24h' });
    runner.next.push(noData);
    await learning.services.trainingService.runUntilIdle();
    const waiting = await learning.services.modelService.get('scheduled');
    expect(waiting).toMatchObject({
      status: 'pending',
      error: null,
      lastTraining: { outcome: 'skipped' },
      nextTrainingAt: new Date(clock.now() + 60_000).toISOString(),
    });
    clock.advance(60_000);
    await learning.services.trainingService.scheduleDue();
    runner.next.push(trained(-1, null));
    await learning.services.trainingService.runUntilIdle();
    const ready = await learning.services.modelService.get('scheduled');
    expect(ready).toMatchObject({ status: 'ready', activeVersion: 1, nextTrainingAt: new Date(clock.now() + 24 * HOUR).toISOString() });

    clock.advance(24 * HOUR);
    expect(await learning.services.trainingService.scheduleDue()).toBe(1);
    runner.next.push(noData);
    await learning.services.trainingService.runUntilIdle();
    expect(await learning.services.modelService.get('scheduled')).toMatchObject({
      status: 'ready',
      activeVersion: 1,
      lastTraining: { outcome: 'skipped' },
    });
  });

  it('a run that throws fails the model with a readable error; with an active version it stays ready', async () => {
    setup();
    await register('fragile');
    runner.next.push(async () => {
      throw new Error('out of memory');
    });
    await learning.services.trainingService.runUntilIdle();
    expect(await learning.services.modelService.get('fragile')).toMatchObject({
      status: 'failed',
      error: 'training failed: out of memory',
    });
    await learning.services.trainingService.requestTraining('fragile', {});
    runner.next.push(trained(-1, null));
    await learning.services.trainingService.runUntilIdle();
    await learning.services.trainingService.requestTraining('fragile', {});
    runner.next.push(async () => {
      throw new Error('disk full');
    });
    await learning.services.trainingService.runUntilIdle();
    expect(await learning.services.modelService.get('fragile')).toMatchObject({
      status: 'ready',
      activeVersion: 1,
      error: 'training failed: disk full',
    });
  });

  it('registers the default pbm model once, whichever instance gets there first', async () => {
    setup();
    const other = make();
    await Promise.all([learning.scheduleTick(), other.scheduleTick(), learning.scheduleTick()]);
    const model = await learning.services.modelService.get('default');
    expect(model).toMatchObject({
      type: 'click_model',
      status: 'pending',
      config: { algorithm: 'pbm', retrainEvery: '24h', window: '30d' },
    });
    runner.next.push(noData);
    await learning.services.trainingService.runUntilIdle();
    expect((await learning.services.modelService.get('default')).status).toBe('pending');
  });

  it('two instances racing for the queue: each job runs exactly once', async () => {
    setup();
    const runs: string[] = [];
    const slow = (tag: string): TrainingRunner => ({
      run: async (input) => {
        runs.push(`${tag}:${JSON.stringify(input.settings.kind)}`);
        await new Promise((r) => setTimeout(r, 30));
        return trained(-1, null)();
      },
      close: async () => undefined,
    });
    const a = make(slow('a'));
    const b = make(slow('b'));
    for (let i = 0; i < 6; i += 1) await a.services.modelService.register({ modelId: `race-${i}`, name: `race-${i}`, type: 'click_model' });
    await Promise.all([
      a.services.trainingService.runUntilIdle(),
      b.services.trainingService.runUntilIdle(),
      a.services.trainingService.runUntilIdle(),
    ]);
    expect(runs).toHaveLength(6);
    for (let i = 0; i < 6; i += 1) expect((await a.services.modelService.get(`race-${i}`)).activeVersion).toBe(1);
  });

  it('a job whose instance died is taken over once its lease expires; the dead owner cannot complete it', async () => {
    setup();
    await register('orphaned');
    const store = new KyselyTrainingJobStore(database.db, database.capabilities);
    const stolen = await store.claim('dead-instance', clock.now(), 1000);
    expect(stolen?.modelId).toBe('orphaned');
    expect(await learning.services.trainingService.runNext()).toBe(false);
    clock.advance(1001);
    runner.next.push(trained(-1, null));
    expect(await learning.services.trainingService.runNext()).toBe(true);
    const late = await store.complete({
      jobId: stolen!.id,
      owner: 'dead-instance',
      finishedAt: clock.now(),
      jobStatus: 'failed',
      jobError: 'x',
      model: { status: 'failed', error: 'x' },
      outcome: { at: clock.now(), outcome: 'failed', message: 'x' },
      nextRetrainAt: null,
    });
    expect(late).toBe('lease-lost');
    expect(await learning.services.modelService.get('orphaned')).toMatchObject({ status: 'ready', activeVersion: 1 });
  });
});
