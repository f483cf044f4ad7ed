import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { job, learningWorld, model, trainedRun } from './support/learning-world.js';

describeContract('TrainingJobStore', learningWorld, (world) => {
  it('queues one waiting job per model', async () => {
    await world().models.insert(model('m1'));
    expect(await world().jobs.enqueue(job('j1', 'm1'))).toBe('queued');
    expect(await world().jobs.enqueue(job('j2', 'm1', 2000, { reason: 'manual' }))).toBe('already-queued');
    expect((await world().jobs.openJobs('m1')).map((j) => j.id)).toEqual(['j1']);
  });

  it('claims due jobs oldest first, leases them and marks the model training', async () => {
    await world().models.insert(model('m1'), job('j1', 'm1', 1000));
    await world().models.insert(model('m2'), job('j2', 'm2', 500));
    await world().models.insert(model('m3'), job('j3', 'm3', 9000));
    const first = await world().jobs.claim('me', 2000, 100);
    expect(first).toMatchObject({ id: 'j2', status: 'running', leaseOwner: 'me', leaseExpiresAt: 2100, startedAt: 2000, attempts: 1 });
    expect(await world().models.get('m2')).toMatchObject({ status: 'training', updatedAt: 2000 });
    expect((await world().jobs.claim('me', 2000, 100))?.id).toBe('j1');
    // j3 is not due yet, and nothing else waits.
    expect(await world().jobs.claim('me', 2000, 100)).toBeUndefined();
  });

  it('takes over a job whose lease ran out, but never a second job of a model that is training', async () => {
    await world().models.insert(model('m1'), job('j1', 'm1', 1000));
    await world().jobs.claim('dead', 1000, 100);
    await world().jobs.enqueue(job('j2', 'm1', 1000, { reason: 'manual' }));
    expect(await world().jobs.claim('me', 1050, 100)).toBeUndefined();
    expect(await world().jobs.extendLease('j1', 'me', 5000)).toBe(false);
    expect(await world().jobs.extendLease('j1', 'dead', 1150)).toBe(true);
    expect(await world().jobs.claim('me', 1120, 100)).toBeUndefined();
    const taken = await world().jobs.claim('me', 1200, 100);
    expect(taken).toMatchObject({ id: 'j1', leaseOwner: 'me', attempts: 2 });
    expect((await world().jobs.openJobs('m1')).map((j) => [j.id, j.status])).toEqual([
      ['j1', 'running'],
      ['j2', 'queued'],
    ]);
  });

  it('completes a run in one write: the job, a numbered version, the training state and the model', async () => {
    await world().models.insert(model('m1'), job('j1', 'm1', 1000));
    await world().jobs.claim('me', 1000, 100);
    expect(await world().jobs.complete(trainedRun('j1', 'other', 1500, 'activated'))).toBe('lease-lost');
    expect(await world().jobs.complete(trainedRun('j1', 'me', 1500, 'activated', 99_000))).toEqual({ version: 1 });
    expect(await world().jobs.complete(trainedRun('j1', 'me', 1600, 'activated'))).toBe('lease-lost');
    expect(await world().jobs.openJobs('m1')).toEqual([]);
    expect(await world().models.get('m1')).toMatchObject({
      status: 'ready',
      updatedAt: 1500,
      metrics: { version: 1, logLikelihood: -1.5, counts: { sessions: 10 } },
    });
    expect(await world().versions.getState('m1')).toEqual({
      modelId: 'm1',
      activeVersion: 1,
      latestVersion: 1,
      lastOutcome: { at: 1500, outcome: 'activated', message: null, version: 1 },
      nextRetrainAt: 99_000,
    });
  });

  it('records a failed run without a version: the model keeps its status time when the status does not change', async () => {
    await world().models.insert(model('m1'), job('j1', 'm1', 1000));
    await world().jobs.claim('me', 1000, 100);
    const failed = {
      jobId: 'j1',
      owner: 'me',
      finishedAt: 1500,
      jobStatus: 'failed' as const,
      jobError: 'no data',
      model: { status: 'training' as const, error: 'no data' },
      outcome: { at: 1500, outcome: 'failed' as const, message: 'no data' },
      nextRetrainAt: null,
    };
    expect(await world().jobs.complete(failed)).toEqual({ version: null });
    expect(await world().models.get('m1')).toMatchObject({ status: 'training', updatedAt: 1000, error: 'no data', metrics: {} });
    expect(await world().versions.getState('m1')).toMatchObject({
      activeVersion: null,
      latestVersion: 0,
      lastOutcome: { outcome: 'failed', version: null },
    });
  });
});
