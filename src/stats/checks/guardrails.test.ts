import { describe, expect, it } from 'vitest';
import { expectClose, expectClosePair, loadFixture } from '../../../test/support/stats-fixtures.js';
import { guardrailProportions, guardrailTest, type GuardrailResult, type GuardrailSpec } from './guardrails.js';
import { meanSums, proportionSums } from '../frequentist/moments.js';
import { scoreOneSidedPValue } from '../frequentist/score.js';
import type { RatioSums, Scale } from '../types.js';

interface Side {
  bounds: [number, number];
  nonInferiorityPValue: number;
  breachPValue: number;
  status: string;
}
interface GuardrailCase {
  name: string;
  alpha: number;
  tuningParameter: number;
  spec: GuardrailSpec;
  scale: Scale;
  control: RatioSums;
  variant: RatioSums;
  expected: { estimate: number; threshold: number; fixed: Side; sequential: Side };
}

function check(r: GuardrailResult, e: Side, estimate: number, threshold: number): void {
  expect(r.reason).toBeNull();
  expectClose(r.estimate, estimate, 'estimate');
  expect(r.threshold).toBe(threshold);
  expectClosePair(r.bounds, e.bounds, 'bounds');
  expectClose(r.nonInferiorityPValue, e.nonInferiorityPValue, 'non-inferiority p', 1e-6, 1e-12);
  expectClose(r.breachPValue, e.breachPValue, 'breach p', 1e-6, 1e-12);
  expect(r.status).toBe(e.status);
}

/** The verdict and the bounds can never disagree. */
function checkConsistent(r: GuardrailResult): void {
  if (r.bounds === null) return;
  const harmfulBound = r.direction === 'higher' ? r.bounds[0] : r.bounds[1];
  const otherBound = r.direction === 'higher' ? r.bounds[1] : r.bounds[0];
  const inside = r.direction === 'higher' ? harmfulBound > r.threshold : harmfulBound < r.threshold;
  const beyond = r.direction === 'higher' ? otherBound < r.threshold : otherBound > r.threshold;
  expect(r.status === 'passed').toBe(inside);
  expect(r.status === 'breached').toBe(beyond);
}

describe('guardrails against scipy (one-sided Welch) and an independent sequential implementation', () => {
  it.each(loadFixture<GuardrailCase>('guardrails').map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const options = { alpha: c.alpha, scale: c.scale, tuningParameter: c.tuningParameter };
    const fixed = guardrailTest(c.control, c.variant, c.spec, options);
    check(fixed, c.expected.fixed, c.expected.estimate, c.expected.threshold);
    checkConsistent(fixed);
    const sequential = guardrailTest(c.control, c.variant, c.spec, { ...options, method: 'sequential' });
    check(sequential, c.expected.sequential, c.expected.estimate, c.expected.threshold);
    checkConsistent(sequential);
  });
});

describe('guardrails on proportions (score method)', () => {
  it('tests at the margin with the one-sided score test and bounds that agree with it', () => {
    const spec: GuardrailSpec = { direction: 'lower', margin: 0.02 }; // abandonment must not rise by 2 points
    const r = guardrailProportions(300, 2000, 310, 2000, spec, { scale: 'absolute' });
    expectClose(
      r.nonInferiorityPValue,
      scoreOneSidedPValue({ successesControl: 300, nControl: 2000, successesVariant: 310, nVariant: 2000 }, 'diff', 0.02, 'less'),
      'p',
    );
    checkConsistent(r);
    const relative = guardrailProportions(300, 2000, 310, 2000, { direction: 'lower', margin: 0.1 });
    expect(relative.scale).toBe('relative');
    checkConsistent(relative);
  });

  it('handles zero cells and refuses what cannot be computed', () => {
    const none = guardrailProportions(0, 500, 0, 500, { direction: 'lower', margin: 0.01 }, { scale: 'absolute' });
    expect(none.status).toBe('passed');
    expect(guardrailProportions(0, 500, 3, 500, { direction: 'lower', margin: 0.1 }).reason).toBe('ZERO_CONTROL_MEAN');
    expect(guardrailProportions(3, 2, 1, 5, { direction: 'lower', margin: 0.1 }).reason).toBe('INVALID_INPUT');
  });
});

describe('guardrail input checks', () => {
  const a = meanSums(100, 500, 2600);
  it('refuses a negative margin, a relative margin of 100 % on a higher-is-better metric, and α ≥ 0.5', () => {
    expect(guardrailTest(a, a, { direction: 'higher', margin: -0.1 }).reason).toBe('INVALID_INPUT');
    expect(guardrailTest(a, a, { direction: 'higher', margin: 1 }).reason).toBe('INVALID_INPUT');
    expect(guardrailTest(a, a, { direction: 'lower', margin: 1 }).reason).toBeNull();
    expect(guardrailTest(a, a, { direction: 'higher', margin: 0.1 }, { alpha: 0.5 }).reason).toBe('INVALID_INPUT');
  });
  it('passes a reason through from the effect', () => {
    expect(guardrailTest(proportionSums(0, 40), proportionSums(3, 40), { direction: 'lower', margin: 0 }).reason).toBe('ZERO_VARIANCE');
  });
});
