import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { experimentWorld, exposure, runningExperiment } from './support/experiment-world.js';

const DAY = 86_400_000;

describeContract('ExposureStore', experimentWorld, (world) => {
  it('records first exposures once: returns only the new ones, the first of a unit in one batch wins', async () => {
    await runningExperiment(world(), 'e1', 1000);
    const first = [exposure('e1', 'u1', 'a', 2000), exposure('e1', 'u2', 'b', 2000)];
    expect(await world().exposures.recordExposures(first)).toEqual(first);
    const again = [exposure('e1', 'u1', 'b', 3000), exposure('e1', 'u3', 'a', 3000), exposure('e1', 'u3', 'b', 3000)];
    expect(await world().exposures.recordExposures(again)).toEqual([again[1]]);
    expect(await world().exposures.recordExposures([])).toEqual([]);
    expect(await world().exposures.countExposures('e1', 0)).toEqual({ a: 2, b: 1 });
  });

  it('counts units per variant over every exposure day, per experiment and phase', async () => {
    await runningExperiment(world(), 'e1', 1000);
    await world().exposures.recordExposures([exposure('e1', 'u1', 'a', 2000), exposure('e1', 'u2', 'a', 2000 + DAY)]);
    await world().exposures.recordExposures([{ ...exposure('e1', 'u1', 'b', 3 * DAY), phase: 1 }, exposure('e2', 'u1', 'b', 2000)]);
    expect(await world().exposures.countExposures('e1', 0)).toEqual({ a: 2 });
    expect(await world().exposures.countExposures('e1', 1)).toEqual({ b: 1 });
    expect(await world().exposures.countExposures('e1', 7)).toEqual({});
  });

  it('keeps unit ids as sent, whatever their characters, and knows them again', async () => {
    await runningExperiment(world(), 'e1', 1000);
    const ids = ['a"b', 'c\\d', '{e,f}', 'NULL', ' spaced ', "it's", 'é😀', 'x'.repeat(256), '1e3', '[1]', '\\u0041'];
    const rows = ids.map((id, i) => exposure('e1', id, i % 2 ? 'a' : 'b', 2000 + i));
    expect(await world().exposures.recordExposures(rows)).toEqual(rows);
    expect(await world().exposures.recordExposures([...rows].reverse())).toEqual([]);
    expect(await world().exposures.countExposures('e1', 0)).toEqual({ a: 5, b: 6 });
  });

  it('keeps covariates sent with assign, first value per metric, for new and known units alike', async () => {
    await runningExperiment(world(), 'e1', 1000);
    await world().exposures.recordExposures([exposure('e1', 'u1', 'a', 2000, { ctr: 0.25 }), exposure('e1', 'u2', 'a', 2000)]);
    // u1 is known: its exposure stays, its ctr stays, its new metric is added.
    const again = [exposure('e1', 'u1', 'b', 3000, { ctr: 0.9, dwell_time: 3.5 }), exposure('e1', 'u3', 'b', 3000, { ctr: -1e12 })];
    expect(await world().exposures.recordExposures(again)).toEqual([again[1]]);
    expect((await world().results.metricsWithCovariates('e1', 0)).sort()).toEqual(['ctr', 'dwell_time']);
    const ctr = await world().results.covariateSums('e1', 0, 'ctr');
    expect(ctr.find((s) => s.variantId === 'a')).toMatchObject({ n: 2, covered: 1, sumC: 0.25 });
    expect(ctr.find((s) => s.variantId === 'b')).toMatchObject({ n: 1, covered: 1, sumC: -1e12 });
    const dwell = await world().results.covariateSums('e1', 0, 'dwell_time');
    expect(dwell.find((s) => s.variantId === 'a')).toMatchObject({ covered: 1, sumC: 3.5 });
  });
});
