import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GrowthBookClient, type ConditionInterface } from '@growthbook/growthbook';
import { describe, expect, it, vi } from 'vitest';
import { assign, type AssignableExperiment } from './assign.js';
import { chooseVariation, getBucketRanges, inLayer, type BucketRange } from './buckets.js';
import { fnv1a32, hashUnit } from './hash.js';
import { generateUnitIds } from '../../../test/support/unit-ids.js';

/**
 * GrowthBook's package index does not export its hashing helpers and its
 * `exports` map forbids deep imports, so the reference module is loaded from
 * its file path. These are the very functions the SDK's `runExperiment`
 * calls; the end-to-end block below also checks through the public client.
 */
interface GrowthBookUtil {
  hash(seed: string, value: string, version: number): number | null;
  getBucketRanges(n: number, coverage: number | undefined, weights?: number[]): [number, number][];
  chooseVariation(n: number, ranges: [number, number][]): number;
  inNamespace(hashValue: string, namespace: [string, number, number]): boolean;
}
const packageDir = dirname(createRequire(import.meta.url).resolve('@growthbook/growthbook/package.json'));
const gb = (await import(pathToFileURL(join(packageDir, 'dist/esm/util.mjs')).href)) as GrowthBookUtil;

const UNIT_COUNT = 100_000;
const ids = generateUnitIds(UNIT_COUNT);
const SEEDS = ['exp-1', 'ranking-bm25-vs-ltr', '', '🔬 実験 seed', 'a/b\u0000c'];

const SETTINGS: ReadonlyArray<{ name: string; weights: number[]; coverage: number }> = [
  { name: '50/50 at coverage 1', weights: [0.5, 0.5], coverage: 1 },
  { name: '50/50 at coverage 0.5', weights: [0.5, 0.5], coverage: 0.5 },
  { name: '0.2/0.3/0.5 at coverage 0.7', weights: [0.2, 0.3, 0.5], coverage: 0.7 },
  { name: '4-way equal at coverage 0.9', weights: [0.25, 0.25, 0.25, 0.25], coverage: 0.9 },
  { name: '0.1/0.9 at coverage 1', weights: [0.1, 0.9], coverage: 1 },
  { name: 'thirds 0.333 (sum 0.999, kept)', weights: [0.333, 0.333, 0.333], coverage: 1 },
  { name: 'sum 0.6 (falls back to equal)', weights: [0.3, 0.3], coverage: 1 },
  { name: 'coverage 1.5 (clamped to 1)', weights: [0.1, 0.2, 0.7], coverage: 1.5 },
  { name: 'coverage -0.2 (clamped to 0)', weights: [0.5, 0.5], coverage: -0.2 },
];

describe('hash parity with GrowthBook', () => {
  it('fnv1a32 matches published FNV-1a 32 test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it.each(SEEDS)(`hash versions 1 and 2 equal GrowthBook's on ${UNIT_COUNT} ids, seed %j`, (seed) => {
    let mismatches = 0;
    for (const id of ids) {
      if (hashUnit(seed, id, 2) !== gb.hash(seed, id, 2)) mismatches++;
      if (hashUnit(seed, id, 1) !== gb.hash(seed, id, 1)) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('bucket ranges and chosen variation parity with GrowthBook', () => {
  it.each(SETTINGS)('ranges are identical: $name', ({ weights, coverage }) => {
    const silence = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(getBucketRanges(weights.length, coverage, weights)).toEqual(gb.getBucketRanges(weights.length, coverage, weights));
    silence.mockRestore();
  });

  it('ranges are identical for missing weights, wrong lengths and undefined coverage', () => {
    const silence = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const cases: Array<[number, number | undefined, number[] | undefined]> = [
      [3, undefined, undefined],
      [2, 0.4, [0.2, 0.3, 0.5]],
      [0, 1, []],
      [5, 1, [0.1, 0.1, 0.1, 0.1, 0.6]],
      [3, 0.25, [1 / 3, 1 / 3, 1 / 3]],
    ];
    for (const [n, coverage, weights] of cases) {
      expect(getBucketRanges(n, coverage, weights)).toEqual(gb.getBucketRanges(n, coverage, weights));
    }
    silence.mockRestore();
  });

  it.each(SETTINGS)(`chosen variation is identical on ${UNIT_COUNT} ids × ${SEEDS.length} seeds: $name`, ({ weights, coverage }) => {
    const silence = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const ours = getBucketRanges(weights.length, coverage, weights);
    const theirs = gb.getBucketRanges(weights.length, coverage, weights);
    silence.mockRestore();
    let mismatches = 0;
    let compared = 0;
    for (const seed of SEEDS) {
      for (const id of ids) {
        const theirHash = gb.hash(seed, id, 2);
        if (theirHash === null || chooseVariation(hashUnit(seed, id, 2), ours) !== gb.chooseVariation(theirHash, theirs)) {
          mismatches++;
        }
        compared++;
      }
    }
    expect(compared).toBe(UNIT_COUNT * SEEDS.length);
    expect(mismatches).toBe(0);
  });

  it('treats range boundaries as half-open, like GrowthBook', () => {
    const ranges: BucketRange[] = [
      [0, 0.25],
      [0.5, 0.75],
    ];
    for (const n of [0, 0.2499, 0.25, 0.3, 0.5, 0.75, 0.9999, 1]) {
      expect(chooseVariation(n, ranges)).toBe(
        gb.chooseVariation(
          n,
          ranges.map(([a, b]) => [a, b]),
        ),
      );
    }
    expect(chooseVariation(0.25, ranges)).toBe(-1);
    expect(chooseVariation(0.5, ranges)).toBe(1);
  });
});

describe('layer membership parity with GrowthBook inNamespace', () => {
  const layers: Array<{ id: string; range: [number, number] }> = [
    { id: 'search-ranking', range: [0, 0.5] },
    { id: 'search-ranking', range: [0.5, 1] },
    { id: 'checkout', range: [0.123, 0.4567] },
    { id: 'ランキング🧪', range: [0.9, 1] },
    { id: 'everyone', range: [0, 1] },
  ];
  it.each(layers)(`is identical on ${UNIT_COUNT} ids: $id $range`, (layer) => {
    let mismatches = 0;
    for (const id of ids) {
      if (inLayer(id, layer) !== gb.inNamespace(id, [layer.id, layer.range[0], layer.range[1]])) mismatches++;
    }
    expect(mismatches).toBe(0);
  });
});

describe('assign() agrees with GrowthBookClient.runInlineExperiment end to end', () => {
  const client = new GrowthBookClient({});
  const countries = ['NL', 'DE', 'FR', 'US'];
  const experiments: Array<{ name: string; exp: AssignableExperiment }> = [
    {
      name: 'v2, 3-way, coverage 0.7, layer and conditions',
      exp: {
        seed: 'ranker-v7',
        hashVersion: 2,
        variants: [
          { id: 'control', weight: 0.2 },
          { id: 'bm25', weight: 0.3 },
          { id: 'ltr', weight: 0.5 },
        ],
        trafficAllocation: 0.7,
        layer: { id: 'ranking', range: [0.2, 0.8] },
        conditions: { $or: [{ country: { $in: ['NL', 'DE'] } }, { age: { $gte: 30, $lt: 60 } }], $not: { beta: true } },
      },
    },
    {
      name: 'v1, 50/50, coverage 0.5, no layer',
      exp: {
        seed: 'legacy-exp',
        hashVersion: 1,
        variants: [
          { id: 'a', weight: 0.5 },
          { id: 'b', weight: 0.5 },
        ],
        trafficAllocation: 0.5,
      },
    },
  ];
  const E2E_UNITS = 30_000;

  it.each(experiments)(`on ${E2E_UNITS} units: $name`, ({ exp }) => {
    let mismatches = 0;
    let enrolled = 0;
    for (let i = 0; i < E2E_UNITS; i++) {
      const id = ids[i] ?? '';
      const attributes = { country: countries[i % 4] ?? 'NL', age: (i * 7) % 90, beta: i % 5 === 0 };
      const ours = assign(exp, id, attributes);
      const theirs = client.runInlineExperiment(
        {
          key: exp.seed,
          seed: exp.seed,
          hashVersion: exp.hashVersion ?? 2,
          variations: exp.variants.map((v) => v.id) as [string, string, ...string[]],
          weights: exp.variants.map((v) => v.weight),
          coverage: exp.trafficAllocation,
          ...(exp.layer ? { namespace: [exp.layer.id, exp.layer.range[0], exp.layer.range[1]] as [string, number, number] } : {}),
          ...(exp.conditions ? { condition: exp.conditions as unknown as ConditionInterface } : {}),
        },
        { attributes: { ...attributes, id } },
      );
      if (ours.inExperiment) enrolled++;
      const same =
        ours.inExperiment === theirs.inExperiment &&
        ours.variantIndex === (theirs.inExperiment ? theirs.variationId : -1) &&
        (!ours.inExperiment || ours.bucket === theirs.bucket);
      if (!same) mismatches++;
    }
    expect(mismatches).toBe(0);
    expect(enrolled).toBeGreaterThan(E2E_UNITS / 10);
  });
});
