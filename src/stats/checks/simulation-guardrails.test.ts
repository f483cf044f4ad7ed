/**
 * Guardrails by simulation (fixed seeds): at the margin the non-inferiority test passes at rate α, in
 * A/A with margin 0 the breach test fires at rate α (the false-positive rate), and the sequential
 * version keeps both at or below α while being looked at every day. 8000 runs where a rate must land
 * in [0.04, 0.06]: the Monte Carlo s.d. is then 0.0024 (2000 runs: 0.0049, which a correct test would
 * leave the band in about 5 % of seeds).
 */
import { describe, expect, it } from 'vitest';
import { addNormalBatch, emptySums, normalArm, rate, snapshot } from '../../../test/support/stats-simulation.js';
import { guardrailProportions, guardrailTest, type GuardrailSpec } from './guardrails.js';
import { createRng } from '../../random/index.js';
import type { Scale } from '../types.js';

/** Seconds on a quiet machine; the bound only keeps a loaded CI machine from failing a correct simulation. */
const SIMULATION_TIMEOUT_MS = 180_000;

const RUNS = 8000;
const ALPHA = 0.05;

function fixedRates(seed: number, scale: Scale, spec: GuardrailSpec, controlMean: number, variantMean: number) {
  const rng = createRng(seed);
  let passed = 0;
  let breached = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const r = guardrailTest(normalArm(rng, 500, controlMean, 3), normalArm(rng, 500, variantMean, 3), spec, { scale, alpha: ALPHA });
    if (r.status === 'passed') passed += 1;
    if (r.status === 'breached') breached += 1;
  }
  return { passed: rate(passed, RUNS), breached: rate(breached, RUNS) };
}

describe('guardrails, fixed horizon (normal metric, 500 units per arm, σ = 3)', () => {
  it(
    'absolute margin: at the margin passes at rate α, and breaches at rate α',
    () => {
      const r = fixedRates(101, 'absolute', { direction: 'higher', margin: 0.3 }, 10, 9.7);
      console.log(`guardrail absolute, true lift = −margin: passed ${r.passed.text}, breached ${r.breached.text}`);
      for (const x of [r.passed, r.breached]) {
        expect(x.rate).toBeGreaterThanOrEqual(0.04);
        expect(x.rate).toBeLessThanOrEqual(0.06);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'relative margin (lower is better): at the margin passes at rate α',
    () => {
      const r = fixedRates(102, 'relative', { direction: 'lower', margin: 0.02 }, 10, 10.2);
      console.log(`guardrail relative, true lift = +2 % (lower is better): passed ${r.passed.text}, breached ${r.breached.text}`);
      for (const x of [r.passed, r.breached]) {
        expect(x.rate).toBeGreaterThanOrEqual(0.04);
        expect(x.rate).toBeLessThanOrEqual(0.06);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'A/A with margin 0: breach (false-positive) rate in [0.04, 0.06] on both scales',
    () => {
      for (const [seed, scale] of [
        [103, 'absolute'],
        [104, 'relative'],
      ] as const) {
        const r = fixedRates(seed, scale, { direction: 'higher', margin: 0 }, 10, 10);
        console.log(`guardrail A/A margin 0, ${scale}: breached ${r.breached.text}`);
        expect(r.breached.rate).toBeGreaterThanOrEqual(0.04);
        expect(r.breached.rate).toBeLessThanOrEqual(0.06);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );

  it(
    'proportions (score method): at a 2-point margin passes at rate α; A/A margin 0 breaches at rate α',
    () => {
      const rng = createRng(105);
      const spec: GuardrailSpec = { direction: 'lower', margin: 0.02 };
      let passed = 0;
      let falseBreach = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const atMargin = guardrailProportions(rng.binomial(2000, 0.2), 2000, rng.binomial(2000, 0.22), 2000, spec, { scale: 'absolute' });
        if (atMargin.status === 'passed') passed += 1;
        const aa = guardrailProportions(rng.binomial(2000, 0.2), 2000, rng.binomial(2000, 0.2), 2000, { direction: 'lower', margin: 0 });
        if (aa.status === 'breached') falseBreach += 1;
      }
      const p = rate(passed, RUNS);
      const f = rate(falseBreach, RUNS);
      console.log(`guardrail proportions 20 % vs 22 %, margin 2 points: passed ${p.text}; A/A margin 0: breached ${f.text}`);
      for (const x of [p, f]) {
        expect(x.rate).toBeGreaterThanOrEqual(0.04);
        expect(x.rate).toBeLessThanOrEqual(0.06);
      }
    },
    SIMULATION_TIMEOUT_MS,
  );
});

describe('guardrails, sequential (one-sided confidence sequence, 14 daily looks of 100 units per arm)', () => {
  it(
    'at the margin: passes at some look with rate ≤ α; A/A margin 0: breaches at some look with rate ≤ α',
    () => {
      const rng = createRng(106);
      const runs = 4000;
      let everPassed = 0;
      let everBreached = 0;
      for (let i = 0; i < runs; i += 1) {
        const [c1, v1, c2, v2] = [emptySums(), emptySums(), emptySums(), emptySums()];
        let passed = false;
        let breached = false;
        for (let day = 0; day < 14; day += 1) {
          addNormalBatch(rng, c1, 100, 10, 3);
          addNormalBatch(rng, v1, 100, 9.7, 3);
          addNormalBatch(rng, c2, 100, 10, 3);
          addNormalBatch(rng, v2, 100, 10, 3);
          const options = { method: 'sequential', scale: 'absolute', alpha: ALPHA, tuningParameter: 2800 } as const;
          passed ||= guardrailTest(snapshot(c1), snapshot(v1), { direction: 'higher', margin: 0.3 }, options).status === 'passed';
          breached ||= guardrailTest(snapshot(c2), snapshot(v2), { direction: 'higher', margin: 0 }, options).status === 'breached';
        }
        if (passed) everPassed += 1;
        if (breached) everBreached += 1;
      }
      const p = rate(everPassed, runs);
      const b = rate(everBreached, runs);
      console.log(`sequential guardrail, 14 looks: at the margin ever passed ${p.text}; A/A margin 0 ever breached ${b.text}`);
      expect(p.rate).toBeLessThanOrEqual(ALPHA);
      expect(b.rate).toBeLessThanOrEqual(ALPHA);
      // Not vacuous: the sequence does reject sometimes.
      expect(p.rate).toBeGreaterThan(0.005);
    },
    SIMULATION_TIMEOUT_MS,
  );
});
