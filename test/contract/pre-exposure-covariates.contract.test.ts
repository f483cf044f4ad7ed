import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { experimentWorld, exposure, runningExperiment } from './support/experiment-world.js';
import { submission } from './support/records.js';

const SESSION_METRICS = ['conversion_rate', 'ctr', 'dwell_time', 'mean_rating', 'satisfied_click_rate', 'scroll_depth', 'time_to_click'];

describeContract('PreExposureCovariateStore', experimentWorld, (world) => {
  it("computes every session-level metric over a unit's feedback from before its exposure only", async () => {
    await runningExperiment(world(), 'e1', 100);
    await world().feedback.insertSubmissions([
      submission('u1', 1000, [
        { queryId: 'q', userAction: 'impression', position: 1 },
        { queryId: 'q', userAction: 'impression', position: 2 },
        { queryId: 'q', userAction: 'click', position: 2, dwellTime: 50_000 },
      ]),
      submission('u1', 9000, [{ queryId: 'late', userAction: 'click', position: 1 }]),
      submission('u3', 9000, [{ queryId: 'late', userAction: 'impression', position: 1 }]),
    ]);
    const units = [exposure('e1', 'u1', 'a', 5000), exposure('e1', 'u2', 'b', 5000), exposure('e1', 'u3', 'b', 5000)];
    await world().exposures.recordExposures(units);
    // u2 has no feedback and u3 only later feedback: no covariate for either.
    expect(
      await world().covariates.compute(
        units.map(({ experimentId, phase, unitId, exposedAt }) => ({ experimentId, phase, unitId, exposedAt })),
      ),
    ).toBe(SESSION_METRICS.length);
    expect((await world().results.metricsWithCovariates('e1', 0)).sort()).toEqual(SESSION_METRICS);
    const ctr = (await world().results.covariateSums('e1', 0, 'ctr')).find((s) => s.variantId === 'a')!;
    expect(ctr).toMatchObject({ n: 1, covered: 1, sumC: 1, sumD: 2 });
    const satisfied = (await world().results.covariateSums('e1', 0, 'satisfied_click_rate')).find((s) => s.variantId === 'a')!;
    expect(satisfied).toMatchObject({ covered: 1, sumC: 1, sumD: 1 });
    const none = (await world().results.covariateSums('e1', 0, 'ctr')).find((s) => s.variantId === 'b')!;
    expect(none).toMatchObject({ n: 2, covered: 0, sumC: 0, sumD: 0 });
  });

  it('leaves a covariate sent with assign as it is', async () => {
    await runningExperiment(world(), 'e1', 100);
    await world().feedback.insertSubmissions([submission('u1', 1000, [{ queryId: 'q', userAction: 'impression', position: 1 }])]);
    await world().exposures.recordExposures([exposure('e1', 'u1', 'a', 5000, { ctr: 0.25 })]);
    expect(await world().covariates.compute([{ experimentId: 'e1', phase: 0, unitId: 'u1', exposedAt: 5000 }])).toBe(
      SESSION_METRICS.length,
    );
    const ctr = (await world().results.covariateSums('e1', 0, 'ctr'))[0]!;
    expect(ctr).toMatchObject({ covered: 1, sumC: 0.25, sumD: 1 });
    expect(await world().covariates.compute([])).toBe(0);
  });
});
