import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import {
  attributeAll,
  attributeBatch,
  experimentWorld,
  exposure,
  runningExperiment,
  stopExperiment,
  sumsOf,
  type ExperimentWorld,
} from './support/experiment-world.js';
import { submission } from './support/records.js';

const METRICS = ['ctr', 'abandonment_rate', 'mrr', 'mean_rating', 'dwell_time', 'satisfied_click_rate', 'conversion_rate'] as const;

/**
 * u1 (variant a) and u2 (variant b) exposed at 2000; u1's feedback spans two submissions, one item
 * before its exposure and one after the phase ends (at 5000); a stranger is never exposed.
 */
async function scenario(world: ExperimentWorld) {
  await runningExperiment(world, 'e1', 1000);
  await world.feedback.insertSubmissions([submission('u1', 1500, [{ queryId: 'early', userAction: 'click', position: 1 }])]);
  await world.exposures.recordExposures([exposure('e1', 'u1', 'a', 2000), exposure('e1', 'u2', 'b', 2000)]);
  await world.feedback.insertSubmissions([
    submission('u1', 3000, [
      { queryId: 'q1', userAction: 'impression', position: 1 },
      { queryId: 'q1', userAction: 'impression', position: 2 },
      { queryId: 'q1', userAction: 'click', position: 2, dwellTime: 40_000 },
      { queryId: 'q2', userAction: 'rate', rating: 4 },
    ]),
    submission('u2', 3000, [{ queryId: 'q9', userAction: 'impression', position: 1 }]),
    submission('stranger', 3000, [
      { queryId: 'qs', userAction: 'click', position: 1 },
      { queryId: 'qs', userAction: 'purchase' },
    ]),
  ]);
  await world.feedback.insertSubmissions([
    submission('u1', 4000, [
      { queryId: 'q1', userAction: 'click', position: 1 },
      { queryId: 'q3', userAction: 'purchase' },
      { queryId: 'q3', userAction: 'conversion' },
    ]),
  ]);
  await stopExperiment(world, 'e1', 5000);
  await world.feedback.insertSubmissions([submission('u1', 6000, [{ queryId: 'late', userAction: 'click', position: 1 }])]);
}

/** The per-unit X and Y the scenario must produce, per metric, for u1 (a) and u2 (b). */
const EXPECTED: Record<(typeof METRICS)[number], { a: [number, number]; b: [number, number] }> = {
  ctr: { a: [2, 2], b: [0, 1] },
  // u1's searches: q1 (clicked), q2 and q3; the click before exposure and the late one do not count.
  abandonment_rate: { a: [2, 3], b: [1, 1] },
  // The first click of q1 was at position 2; the second click of q1 is not a first click.
  mrr: { a: [0.5, 3], b: [0, 1] },
  mean_rating: { a: [4, 1], b: [0, 0] },
  dwell_time: { a: [40_000, 1], b: [0, 0] },
  satisfied_click_rate: { a: [1, 2], b: [0, 0] },
  // Two conversion items, one converted session; every session counts once in the denominator.
  conversion_rate: { a: [1, 1], b: [0, 1] },
};

describeContract('AttributionStore', experimentWorld, (world) => {
  it('folds each item once, in batches that continue searches across calls, into the variant sums', async () => {
    await scenario(world());
    expect(await attributeAll(world(), 3)).toEqual([3, 3, 3, 3, 0]);
    expect(
      await attributeBatch(world(), 3, () => ({
        units: [],
        searches: [],
        variantSums: [],
        unitSlices: [],
        sliceSums: [],
        unitQuantiles: [],
        quantileSums: [],
        sliceQuantileSums: [],
        querySums: [],
      })),
    ).toBe(0);
    const daily = await world().results.dailySums('e1', 0, METRICS);
    const byVariant = Object.fromEntries(daily.map((d) => [d.variantId, d]));
    expect(Object.keys(byVariant).sort()).toEqual(['a', 'b']);
    for (const metric of METRICS) {
      expect(byVariant.a!.sums[metric], `${metric} a`).toEqual(sumsOf([EXPECTED[metric].a]));
      expect(byVariant.b!.sums[metric], `${metric} b`).toEqual(sumsOf([EXPECTED[metric].b]));
    }
  });

  it('gives the same sums whatever the batch size', async () => {
    await scenario(world());
    await attributeAll(world(), 1000);
    const daily = await world().results.dailySums('e1', 0, METRICS);
    const a = daily.find((d) => d.variantId === 'a')!;
    for (const metric of METRICS) expect(a.sums[metric], metric).toEqual(sumsOf([EXPECTED[metric].a]));
  });

  it('has nothing to do without feedback', async () => {
    expect(await attributeAll(world(), 10)).toEqual([0]);
  });
});
