import { describe, expect, it } from 'vitest';
import { cheapestFirstModel } from '../../src/demo/offline.js';
import { importLightgbmModel, predictRaw } from '../../src/ranker/index.js';

describe("the demo's deliberately worse candidate", () => {
  it('is a LightGBM text model the import reads, scoring cheaper results higher in ten price steps', () => {
    const { model, summary } = importLightgbmModel(cheapestFirstModel());
    expect(summary).toMatchObject({ format: 'lightgbm-text', trees: 1, sourceFeatureNames: ['price'], sourceObjective: 'lambdarank' });
    const prices = [5, 10, 10.5, 25, 55, 89.9, 90, 95, 100];
    const scores = [...predictRaw(model, Float32Array.from(prices), prices.length)];
    // LightGBM's split is price ≤ threshold: 10 is in the cheapest step, 10.5 in the next.
    expect(scores).toEqual([10, 10, 9, 8, 5, 2, 2, 1, 1]);
    // A missing price takes each split's default (left) side: the cheapest step.
    expect(predictRaw(model, Float32Array.of(Number.NaN), 1)[0]).toBe(10);
  });
});
