import { describe, expect, it } from 'vitest';
import { binDataset, binOf, buildBinMapper, quantileCuts } from './binning.js';
import type { Dataset } from './dataset.js';

describe('quantile binning', () => {
  it('uses every distinct value as a cut when there are few', () => {
    const cuts = quantileCuts(Float32Array.from([1, 1, 2, 3, 3, 3]), 255);
    expect(Array.from(cuts)).toEqual([2, 3]);
    // bin = number of cuts ≤ x, so "bin ≤ b" ⇔ "x < cuts[b]"
    expect([0.5, 1, 1.5, 2, 2.9, 3, 10].map((x) => binOf(cuts, x))).toEqual([0, 0, 0, 1, 1, 2, 2]);
    expect(binOf(cuts, Number.NaN)).toBe(3);
  });

  it('makes equal-count bins when values outnumber maxBins', () => {
    const values = Float32Array.from({ length: 1000 }, (_, i) => i);
    const cuts = quantileCuts(values, 4);
    expect(Array.from(cuts)).toEqual([250, 500, 750]);
    const counts = [0, 0, 0, 0];
    for (const v of values) counts[binOf(cuts, v)]!++;
    expect(counts).toEqual([250, 250, 250, 250]);
  });

  it('never splits a heavy value across bins and caps at 255 bins', () => {
    const values = Float32Array.from([...Array(900).fill(0), ...Array.from({ length: 100 }, (_, i) => i + 1)]);
    const cuts = quantileCuts(values, 10);
    expect(cuts[0]).toBe(1); // all 900 zeros in bin 0
    const many = quantileCuts(
      Float32Array.from({ length: 10_000 }, (_, i) => i),
      255,
    );
    expect(many.length).toBeLessThanOrEqual(254);
  });

  it('maps a dataset to row-major bins with the missing bin last', () => {
    const data: Dataset = {
      numRows: 3,
      numFeatures: 2,
      features: Float32Array.from([1, Number.NaN, 2, 5, 3, 5]),
      labels: new Float32Array(3),
      featureNames: ['a', 'b'],
    };
    const m = buildBinMapper(data);
    expect(Array.from(m.numBins)).toEqual([3, 1]);
    expect(Array.from(m.offsets)).toEqual([0, 4, 6]);
    expect(Array.from(binDataset(data, m))).toEqual([0, 1, 1, 0, 2, 0]);
  });
});
