import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes concurrent callers in one group and hands each its own results', async () => {
    const writes: number[][] = [];
    const group = new GroupCommit<number, string>(async (entries) => {
      writes.push(entries);
      return entries.map((e) => `r${e}`);
    });
    const results = await Promise.all([group.add([1, 2]), group.add([3]), group.add([4, 5, 6])]);
    expect(writes).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(results).toEqual([['r1', 'r2'], ['r3'], ['r4', 'r5', 'r6']]);
  });

  it('gathers the next group while one is being written, and caps group size', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const group = new GroupCommit<number>(async (entries) => {
      writes.push(entries);
      if (writes.length === 1) await gate;
    }, 3);
    const first = group.add([1]);
    await new Promise((r) => setImmediate(r));
    const later = [group.add([2, 3]), group.add([4]), group.add([5])];
    release();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('rejects every caller of a failed group, and recovers for the next', async () => {
    let fail = true;
    const group = new GroupCommit<number>(async () => {
      if (fail) throw new Error('database down');
    });
    const outcomes = await Promise.allSettled([group.add([1]), group.add([2])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(group.add([3])).resolves.toEqual([]);
  });

  it('with lingerMs, a lone entry at rest is written at once; under steady traffic the next group waits for late joiners', async () => {
    const writes: number[][] = [];
    const group = new GroupCommit<number>(
      async (entries) => {
        writes.push(entries);
      },
      1000,
      () => 1,
      30,
    );
    await group.add([1]);
    expect(writes).toEqual([[1]]);
    // A write just ended: traffic is steady, so [2] waits for [3], which arrives 10 ms later.
    const second = group.add([2]);
    await new Promise((r) => setTimeout(r, 10));
    const third = group.add([3]);
    await Promise.all([second, third]);
    expect(writes).toEqual([[1], [2, 3]]);
  });
});
