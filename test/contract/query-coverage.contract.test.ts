import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import {
  attributeAll,
  experimentWorld,
  exposure,
  runningExperiment,
  stopExperiment,
  type ExperimentWorld,
} from './support/experiment-world.js';
import { submission } from './support/records.js';

/**
 * e1: u1 (a) and u2 (b); e2: u1 (a); all exposed at 2000. u1 searches "shoes" and clicks it, and "socks";
 * u2 searches "shoes" and one query without a hash, and clicks "shoes" in a later submission. e1 stops at
 * 5000, so u2's "shoes" search at 6000 counts for no one.
 */
async function scenario(world: ExperimentWorld) {
  await runningExperiment(world, 'e1', 1000);
  await runningExperiment(world, 'e2', 1000);
  await world.exposures.recordExposures([
    exposure('e1', 'u1', 'a', 2000),
    exposure('e1', 'u2', 'b', 2000),
    exposure('e2', 'u1', 'a', 2000),
  ]);
  await world.feedback.insertSubmissions([
    submission('u1', 3000, [
      { queryId: 'q1', queryHash: 'shoes', userAction: 'impression', position: 1 },
      { queryId: 'q1', queryHash: 'shoes', userAction: 'click', position: 1 },
      { queryId: 'q4', queryHash: 'socks', userAction: 'impression', position: 1 },
    ]),
    submission('u2', 3000, [
      { queryId: 'q2', queryHash: 'shoes', userAction: 'impression', position: 1 },
      { queryId: 'q3', queryHash: null, userAction: 'impression', position: 1 },
    ]),
  ]);
  await world.feedback.insertSubmissions([
    submission('u2', 4000, [{ queryId: 'q2', queryHash: 'shoes', userAction: 'click', position: 1 }]),
  ]);
  await stopExperiment(world, 'e1', 5000);
  await world.feedback.insertSubmissions([submission('u2', 6000, [{ queryId: 'q5', queryHash: 'shoes', userAction: 'impression' }])]);
}

const phase = (id: string, status: string, lastSeen: number, variants: [string, number, number, number][]) => ({
  experimentId: id,
  name: `experiment ${id}`,
  status,
  type: 'ab',
  variantOrder: ['a', 'b'],
  phase: 0,
  lastSeen,
  variants: variants.map(([variantId, searches, clickedSearches, seen]) => ({ variantId, searches, clickedSearches, lastSeen: seen })),
});

const SHOES = [
  phase('e1', 'stopped', 4000, [
    ['a', 1, 1, 3000],
    ['b', 1, 1, 4000],
  ]),
  phase('e2', 'running', 3000, [['a', 1, 1, 3000]]),
];

describeContract('QueryCoverageStore', experimentWorld, (world) => {
  it('lists the phases whose attributed searches carried the hash, most recently seen first, with exact counts per variant', async () => {
    await scenario(world());
    await attributeAll(world(), 2);
    expect(await world().coverage.phasesCovering('shoes', undefined, 10)).toEqual(SHOES);
    expect(await world().coverage.phasesCovering('nothing', undefined, 10)).toEqual([]);
  });

  it('gives the same counts whatever the batch size (additive upserts, the later last-seen kept)', async () => {
    await scenario(world());
    await attributeAll(world(), 1000);
    expect(await world().coverage.phasesCovering('shoes', undefined, 10)).toEqual(SHOES);
  });

  it('pages after a key in (lastSeen, experimentId, phase) descending: a tie on lastSeen goes by experiment id', async () => {
    await scenario(world());
    await attributeAll(world(), 1);
    const socks = (id: string) => phase(id, id === 'e1' ? 'stopped' : 'running', 3000, [['a', 1, 0, 3000]]);
    expect(await world().coverage.phasesCovering('socks', undefined, 1)).toEqual([socks('e2')]);
    expect(await world().coverage.phasesCovering('socks', { lastSeen: 3000, experimentId: 'e2', phase: 0 }, 1)).toEqual([socks('e1')]);
    expect(await world().coverage.phasesCovering('socks', { lastSeen: 3000, experimentId: 'e1', phase: 0 }, 1)).toEqual([]);
    expect(await world().coverage.phasesCovering('shoes', { lastSeen: 4000, experimentId: 'e1', phase: 0 }, 5)).toEqual([SHOES[1]]);
  });
});
