import { expect, it } from 'vitest';
import { gridSumsOf, quantileGridSums } from '../../src/stats/index.js';
import { QUANTILE_GRID } from '../../src/experiments/model/stored-quantile-grid.js';
import { describeContract } from './support/contract.js';
import { attributeAll, experimentWorld, exposure, runningExperiment } from './support/experiment-world.js';
import { submission } from './support/records.js';

describeContract('quantile grid sums (AttributionStore → ResultsStore.dailyQuantileSums, sliceQuantileSums)', experimentWorld, (world) => {
  it('keep, per variant-day and per slice, the grid sums of the attributed items, once, whatever the batch size', async () => {
    for (const batch of [1, 100]) {
      const id = `q${batch}`;
      await runningExperiment(world(), id, 1000);
      await world().exposures.recordExposures([
        exposure(id, `${id}-u1`, 'a', 2000),
        exposure(id, `${id}-u2`, 'a', 2000),
        exposure(id, `${id}-u3`, 'b', 2000),
      ]);
      await world().feedback.insertSubmissions([
        // Before exposure: not attributed.
        submission(`${id}-u1`, 1500, [{ queryId: 'early', userAction: 'click', timeToClick: 99_999 }]),
        submission(`${id}-u1`, 3000, [
          { queryId: 'q1', userAction: 'click', timeToClick: 1200, dwellTime: 30_000, deviceType: 'mobile' },
          { queryId: 'q1', userAction: 'click', timeToClick: 800 },
        ]),
        submission(`${id}-u2`, 3000, [{ queryId: 'q2', userAction: 'impression', deviceType: 'desktop' }]),
        submission(`${id}-u3`, 3000, [{ queryId: 'q3', userAction: 'click', timeToClick: 0, dwellTime: 86_400_000 }]),
      ]);
      await attributeAll(world(), batch);
      await world().feedback.insertSubmissions([
        submission(`${id}-u1`, 4000, [{ queryId: 'q4', userAction: 'click', timeToClick: 1200, deviceType: 'desktop' }]),
        submission(`${id}-u2`, 4000, [{ queryId: 'q2', userAction: 'click', timeToClick: 5000.5, dwellTime: 12 }]),
      ]);
      await attributeAll(world(), batch);

      const daily = await world().results.dailyQuantileSums(id, 0, ['time_to_click', 'dwell_time']);
      const expected = (units: number[][]) => quantileGridSums(units, QUANTILE_GRID);
      const get = (variantId: string, source: string) => daily.find((r) => r.variantId === variantId && r.source === source)!;
      expect(daily).toHaveLength(4);
      expect(daily.every((r) => r.day === 0)).toBe(true);
      expect(gridSumsOf(QUANTILE_GRID, get('a', 'time_to_click').sums)).toEqual(expected([[1200, 800, 1200], [5000.5]]));
      expect(gridSumsOf(QUANTILE_GRID, get('a', 'dwell_time').sums)).toEqual(expected([[30_000], [12]]));
      expect(gridSumsOf(QUANTILE_GRID, get('b', 'time_to_click').sums)).toEqual(expected([[0]]));
      expect(gridSumsOf(QUANTILE_GRID, get('b', 'dwell_time').sums)).toEqual(expected([[86_400_000]]));
      expect(await world().results.dailyQuantileSums(id, 0, [])).toEqual([]);

      // Slices: u1 is mobile (its first attributed item), u2 desktop, u3 (unset); each brings all its items.
      const slices = await world().results.sliceQuantileSums(id, 0, 'deviceType', ['time_to_click']);
      const slice = (value: string) => slices.find((r) => r.value === value)!;
      expect(slices.map((r) => `${r.value}/${r.variantId}`).sort()).toEqual(['(unset)/b', 'desktop/a', 'mobile/a']);
      expect(gridSumsOf(QUANTILE_GRID, slice('mobile').sums)).toEqual(expected([[1200, 800, 1200]]));
      expect(gridSumsOf(QUANTILE_GRID, slice('desktop').sums)).toEqual(expected([[5000.5]]));
      expect(await world().results.sliceQuantileSums(id, 0, 'language', ['time_to_click'])).toEqual([]);
    }
  });
});
