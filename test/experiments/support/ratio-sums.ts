import type { RatioSums } from '../../../src/stats/index.js';

/** The ratio sums of per-unit numerators `x` and denominators `y`, added up here from the raw values the test sent, to hold the service's stored sums to. */
export function ratioSumsOf(x: number[], y: number[]): RatioSums {
  return {
    n: x.length,
    sumX: x.reduce((a, b) => a + b, 0),
    sumY: y.reduce((a, b) => a + b, 0),
    sumX2: x.reduce((a, b) => a + b * b, 0),
    sumY2: y.reduce((a, b) => a + b * b, 0),
    sumXY: x.reduce((a, b, i) => a + b * y[i]!, 0),
  };
}
