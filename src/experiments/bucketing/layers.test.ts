import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assign, type AssignableExperiment } from './assign.js';
import { inLayer, type LayerSlice } from './buckets.js';
import { generateUnitIds } from '../../../test/support/unit-ids.js';

const UNIT_COUNT = 100_000;
const units = generateUnitIds(UNIT_COUNT, 7);

/** Sorted cut points 0 = c0 < c1 < … < ck = 1 on a 1e-4 grid, so slices tile [0, 1). */
const partition = fc
  .uniqueArray(fc.integer({ min: 1, max: 9999 }), { minLength: 1, maxLength: 5 })
  .map((cuts) => [0, ...[...cuts].sort((a, b) => a - b).map((c) => c / 10000), 1]);

describe('layers (mutual exclusion)', () => {
  it(`slices that tile a layer put each of ${UNIT_COUNT} units in exactly one slice, and one experiment at most`, () => {
    let runs = 0;
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
        partition,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        (layerId, cuts, traffic) => {
          runs++;
          const experiments: AssignableExperiment[] = cuts.slice(1).map((end, i) => ({
            seed: `exp-${i}`,
            variants: [
              { id: 'control', weight: 0.5 },
              { id: 'treatment', weight: 0.5 },
            ],
            trafficAllocation: traffic[i] ?? 1,
            layer: { id: layerId, range: [cuts[i] ?? 0, end] },
          }));
          const slices: LayerSlice[] = experiments.map((e) => e.layer as LayerSlice);
          for (const unit of units) {
            let sliceCount = 0;
            for (const slice of slices) if (inLayer(unit, slice)) sliceCount++;
            if (sliceCount !== 1) return false;
            let enrolled = 0;
            for (const experiment of experiments) if (assign(experiment, unit, {}).inExperiment) enrolled++;
            if (enrolled > 1) return false;
          }
          return true;
        },
      ),
      { seed: 1337, numRuns: 8 },
    );
    expect(runs).toBe(8);
  });

  it('gives every experiment in a layer the same position for a unit (the hash ignores the experiment)', () => {
    const layer = { id: 'ranking', range: [0, 0.3] as const };
    for (const unit of units.slice(0, 2000)) {
      const a = assign(
        {
          seed: 'a',
          variants: [
            { id: 'x', weight: 0.5 },
            { id: 'y', weight: 0.5 },
          ],
          trafficAllocation: 1,
          layer,
        },
        unit,
      );
      const b = assign(
        {
          seed: 'b',
          variants: [
            { id: 'x', weight: 0.5 },
            { id: 'y', weight: 0.5 },
          ],
          trafficAllocation: 1,
          layer,
        },
        unit,
      );
      expect(a.reason === 'not_in_layer').toBe(b.reason === 'not_in_layer');
    }
  });

  it('slice sizes follow the ranges (0.1 % resolution of hash version 1)', () => {
    const counts = [0, 0, 0];
    const slices: LayerSlice[] = [
      { id: 'l', range: [0, 0.2] },
      { id: 'l', range: [0.2, 0.5] },
      { id: 'l', range: [0.5, 1] },
    ];
    for (const unit of units) slices.forEach((s, i) => (counts[i] = (counts[i] ?? 0) + (inLayer(unit, s) ? 1 : 0)));
    const shares = counts.map((c) => c / UNIT_COUNT);
    [0.2, 0.3, 0.5].forEach((expected, i) => expect(Math.abs((shares[i] ?? 0) - expected)).toBeLessThan(0.01));
  });
});
