import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { job, learningWorld, model, trainedRun, type LearningWorld } from './support/learning-world.js';

/** Trains `m1` three times: v1 activated, v2 rejected, v3 activated. */
async function threeVersions(world: LearningWorld) {
  await world.models.insert(model('m1'), job('j1', 'm1', 1000));
  const outcomes = ['activated', 'rejected', 'activated'] as const;
  for (const [i, outcome] of outcomes.entries()) {
    const id = `j${i + 1}`;
    if (i > 0) await world.jobs.enqueue(job(id, 'm1', 1000 + i));
    await world.jobs.claim('me', 2000 + i * 1000, 100);
    await world.jobs.complete(trainedRun(id, 'me', 2500 + i * 1000, outcome, 10_000 + i));
  }
}

describeContract('ModelVersionStore', learningWorld, (world) => {
  it('lists versions newest first without artifacts, below a version when asked; artifacts by number', async () => {
    await threeVersions(world());
    const versions = await world().versions.listVersions('m1', 10);
    expect(versions.map((v) => [v.version, v.outcome, v.jobId])).toEqual([
      [3, 'activated', 'j3'],
      [2, 'rejected', 'j2'],
      [1, 'activated', 'j1'],
    ]);
    expect(versions[1]).toEqual({
      modelId: 'm1',
      version: 2,
      jobId: 'j2',
      outcome: 'rejected',
      message: 'worse',
      metrics: { version: 2, logLikelihood: -1.5, counts: { sessions: 10 } },
      counts: { sessions: 10 },
      windowStart: 3400,
      windowEnd: 3500,
      trainingSeconds: 0.25,
      createdAt: 3500,
    });
    expect((await world().versions.listVersions('m1', 1, 3)).map((v) => v.version)).toEqual([2]);
    expect(await world().versions.getArtifact('m1', 2)).toBe('{"artifact":"j2"}');
    expect(await world().versions.getArtifact('m1', 9)).toBeUndefined();
    expect(await world().versions.listVersions('nope', 10)).toEqual([]);
  });

  it('keeps the training state: the active version skips a rejected one', async () => {
    await threeVersions(world());
    await world().models.insert(model('m2'));
    const states = await world().versions.getStates(['m1', 'm2']);
    expect([...states.keys()]).toEqual(['m1']);
    expect(states.get('m1')).toMatchObject({ activeVersion: 3, latestVersion: 3, nextRetrainAt: 10_002 });
    expect(await world().versions.getState('m2')).toBeUndefined();
    expect(await world().versions.getStates([])).toEqual(new Map());
  });

  it('hands out due retrains once, earliest first, and clears their schedule', async () => {
    await threeVersions(world());
    await world().models.insert(model('m2'), job('k1', 'm2', 1000));
    await world().jobs.claim('me', 5000, 100);
    await world().jobs.complete(trainedRun('k1', 'me', 5500, 'activated', 9_000));
    expect(await world().versions.takeDueRetrains(8_000, 10)).toEqual([]);
    expect(await world().versions.takeDueRetrains(20_000, 1)).toEqual(['m2']);
    expect(await world().versions.takeDueRetrains(20_000, 10)).toEqual(['m1']);
    expect(await world().versions.takeDueRetrains(20_000, 10)).toEqual([]);
    expect((await world().versions.getState('m1'))?.nextRetrainAt).toBeNull();
  });

  it('writes an imported version after the trained ones: next number, active only when activated, the model ready', async () => {
    await threeVersions(world());
    const write = {
      modelId: 'm1',
      importId: 'imp-1',
      message: 'imported',
      metrics: { source: 'import' },
      counts: { trees: 2 },
      artifact: '{"artifact":"imported"}',
      createdAt: 9000,
      modelMetrics: { source: 'import' },
      lastOutcome: { at: 9000, outcome: 'rejected' as const, message: 'imported' },
    };
    expect(await world().versions.insertImported({ ...write, outcome: 'rejected' })).toEqual({ version: 4, activeBefore: 3 });
    expect(await world().versions.getState('m1')).toMatchObject({
      activeVersion: 3,
      latestVersion: 4,
      lastOutcome: { at: 9000, version: 4, outcome: 'rejected', message: 'imported' },
    });
    const activated = { ...write, importId: 'imp-2', lastOutcome: { ...write.lastOutcome, outcome: 'activated' as const } };
    expect(await world().versions.insertImported({ ...activated, outcome: 'activated' })).toEqual({ version: 5, activeBefore: 3 });
    expect((await world().versions.getState('m1'))?.activeVersion).toBe(5);
    const [v5] = await world().versions.listVersions('m1', 1);
    expect(v5).toEqual({
      modelId: 'm1',
      version: 5,
      jobId: 'imp-2',
      outcome: 'activated',
      message: 'imported',
      metrics: { version: 5, source: 'import' },
      counts: { trees: 2 },
      windowStart: null,
      windowEnd: null,
      trainingSeconds: 0,
      createdAt: 9000,
    });
    expect(await world().versions.getArtifact('m1', 5)).toBe('{"artifact":"imported"}');
    expect(await world().models.get('m1')).toMatchObject({ status: 'ready', error: null, metrics: { version: 5, source: 'import' } });

    await world().models.insert(model('m3'));
    expect(await world().versions.insertImported({ ...activated, modelId: 'm3', outcome: 'activated' })).toEqual({
      version: 1,
      activeBefore: null,
    });
    expect(await world().models.get('m3')).toMatchObject({ status: 'ready', updatedAt: 9000 });
  });
});
