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
});
