import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32, type Random } from '../../random/index.js';
import { attachQueryIds, parseLetor } from '../data/letor.js';
import { train } from '../train.js';
import { emptyTree, type Tree } from '../trees/tree.js';
import { compileModel, compileTrees, scoreRow, type CompiledForest } from './forest.js';
import { compileScorer } from './forest-codegen.js';

/** A random tree of `splits` internal nodes over `features` columns; thresholds and leaves include -0, ±∞ and exact halves. */
function randomTree(rnd: Random, splits: number, features: number, chain = false): Tree {
  const t = emptyTree();
  const special = [-0, 0, 0.5, -1.5, Infinity, -Infinity];
  const value = () => (rnd() < 0.1 ? special[Math.floor(rnd() * special.length)]! : (rnd() - 0.5) * 10);
  // Grow: each new split replaces a random leaf reference (or the last one, for a chain).
  const refs: Array<{ node: number; side: 'left' | 'right' } | 'root'> = ['root'];
  for (let k = 0; k < splits; k += 1) {
    const at = chain ? refs.length - 1 : Math.floor(rnd() * refs.length);
    const slot = refs.splice(at, 1)[0]!;
    if (slot !== 'root') t[slot.side][slot.node] = k;
    t.feature.push(Math.floor(rnd() * features));
    t.threshold.push(Math.fround(value()));
    t.defaultLeft.push(rnd() < 0.5);
    t.left.push(0);
    t.right.push(0);
    refs.push({ node: k, side: 'left' }, { node: k, side: 'right' });
  }
  if (splits === 0) refs.length = 0;
  refs.forEach((slot, leaf) => {
    if (slot !== 'root') t[slot.side][slot.node] = ~leaf;
  });
  const count = splits === 0 ? 1 : refs.length;
  for (let i = 0; i < count; i += 1) t.leafValue.push(value());
  return t;
}

function rows(rnd: Random, n: number, features: number): Float32Array {
  const x = new Float32Array(n * features);
  for (let i = 0; i < x.length; i += 1) x[i] = rnd() < 0.15 ? Number.NaN : rnd() < 0.05 ? 0.5 : (rnd() - 0.5) * 12;
  return x;
}

/** The generated scorer against the array walk, bit for bit (Object.is: -0 and NaN count). */
function expectSameScores(forest: CompiledForest, x: Float32Array): number {
  const scorer = compileScorer(forest);
  const F = forest.numFeatures;
  let compared = 0;
  for (let base = 0; base + F <= x.length; base += F) {
    const want = scoreRow(forest, x, base);
    const got = scorer(x, base);
    if (!Object.is(got, want)) throw new Error(`row at ${base}: generated ${got}, array walk ${want}`);
    compared += 1;
  }
  return compared;
}

describe('compileScorer', () => {
  it('scores exactly like the array walk: many trees over several generated functions, NaN, default sides, -0, ±∞', () => {
    const rnd = mulberry32(2026);
    const F = 12;
    const trees = Array.from({ length: 120 }, (_, i) => randomTree(rnd, i % 7 === 0 ? 0 : 1 + Math.floor(rnd() * 60), F));
    const forest = compileTrees(
      trees,
      0.25,
      Array.from({ length: F }, (_, j) => `f${j}`),
    );
    expect(expectSameScores(forest, rows(rnd, 2000, F))).toBe(2000);
  });

  it('is the same function for a model trained on the LightGBM example (300 sparse features)', () => {
    const dir = new URL('../../../test/fixtures/ltr/', import.meta.url);
    const data = parseLetor(
      attachQueryIds(readFileSync(new URL('rank.train', dir), 'utf8'), readFileSync(new URL('rank.train.query', dir), 'utf8')),
    );
    const { model } = train(data, { objective: 'lambdarank', numTrees: 30, numLeaves: 31, learningRate: 0.1, seed: 1 });
    expect(expectSameScores(compileModel(model), data.features)).toBe(data.numRows);
  });

  it('falls back to the array walk for a tree deeper than 64 levels or bigger than one generated function', () => {
    const rnd = mulberry32(7);
    const deep = compileTrees([randomTree(rnd, 100, 4, true), randomTree(rnd, 5, 4)], -1, ['a', 'b', 'c', 'd']);
    expect(expectSameScores(deep, rows(rnd, 300, 4))).toBe(300);
    const wide = compileTrees([randomTree(rnd, 1200, 4)], 0, ['a', 'b', 'c', 'd']);
    expect(expectSameScores(wide, rows(rnd, 300, 4))).toBe(300);
  });

  it('scores a forest of single leaves (no splits) as base plus leaves', () => {
    const rnd = mulberry32(3);
    const forest = compileTrees([randomTree(rnd, 0, 2), randomTree(rnd, 0, 2)], 1, ['a', 'b']);
    const x = rows(rnd, 10, 2);
    expect(expectSameScores(forest, x)).toBe(10);
    expect(compileScorer(forest)(x, 0)).toBe(1 + forest.leafValue[0]! + forest.leafValue[1]!);
  });
});
