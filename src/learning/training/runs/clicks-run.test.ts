import { describe, expect, it } from 'vitest';
import { boundedPropensities } from './clicks-run.js';

describe('boundedPropensities', () => {
  it('caps noisy harvested ratios above position 1 at 1, floors negatives at 0, and reads a non-number as 1', () => {
    expect(boundedPropensities([1, 0.52, 1.88, 0.3, -0.01, Number.NaN])).toEqual([1, 0.52, 1, 0.3, 0, 1]);
  });
});
