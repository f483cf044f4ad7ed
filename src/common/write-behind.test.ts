import { describe, expect, it } from 'vitest';
import { WriteBehind } from './write-behind.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('WriteBehind', () => {
  it('answers before the write and commits one turn’s entries in one group', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const wb = new WriteBehind<number>(async (entries) => {
      writes.push(entries);
      await gate;
    });
    await Promise.all([wb.submit([1, 2]), wb.submit([3])]);
    expect(writes).toEqual([]); // the callers did not wait for anything
    await tick();
    expect(writes).toEqual([[1, 2, 3]]);
    expect(wb.backlog).toBe(3);
    await wb.submit([4]);
    release();
    await wb.drain();
    expect(writes).toEqual([[1, 2, 3], [4]]);
    expect(wb.backlog).toBe(0);
  });

  it('caps a group at maxGroup entries', async () => {
    const writes: number[][] = [];
    const wb = new WriteBehind<number>(async (entries) => void writes.push(entries), { maxGroup: 2 });
    await wb.submit([1, 2, 3, 4, 5]);
    await wb.drain();
    expect(writes).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('keeps a failed group and retries it ahead of newer entries', async () => {
    const writes: number[][] = [];
    const errors: number[] = [];
    let failures = 2;
    const wb = new WriteBehind<number>(
      async (entries) => {
        if (failures > 0) {
          failures -= 1;
          throw new Error('disk');
        }
        writes.push(entries);
      },
      { onError: (_e, n) => errors.push(n), retryDelayMs: () => 1 },
    );
    await wb.submit([1, 2]);
    await tick();
    await wb.submit([3]);
    await wb.drain();
    expect(errors).toEqual([2, 3]);
    expect(writes.flat()).toEqual([1, 2, 3]);
  });

  it('pushes back on callers while the backlog is over the limit, and lets them go once it drains', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const wb = new WriteBehind<number>(async () => gate, { maxBacklog: 3 });
    await wb.submit([1, 2, 3]);
    let waited = false;
    const fourth = wb.submit([4]).then(() => (waited = true));
    await tick();
    await tick();
    expect(waited).toBe(false);
    release();
    await fourth;
    expect(waited).toBe(true);
    await wb.drain();
  });

  it('settled waits for what was submitted before it, not for later entries', async () => {
    const gates: (() => void)[] = [];
    const written: number[] = [];
    const wb = new WriteBehind<number>(async (entries) => {
      await new Promise<void>((r) => gates.push(r));
      written.push(...entries);
    });
    await wb.submit([1]);
    let settled = false;
    const first = wb.settled().then(() => (settled = true));
    await tick();
    await wb.submit([2]);
    expect(settled).toBe(false);
    gates.shift()!();
    await first;
    expect(written).toEqual([1]);
    await tick();
    gates.shift()!();
    await wb.drain();
    expect(written).toEqual([1, 2]);
  });

  it('drain resolves at once when nothing waits', async () => {
    const wb = new WriteBehind<number>(async () => undefined);
    await expect(wb.drain()).resolves.toBeUndefined();
  });

  it('with lingerMs, a lone entry at rest is written at once; under steady traffic the next group waits for late joiners', async () => {
    const writes: number[][] = [];
    const wb = new WriteBehind<number>(async (entries) => void writes.push(entries), { lingerMs: 200 });
    await wb.submit([1]);
    await tick();
    expect(writes).toEqual([[1]]); // at rest: the next turn of the event loop, no timer
    await wb.drain();
    // A group just ended: traffic is steady, so [2] waits for [3], which arrives 10 ms later.
    await wb.submit([2]);
    await new Promise((r) => setTimeout(r, 10));
    await wb.submit([3]);
    expect(writes).toEqual([[1]]);
    await wb.drain();
    expect(writes).toEqual([[1], [2, 3]]);
    // settled() still waits for the lingering group: a reader sees every answer given before it.
    await wb.submit([4]);
    await wb.settled();
    expect(writes).toEqual([[1], [2, 3], [4]]);
  });
});
