import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assign, type AssignableExperiment } from './assign.js';
import { validateExperiment } from './experiment-validator.js';
import { fnv1a32, fnv1a32OfDecimal, hashUnit } from './hash.js';
import { generateUnitIds } from '../../../test/support/unit-ids.js';

const base: AssignableExperiment = {
  seed: 'ranker-v7',
  variants: [
    { id: 'control', weight: 0.5 },
    { id: 'treatment', weight: 0.5 },
  ],
  trafficAllocation: 1,
};
const ids = generateUnitIds(5000, 99);

describe('assign', () => {
  it('assigns with hash version 2 by default and reports the bucket', () => {
    const result = assign(base, 'user-1');
    expect(result.inExperiment).toBe(true);
    expect(result.reason).toBe('assigned');
    expect(result.bucket).toBe(hashUnit('ranker-v7', 'user-1', 2));
    expect(result.variantId).toBe(base.variants[result.variantIndex]?.id);
  });

  it('is deterministic and ignores attribute order', () => {
    const exp: AssignableExperiment = { ...base, conditions: { country: 'NL', age: { $gte: 18 } } };
    for (const id of ids.slice(0, 500)) {
      expect(assign(exp, id, { country: 'NL', age: 30 })).toEqual(assign(exp, id, { age: 30, country: 'NL' }));
    }
  });

  it('reports each exclusion reason', () => {
    expect(assign({ ...base, variants: [{ id: 'only', weight: 1 }] }, 'u').reason).toBe('invalid_experiment');
    expect(assign({ ...base, hashVersion: 3 as 2 }, 'u').reason).toBe('invalid_experiment');
    expect(assign(base, '').reason).toBe('no_unit_id');
    expect(assign({ ...base, conditions: { country: 'NL' } }, 'u', { country: 'DE' }).reason).toBe('conditions_not_met');
    const zeroTraffic = assign({ ...base, trafficAllocation: 0 }, 'u');
    expect(zeroTraffic).toEqual({
      inExperiment: false,
      variantIndex: -1,
      variantId: null,
      bucket: hashUnit('ranker-v7', 'u', 2),
      reason: 'not_in_traffic',
    });
    const outside = ids.find((id) => !assign({ ...base, layer: { id: 'l', range: [0, 0.5] } }, id).inExperiment);
    expect(outside).toBeDefined();
    expect(assign({ ...base, layer: { id: 'l', range: [0, 0.5] } }, outside ?? '').reason).toBe('not_in_layer');
  });

  it('checks the layer before the conditions, as GrowthBook does', () => {
    const exp: AssignableExperiment = { ...base, layer: { id: 'l', range: [0, 0.5] }, conditions: { country: 'NL' } };
    const reasons = new Set(ids.map((id) => assign(exp, id, { country: 'DE' }).reason));
    expect([...reasons].sort()).toEqual(['conditions_not_met', 'not_in_layer']);
  });

  it('never moves a unit to another variant when traffic is ramped up (property, fixed seed)', () => {
    const exp: AssignableExperiment = {
      ...base,
      variants: [
        { id: 'a', weight: 0.2 },
        { id: 'b', weight: 0.3 },
        { id: 'c', weight: 0.5 },
      ],
    };
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (x, y) => {
        const [low, high] = x < y ? [x, y] : [y, x];
        for (const id of ids.slice(0, 1000)) {
          const before = assign({ ...exp, trafficAllocation: low }, id);
          const after = assign({ ...exp, trafficAllocation: high }, id);
          if (before.inExperiment && after.variantIndex !== before.variantIndex) return false;
        }
        return true;
      }),
      { seed: 7, numRuns: 50 },
    );
  });
});

describe('validateExperiment', () => {
  it('accepts a well-formed experiment', () => {
    const input = { ...base, hashVersion: 2, layer: { id: 'ranking', range: [0, 0.5] }, conditions: { country: { $in: ['NL'] } } };
    expect(validateExperiment(input)).toEqual({ ok: true, experiment: input });
  });

  it('reports every problem with its path', () => {
    const result = validateExperiment(
      {
        seed: '',
        hashVersion: 3,
        trafficAllocation: 1.2,
        variants: [
          { id: 'a', weight: 0.5 },
          { id: 'a', weight: 0.4 },
        ],
        layer: { id: 'l', range: [0.6, 0.2] },
        conditions: { age: { $gt: 'x' } },
      },
      '/experiment',
    );
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      '/experiment/seed',
      '/experiment/hashVersion',
      '/experiment/trafficAllocation',
      '/experiment/variants/1/id',
      '/experiment/variants',
      '/experiment/layer/range',
      '/experiment/conditions/age/$gt',
    ]);
  });

  it.each<[string, unknown, string, RegExp]>([
    [
      'weights that GrowthBook would silently equalise',
      {
        ...base,
        variants: [
          { id: 'a', weight: 0.3 },
          { id: 'b', weight: 0.3 },
        ],
      },
      '/variants',
      /sum to 1, got 0.6/,
    ],
    ['a single variant', { ...base, variants: [{ id: 'a', weight: 1 }] }, '/variants', /at least two/],
    [
      'a negative weight',
      {
        ...base,
        variants: [
          { id: 'a', weight: -0.5 },
          { id: 'b', weight: 1.5 },
        ],
      },
      '/variants/0/weight',
      /between 0 and 1/,
    ],
    ['a layer without a range', { ...base, layer: { id: 'l' } }, '/layer/range', /\[start, end\]/],
    ['a non-object', 'x', '', /must be an object/],
  ])('rejects %s', (_name, input, path, message) => {
    const result = validateExperiment(input);
    expect(result.ok).toBe(false);
    const first = result.ok ? undefined : result.errors[0];
    expect(first?.path).toBe(path);
    expect(first?.message).toMatch(message);
  });
});

describe('hashing without intermediates', () => {
  it("hashes a number's decimal digits as fnv1a32 of its string, at every digit count and both ends of the range", () => {
    const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 99_999_999, 100_000_000, 999_999_999, 1_000_000_000, 4_294_967_295];
    for (const n of edges) expect(fnv1a32OfDecimal(n)).toBe(fnv1a32(String(n)));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_294_967_295 }), (n) => fnv1a32OfDecimal(n) === fnv1a32(String(n))),
      { seed: 15, numRuns: 20_000 },
    );
  });
});
