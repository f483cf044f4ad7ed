import { describe, expect, it } from 'vitest';
import { expectClose, loadFixture } from '../../../test/support/stats-fixtures.js';
import { powerAchieved, sampleSize, type PowerSoFarInput, type SampleSizeInput } from './power.js';

type PowerCase =
  | {
      kind: 'sampleSize';
      input: Omit<SampleSizeInput, 'stdDev'> & { stdDev: number | null };
      expected: {
        exactSessionsPerVariant: number;
        ttestSessionsPerVariant: number;
        sessionsPerVariant: number;
        totalSessions: number;
        days: number;
      };
    }
  | { kind: 'powerAchieved'; input: PowerSoFarInput; expected: { power: number } };

const cases = loadFixture<PowerCase>('power');

describe('sampleSize against statsmodels NormalIndPower.solve_power', () => {
  const sizes = cases.flatMap((c) => (c.kind === 'sampleSize' ? [c] : []));
  it.each(sizes.map((c, i) => [`${i}: baseline ${c.input.baselineMean}, mde ${c.input.mde}`, c] as const))('%s', (_label, c) => {
    const { stdDev, ...rest } = c.input;
    const r = sampleSize(stdDev === null ? rest : { ...rest, stdDev });
    expect(r.reason).toBeNull();
    expectClose(r.exactSessionsPerVariant, c.expected.exactSessionsPerVariant, 'n per variant');
    expect(r.sessionsPerVariant).toBe(c.expected.sessionsPerVariant);
    expect(r.totalSessions).toBe(c.expected.totalSessions);
    expect(r.days).toBe(c.expected.days);
    // The normal approximation is within 0.1% (a session or two) of the exact t-test size.
    expectClose(r.exactSessionsPerVariant, c.expected.ttestSessionsPerVariant, 'vs TTestIndPower', 1e-3);
  });
});

describe('powerAchieved against statsmodels NormalIndPower.power', () => {
  const powers = cases.flatMap((c) => (c.kind === 'powerAchieved' ? [c] : []));
  it.each(powers.map((c, i) => [`${i}: n ${c.input.nControl}`, c] as const))('%s', (_label, c) => {
    expectClose(powerAchieved(c.input).power, c.expected.power, 'power');
  });
});

describe('power edge cases', () => {
  it('needs a standard deviation unless the baseline is a proportion', () => {
    expect(sampleSize({ baselineMean: 3, mde: 0.05 }).reason).toMatch(/stdDev/);
    expect(sampleSize({ baselineMean: 0.3, mde: 0 }).reason).toMatch(/mde/);
    expect(sampleSize({ baselineMean: 0.3, mde: 0.05, power: 0.01 }).reason).toMatch(/alpha/);
  });
  it('reports no days without daily traffic', () => {
    expect(sampleSize({ baselineMean: 0.3, mde: 0.05 }).days).toBeNull();
  });
  it('returns null power for empty arms', () => {
    const r = powerAchieved({ nControl: 0, nVariant: 10, varianceControl: 1, varianceVariant: 1, baselineMean: 1, mde: 0.1 });
    expect(r.power).toBeNull();
  });
});
