/**
 * Monte Carlo checks of false-positive rates, with and without peeking. Fixed seeds make every run
 * identical; arms are accumulated as sufficient statistics, one draw per session.
 */
import { describe, expect, it } from 'vitest';
import { addCtrSessions, emptySums, snapshot } from '../../../test/support/stats-simulation.js';
import { welchTest } from '../frequentist/frequentist.js';
import { createRng } from '../../random/index.js';
import { sequentialTest } from './sequential.js';

describe('simulated false-positive rates (A/A, CTR ratio metric, alpha 0.05)', () => {
  it('fixed horizon, one look: FPR within [0.04, 0.06]', () => {
    // 8000 rather than 2000 experiments: at 2000 the Monte Carlo s.d. (0.005) puts a correct
    // test outside [0.04, 0.06] about 5% of the time; at 8000 (s.d. 0.0024) almost never.
    const rng = createRng(1);
    const experiments = 8000;
    let positives = 0;
    for (let e = 0; e < experiments; e += 1) {
      const control = emptySums();
      const variant = emptySums();
      addCtrSessions(rng, control, 1000, 0.3);
      addCtrSessions(rng, variant, 1000, 0.3);
      if (welchTest(control, variant).significant) positives += 1;
    }
    const fpr = positives / experiments;
    console.log(`A/A fixed horizon, one look: FPR = ${fpr.toFixed(4)} over ${experiments} experiments`);
    expect(fpr).toBeGreaterThanOrEqual(0.04);
    expect(fpr).toBeLessThanOrEqual(0.06);
  });

  it('20 daily peeks: sequential keeps FPR ≤ 0.05, fixed-horizon exceeds it', () => {
    const rng = createRng(2);
    const experiments = 2000;
    const looks = 20;
    let fixedPositives = 0;
    let sequentialPositives = 0;
    for (let e = 0; e < experiments; e += 1) {
      const control = emptySums();
      const variant = emptySums();
      let fixedHit = false;
      let sequentialHit = false;
      for (let day = 0; day < looks; day += 1) {
        addCtrSessions(rng, control, 250, 0.3);
        addCtrSessions(rng, variant, 250, 0.3);
        fixedHit ||= welchTest(snapshot(control), snapshot(variant)).significant;
        sequentialHit ||= sequentialTest(snapshot(control), snapshot(variant)).significant;
      }
      if (fixedHit) fixedPositives += 1;
      if (sequentialHit) sequentialPositives += 1;
    }
    const fixedFpr = fixedPositives / experiments;
    const sequentialFpr = sequentialPositives / experiments;
    console.log(
      `A/A with ${looks} peeks: fixed-horizon FPR = ${fixedFpr.toFixed(4)}, sequential (N* = 5000) FPR = ${sequentialFpr.toFixed(4)}`,
    );
    expect(sequentialFpr).toBeLessThanOrEqual(0.05);
    expect(fixedFpr).toBeGreaterThan(0.08);
  });
});
