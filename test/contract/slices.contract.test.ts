import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { attributeAll, experimentWorld, exposure, runningExperiment, sumsOf } from './support/experiment-world.js';
import { submission } from './support/records.js';

describeContract('slice sums and unit values (AttributionStore → ResultsStore.sliceSums, unitValues)', experimentWorld, (world) => {
  it('puts each unit in the slice of its first attributed item, once, whatever the batch size', async () => {
    for (const batch of [1, 100]) {
      const id = `s${batch}`;
      await runningExperiment(world(), id, 1000);
      await world().exposures.recordExposures([
        exposure(id, `${id}-u1`, 'a', 2000),
        exposure(id, `${id}-u2`, 'b', 2000),
        exposure(id, `${id}-u3`, 'b', 2000),
      ]);
      await world().feedback.insertSubmissions([
        // Before exposure: not attributed, so it does not fix the slice.
        submission(`${id}-u1`, 1500, [{ queryId: 'early', userAction: 'impression', position: 1, deviceType: 'tablet' }]),
        submission(`${id}-u1`, 3000, [
          { queryId: 'q1', userAction: 'impression', position: 1, deviceType: 'mobile', searchType: 'text' },
          { queryId: 'q1', userAction: 'click', position: 1, deviceType: 'desktop' },
        ]),
        submission(`${id}-u2`, 3000, [{ queryId: 'q2', userAction: 'impression', position: 1 }]),
      ]);
      await world().feedback.insertSubmissions([
        submission(`${id}-u1`, 4000, [{ queryId: 'q3', userAction: 'impression', position: 1, deviceType: 'desktop' }]),
        submission(`${id}-u2`, 4000, [{ queryId: 'q2', userAction: 'click', position: 1, deviceType: 'mobile' }]),
      ]);
      await attributeAll(world(), batch);
      const byDevice = await world().results.sliceSums(id, 0, 'deviceType', ['ctr', 'conversion_rate']);
      const sorted = [...byDevice].sort((x, y) => (x.value + x.variantId < y.value + y.variantId ? -1 : 1));
      expect(sorted.map((r) => [r.value, r.variantId, r.units])).toEqual([
        ['(unset)', 'b', 1],
        ['mobile', 'a', 1],
      ]);
      const [unset, mobile] = sorted;
      expect(mobile!.sums.ctr).toEqual(sumsOf([[1, 2]]));
      expect(unset!.sums.ctr).toEqual(sumsOf([[1, 1]]));
      // A proportion of sessions counts the unit once in the denominator.
      expect(mobile!.sums.conversion_rate).toEqual(sumsOf([[0, 1]]));
      expect((await world().results.sliceSums(id, 0, 'searchType', ['ctr'])).map((r) => r.value).sort()).toEqual(['(unset)', 'text']);
      // Per-unit values for capping: every exposed unit, feedback or not.
      expect(await world().results.unitValues(id, 0, 'ctr')).toEqual([
        { variantId: 'a', x: 1, y: 2 },
        { variantId: 'b', x: 1, y: 1 },
        { variantId: 'b', x: 0, y: 0 },
      ]);
      // Not declared (default dimensions are deviceType and searchType): no sums.
      expect(await world().results.sliceSums(id, 0, 'language', ['ctr'])).toEqual([]);
    }
  });
});
