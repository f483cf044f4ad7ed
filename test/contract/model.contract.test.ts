import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { job, learningWorld, model } from './support/learning-world.js';

describeContract('ModelStore', learningWorld, (world) => {
  it('registers a model, with its first training job in the same write', async () => {
    expect(await world().models.insert(model('m1'), job('j1', 'm1'))).toBe('inserted');
    expect(await world().models.get('m1')).toEqual(model('m1'));
    expect(await world().models.get('nope')).toBeUndefined();
    expect((await world().jobs.openJobs('m1')).map((j) => [j.id, j.status, j.reason, j.attempts])).toEqual([
      ['j1', 'queued', 'created', 0],
    ]);
    expect(await world().models.insert(model('m2'))).toBe('inserted');
    expect(await world().jobs.openJobs('m2')).toEqual([]);
  });

  it('refuses a taken id or name, writing nothing (not even the job)', async () => {
    await world().models.insert(model('m1'));
    expect(await world().models.insert(model('m1', { name: 'other' }), job('j1', 'm1'))).toBe('duplicate');
    expect(await world().models.insert(model('m2', { name: 'model m1' }), job('j2', 'm2'))).toBe('duplicate');
    expect(await world().jobs.openJobs('m1')).toEqual([]);
    expect(await world().models.get('m2')).toBeUndefined();
  });

  it('lists newest first by (createdAt, id), filtered by type and status, after a keyset position', async () => {
    await world().models.insert(model('a', { createdAt: 1000 }));
    await world().models.insert(model('c', { createdAt: 2000, type: 'ranker' }));
    await world().models.insert(model('b', { createdAt: 2000, status: 'ready' }));
    expect((await world().models.list({}, 10)).map((m) => m.id)).toEqual(['c', 'b', 'a']);
    expect((await world().models.list({ type: 'ranker' }, 10)).map((m) => m.id)).toEqual(['c']);
    expect((await world().models.list({ status: 'ready' }, 10)).map((m) => m.id)).toEqual(['b']);
    expect((await world().models.list({ after: { createdAt: 2000, id: 'c' } }, 1)).map((m) => m.id)).toEqual(['b']);
  });
});
