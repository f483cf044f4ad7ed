import { evalCondition } from '@growthbook/growthbook';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateCondition } from './condition-validator.js';
import { evaluateCondition, type Attributes, type Condition } from './conditions.js';

type GrowthBookCondition = Parameters<typeof evalCondition>[1];
const reference = (condition: Condition, attributes: Attributes): boolean =>
  evalCondition(attributes as Record<string, unknown>, condition as unknown as GrowthBookCondition);

const CONDITIONS: Condition[] = [
  { country: 'NL' },
  { country: 'null' },
  { country: '5' },
  { age: 18 },
  { age: 0 },
  { age: -1.5 },
  { beta: true },
  { beta: false },
  { country: { $in: ['NL', 'DE'] } },
  { country: { $nin: ['NL'] } },
  { age: { $gt: 17 } },
  { age: { $gte: 18, $lt: 65 } },
  { age: { $lte: 0 } },
  { age: { $lt: 18 } },
  { age: { $gt: 1e9 } },
  { $and: [{ country: 'NL' }, { age: { $gte: 18 } }] },
  { $or: [{ country: 'DE' }, { beta: true }] },
  { $not: { country: 'NL' } },
  { $not: { $or: [{ country: 'DE' }, { age: { $lt: 18 } }] } },
  { country: 'NL', $or: [{ plan: 'pro' }, { age: { $gte: 65 } }] },
  { 'plan-tier': 'pro', 国: 'NL' },
  { $and: [{ $or: [{ country: { $in: ['NL'] } }, { $not: { beta: true } }] }, { plan: { $nin: ['free', 'trial'] } }] },
  { age: { $lt: 18 }, $not: { age: 'null' } },
];

const ATTRIBUTE_SETS: Attributes[] = [
  {},
  { country: 'NL' },
  { country: 'nl' },
  { country: 'DE', age: 30 },
  { country: 'null' },
  { country: null },
  { country: undefined },
  { country: 5 },
  { age: 17 },
  { age: 18 },
  { age: '18' },
  { age: '20' },
  { age: ' 18 ' },
  { age: null },
  { age: 'abc' },
  { age: 0 },
  { age: -1.5 },
  { age: true },
  { beta: true },
  { beta: false },
  { beta: 'true' },
  { beta: '' },
  { beta: 1 },
  { beta: 0 },
  { plan: 'pro', age: 65, country: 'NL' },
  { plan: 'free', country: 'NL', beta: true },
  { 'plan-tier': 'pro', 国: 'NL' },
];

describe('evaluateCondition agrees with GrowthBook evalCondition', () => {
  it(`on the table (${CONDITIONS.length} conditions × ${ATTRIBUTE_SETS.length} attribute sets)`, () => {
    for (const condition of CONDITIONS) {
      expect(validateCondition(condition)).toEqual({ ok: true, condition });
      for (const attributes of ATTRIBUTE_SETS) {
        expect({ condition, attributes, result: evaluateCondition(condition, attributes) }).toEqual({
          condition,
          attributes,
          result: reference(condition, attributes),
        });
      }
    }
  });

  it('reproduces GrowthBook coercions that surprise people (documented in README)', () => {
    expect(evaluateCondition({ country: 'null' }, {})).toBe(true);
    expect(evaluateCondition({ age: 0 }, {})).toBe(true);
    expect(evaluateCondition({ age: { $lt: 18 } }, {})).toBe(true);
    expect(evaluateCondition({ country: { $nin: ['NL'] } }, {})).toBe(true);
    expect(evaluateCondition({ beta: false }, {})).toBe(false);
    expect(evaluateCondition({ age: 18 }, { age: '18' })).toBe(true);
    expect(evaluateCondition({ country: { $in: ['5'] } }, { country: 5 })).toBe(false);
    // The README's recipe for "present and below 18".
    const presentAndMinor: Condition = { age: { $lt: 18 }, $not: { age: 'null' } };
    expect([{}, { age: null }, { age: 0 }, { age: 17 }, { age: 18 }].map((a) => evaluateCondition(presentAndMinor, a))).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });

  it('agrees on randomly generated valid conditions and attributes (fast-check, fixed seed)', () => {
    const names = ['country', 'age', 'beta', 'plan'] as const;
    const strings = fc.constantFrom('NL', 'DE', '', 'null', '18', 'true', 'pro');
    const scalar = fc.oneof(
      strings,
      fc.integer({ min: -3, max: 70 }),
      fc.double({ min: -5, max: 5, noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
    );
    const operators = fc
      .record(
        {
          $in: fc.array(strings, { minLength: 1, maxLength: 3 }),
          $nin: fc.array(strings, { minLength: 1, maxLength: 3 }),
          $gt: fc.integer({ min: -5, max: 70 }),
          $gte: fc.integer({ min: -5, max: 70 }),
          $lt: fc.integer({ min: -5, max: 70 }),
          $lte: fc.integer({ min: -5, max: 70 }),
        },
        { requiredKeys: [] },
      )
      .filter((ops) => Object.keys(ops).length > 0);
    const leaf = fc.dictionary(fc.constantFrom(...names), fc.oneof(scalar, operators), { minKeys: 1, maxKeys: 3 });
    const { condition } = fc.letrec<{ condition: Condition }>((tie) => ({
      condition: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record({ $and: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ $or: fc.array(tie('condition'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ $not: tie('condition') }),
      ),
    }));
    const attributes = fc.dictionary(fc.constantFrom(...names), fc.oneof(scalar, fc.constant(null)), { maxKeys: 4 });
    fc.assert(
      fc.property(condition, attributes, (c, a) => {
        expect(validateCondition(c).ok).toBe(true);
        expect(evaluateCondition(c, a)).toBe(reference(c, a));
      }),
      { seed: 42, numRuns: 3000 },
    );
  });
});

describe('validateCondition', () => {
  const errorsOf = (input: unknown, basePath?: string) => {
    const result = validateCondition(input, basePath);
    return result.ok ? [] : result.errors;
  };

  it.each<[string, unknown, Array<{ path: string; message: RegExp }>]>([
    ['a non-object root', [], [{ path: '', message: /must be an object, got an array/ }]],
    ['null root', null, [{ path: '', message: /got null/ }]],
    ['an unknown attribute operator', { age: { $regex: '^1' } }, [{ path: '/age/$regex', message: /unknown operator "\$regex"/ }]],
    ['an unknown logical operator', { $nor: [{ a: '1' }] }, [{ path: '/$nor', message: /unknown operator "\$nor"/ }]],
    ['an attribute operator at condition level', { $in: ['a'] }, [{ path: '/$in', message: /applies to an attribute/ }]],
    ['a string operand for $gt', { age: { $gt: '18' } }, [{ path: '/age/$gt', message: /\$gt must be a finite number, got a string/ }]],
    ['a non-array $in', { country: { $in: 'NL' } }, [{ path: '/country/$in', message: /non-empty array of strings/ }]],
    ['an empty $in', { country: { $in: [] } }, [{ path: '/country/$in', message: /got an empty array/ }]],
    [
      'a number inside $nin',
      { country: { $nin: ['NL', 3] } },
      [{ path: '/country/$nin/1', message: /values must be strings, got a number/ }],
    ],
    ['a null literal', { country: null }, [{ path: '/country', message: /got null/ }]],
    ['an array literal', { country: ['NL'] }, [{ path: '/country', message: /got an array/ }]],
    ['a nested attribute object', { user: { country: 'NL' } }, [{ path: '/user/country', message: /nested attributes are not supported/ }]],
    ['an empty operator object', { age: {} }, [{ path: '/age', message: /at least one operator/ }]],
    ['a dotted attribute name', { 'user.country': 'NL' }, [{ path: '/user.country', message: /must not contain "\."/ }]],
    ['an empty attribute name', { '': 'x' }, [{ path: '/', message: /must not be empty/ }]],
    ['a non-array $and', { $and: { a: '1' } }, [{ path: '/$and', message: /non-empty array of conditions, got a object/ }]],
    ['an empty $or', { $or: [] }, [{ path: '/$or', message: /got an empty array/ }]],
    ['a non-object inside $or', { $or: [{ a: '1' }, 'b'] }, [{ path: '/$or/1', message: /must be an object, got a string/ }]],
    ['a non-object $not', { $not: true }, [{ path: '/$not', message: /must be an object, got a boolean/ }]],
    ['a reserved name: constructor', { constructor: 'x' }, [{ path: '/constructor', message: /reserved name/ }]],
    ['a reserved name: toString', { toString: 'x' }, [{ path: '/toString', message: /reserved name/ }]],
    [
      'a deep path with escaping',
      { $and: [{ a: '1' }, { $or: [{ 'x/y~z': { $in: [1] } }] }] },
      [{ path: '/$and/1/$or/0/x~1y~0z/$in/0', message: /must be strings/ }],
    ],
    [
      'several problems at once',
      { age: { $gt: null, $foo: 1 }, $bar: 1 },
      [
        { path: '/age/$gt', message: /got null/ },
        { path: '/age/$foo', message: /unknown operator/ },
        { path: '/$bar', message: /unknown operator/ },
      ],
    ],
  ])('reports %s with its path', (_name, input, expected) => {
    const errors = errorsOf(input);
    expect(errors).toHaveLength(expected.length);
    expected.forEach((e, i) => {
      expect(errors[i]?.path).toBe(e.path);
      expect(errors[i]?.message).toMatch(e.message);
    });
  });

  it('prefixes paths with the base path', () => {
    expect(errorsOf({ age: { $gte: 'x' } }, '/conditions')).toEqual([
      { path: '/conditions/age/$gte', message: '$gte must be a finite number, got a string' },
    ]);
  });

  it('rejects non-finite numbers, which JSON cannot carry but callers might', () => {
    expect(errorsOf({ age: Number.NaN }).map((e) => e.path)).toEqual(['/age']);
    expect(errorsOf({ age: { $lt: Number.POSITIVE_INFINITY } }).map((e) => e.path)).toEqual(['/age/$lt']);
  });

  it('limits nesting depth', () => {
    let deep: unknown = { a: '1' };
    for (let i = 0; i < 40; i++) deep = { $not: deep };
    const errors = errorsOf(deep);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/at most 16 levels/);
  });

  it('keeps __proto__ and constructor payloads away from prototypes', () => {
    const payloads = [
      '{"__proto__": {"polluted": "yes"}}',
      '{"$and": [{"__proto__": {"$in": ["x"]}}]}',
      '{"constructor": {"prototype": {"polluted": "yes"}}}',
      '{"country": {"__proto__": {"polluted": "yes"}}}',
    ];
    for (const json of payloads) {
      const result = validateCondition(JSON.parse(json));
      expect(result.ok).toBe(false);
    }
    expect(errorsOf(JSON.parse(payloads[0] ?? '')).map((e) => e.path)).toEqual(['/__proto__']);
    expect(errorsOf(JSON.parse(payloads[3] ?? '')).map((e) => e.path)).toEqual(['/country/__proto__']);
    // Attributes carrying those keys are read as own data only.
    const attributes = JSON.parse('{"__proto__": "x", "country": "NL"}') as Attributes;
    expect(evaluateCondition({ country: 'NL' }, attributes)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});
