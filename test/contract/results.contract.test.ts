import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { attributeAll, experimentWorld, exposure, runningExperiment, sumsOf } from './support/experiment-world.js';
import { submission } from './support/records.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describeContract('ResultsStore', experimentWorld, (world) => {
  it('reads sums per variant and exposure day; units without feedback count from their starting values', async () => {
    await runningExperiment(world(), 'e1', 1000);
    await world().exposures.recordExposures([exposure('e1', 'u1', 'a', 2000), exposure('e1', 'u2', 'a', 2000)]);
    await world().exposures.recordExposures([exposure('e1', 'u3', 'b', DAY + 5)]);
    await world().feedback.insertSubmissions([
      submission('u1', 3000, [
        { queryId: 'q', userAction: 'impression', position: 1 },
        { queryId: 'q', userAction: 'click', position: 1 },
      ]),
    ]);
    await attributeAll(world(), 100);
    const daily = await world().results.dailySums('e1', 0, ['ctr', 'conversion_rate']);
    const sorted = daily.sort((x, y) => x.day - y.day);
    expect(sorted.map((d) => [d.variantId, d.day])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
    expect(sorted[0]!.sums).toEqual({
      ctr: sumsOf([
        [1, 1],
        [0, 0],
      ]),
      conversion_rate: sumsOf([
        [0, 1],
        [0, 1],
      ]),
    });
    expect(sorted[1]!.sums).toEqual({ ctr: sumsOf([[0, 0]]), conversion_rate: sumsOf([[0, 1]]) });
    expect(await world().results.dailySums('e1', 1, ['ctr'])).toEqual([]);
  });

  it('reads sums per variant and exposure hour from the units, with their values so far (for a phase younger than three days)', async () => {
    await runningExperiment(world(), 'e1', 1000);
    // u1 and u2 in hour 0 (u2 at its last millisecond), u3 at 01:59:59.999 (hour 1), u4 in hour 1 of the other arm.
    await world().exposures.recordExposures([exposure('e1', 'u1', 'a', 2000), exposure('e1', 'u2', 'a', HOUR - 1)]);
    await world().exposures.recordExposures([exposure('e1', 'u3', 'a', 2 * HOUR - 1), exposure('e1', 'u4', 'b', HOUR)]);
    await world().feedback.insertSubmissions([
      submission('u1', 3000, [
        { queryId: 'q', userAction: 'impression', position: 1 },
        { queryId: 'q', userAction: 'click', position: 1 },
      ]),
      submission('u3', 2 * HOUR, [
        { queryId: 'q', userAction: 'impression', position: 1 },
        { queryId: 'q', userAction: 'impression', position: 2 },
      ]),
    ]);
    await attributeAll(world(), 100);
    const hourly = (await world().results.hourlySums('e1', 0, ['ctr', 'conversion_rate'])).sort(
      (x, y) => x.hour - y.hour || (x.variantId < y.variantId ? -1 : 1),
    );
    expect(hourly).toEqual([
      {
        variantId: 'a',
        hour: 0,
        sums: {
          ctr: sumsOf([
            [1, 1],
            [0, 0],
          ]),
          conversion_rate: sumsOf([
            [0, 1],
            [0, 1],
          ]),
        },
      },
      { variantId: 'a', hour: 1, sums: { ctr: sumsOf([[0, 2]]), conversion_rate: sumsOf([[0, 1]]) } },
      { variantId: 'b', hour: 1, sums: { ctr: sumsOf([[0, 0]]), conversion_rate: sumsOf([[0, 1]]) } },
    ]);
    expect(await world().results.hourlySums('e1', 1, ['ctr'])).toEqual([]);
    expect(await world().results.hourlySums('e1', 0, [])).toEqual([]);
  });

  it('sums CUPED inputs per variant: units without a covariate count with C = D = 0', async () => {
    await runningExperiment(world(), 'e1', 1000);
    await world().exposures.recordExposures([
      exposure('e1', 'u1', 'a', 2000, { ctr: 0.5 }),
      exposure('e1', 'u2', 'a', 2000),
      exposure('e1', 'u3', 'b', 2000, { ctr: 2, mrr: 1 }),
    ]);
    await world().feedback.insertSubmissions([
      submission('u1', 3000, [
        { queryId: 'q', userAction: 'impression', position: 1 },
        { queryId: 'q', userAction: 'impression', position: 2 },
        { queryId: 'q', userAction: 'click', position: 2 },
      ]),
      submission('u3', 3000, [{ queryId: 'q', userAction: 'impression', position: 1 }]),
    ]);
    await attributeAll(world(), 100);
    expect((await world().results.metricsWithCovariates('e1', 0)).sort()).toEqual(['ctr', 'mrr']);
    expect(await world().results.metricsWithCovariates('e1', 1)).toEqual([]);
    const sums = (await world().results.covariateSums('e1', 0, 'ctr')).sort((x, y) => (x.variantId < y.variantId ? -1 : 1));
    // a: u1 (x 1, y 2, c 0.5, d 1) and u2 (0, 0, no covariate); b: u3 (0, 1, c 2, d 1).
    expect(sums).toEqual([
      {
        variantId: 'a',
        n: 2,
        covered: 1,
        sumX: 1,
        sumY: 2,
        sumX2: 1,
        sumY2: 4,
        sumXY: 2,
        sumC: 0.5,
        sumC2: 0.25,
        sumXC: 0.5,
        sumYC: 1,
        sumD: 1,
        sumD2: 1,
        sumXD: 1,
        sumYD: 2,
        sumCD: 0.5,
      },
      {
        variantId: 'b',
        n: 1,
        covered: 1,
        sumX: 0,
        sumY: 1,
        sumX2: 0,
        sumY2: 1,
        sumXY: 0,
        sumC: 2,
        sumC2: 4,
        sumXC: 0,
        sumYC: 2,
        sumD: 1,
        sumD2: 1,
        sumXD: 0,
        sumYD: 1,
        sumCD: 2,
      },
    ]);
  });
});
