import { describe, expect, it } from 'vitest';
import { compileTrees, rowFromMap } from './forest.js';

describe('rowFromMap', () => {
  const forest = compileTrees([], 0, ['a', 'constructor', 'c']);

  it('reads the model’s names as float32; absent names and non-numbers (an inherited "constructor") are NaN', () => {
    const row = rowFromMap(forest, { a: 0.1, c: 3, z: 9 } as Record<string, number>);
    expect(row[0]).toBe(Math.fround(0.1));
    expect(row[1]).toBeNaN();
    expect(row[2]).toBe(3);
  });

  it('fills `out` in place, every slot rewritten (no value of the previous row left), and NaN for no features', () => {
    const out = new Float32Array(3);
    expect(rowFromMap(forest, { a: 1, constructor: 2, c: 3 }, undefined, out)).toBe(out);
    expect([...out]).toEqual([1, 2, 3]);
    rowFromMap(forest, { c: 4 }, undefined, out);
    expect(out[0]).toBeNaN();
    expect(out[2]).toBe(4);
    rowFromMap(forest, undefined, undefined, out);
    expect([...out].every(Number.isNaN)).toBe(true);
  });

  it('with a name → index map reads the map’s entries and leaves the rest NaN', () => {
    const row = rowFromMap(
      forest,
      { c: 5, q: 1 },
      new Map([
        ['c', 2],
        ['a', 0],
      ]),
      new Float32Array([7, 7, 7]),
    );
    expect(row[0]).toBeNaN();
    expect(row[1]).toBeNaN();
    expect(row[2]).toBe(5);
  });
});
