/** Monte Carlo checks of power, SRM false alarms and CUPED's variance reduction, with fixed seeds. */
import { describe, expect, it } from 'vitest';
import { binomial } from '../../../test/support/stats-simulation.js';
import { estimateCupedEffect } from '../frequentist/cuped.js';
import { welchTest } from '../frequentist/frequentist.js';
import { proportionSums } from '../frequentist/moments.js';
import { sampleSize } from './power.js';
import { createRng } from '../../random/index.js';
import { srmCheck } from '../checks/srm.js';
import type { CupedSums } from '../types.js';

describe('simulated power, SRM and CUPED', () => {
  it('an injected 5% lift is detected with the power the calculator predicted (± 5 points)', () => {
    const baseline = 0.3;
    const plan = sampleSize({ baselineMean: baseline, mde: 0.05, alpha: 0.05, power: 0.8 });
    const n = plan.sessionsPerVariant ?? 0;
    expect(n).toBeGreaterThan(0);
    const rng = createRng(3);
    const experiments = 2000;
    let detected = 0;
    for (let e = 0; e < experiments; e += 1) {
      const control = proportionSums(binomial(rng, n, baseline), n);
      const variant = proportionSums(binomial(rng, n, baseline * 1.05), n);
      if (welchTest(control, variant).significant) detected += 1;
    }
    const power = detected / experiments;
    console.log(`5% lift on a 30% proportion, n = ${n} per arm: predicted power 0.80, observed ${power.toFixed(4)}`);
    expect(Math.abs(power - 0.8)).toBeLessThanOrEqual(0.05);
  });

  it('SRM false alarms on balanced splits stay near 0.1%', () => {
    const rng = createRng(4);
    const splits = 20000;
    const units = 1000;
    let alarms = 0;
    for (let s = 0; s < splits; s += 1) {
      const a = binomial(rng, units, 0.5);
      if (!srmCheck([a, units - a], [0.5, 0.5]).passed) alarms += 1;
    }
    const rate = alarms / splits;
    console.log(`SRM on ${splits} balanced splits of ${units} units: false-alarm rate = ${rate.toFixed(5)}`);
    expect(rate).toBeLessThanOrEqual(0.003);
  });

  it('CUPED removes about rho² of the variance', () => {
    const rng = createRng(5);
    const rho = 0.7;
    const arm = (n: number): CupedSums => {
      let sumX = 0;
      let sumX2 = 0;
      let sumC = 0;
      let sumC2 = 0;
      let sumXC = 0;
      for (let i = 0; i < n; i += 1) {
        const c = rng.normal();
        const x = rho * c + Math.sqrt(1 - rho * rho) * rng.normal();
        sumX += x;
        sumX2 += x * x;
        sumC += c;
        sumC2 += c * c;
        sumXC += x * c;
      }
      return { n, sumX, sumY: n, sumX2, sumY2: n, sumXY: sumX, sumC, sumC2, sumXC, sumYC: sumC };
    };
    const effect = estimateCupedEffect(arm(50000), arm(50000));
    console.log(`CUPED with correlation ${rho}: variance reduction ${effect.varianceReduction?.toFixed(4)}`);
    expect(Math.abs((effect.varianceReduction ?? 0) - rho * rho)).toBeLessThan(0.02);
  });
});
