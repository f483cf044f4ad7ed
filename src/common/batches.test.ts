import { describe, expect, it } from 'vitest';
import { drainBatches } from './batches.js';

/** A backlog of `n` items taken `size` at a time; records how many steps ran. */
function backlog(n: number, size: number) {
  let left = n;
  let steps = 0;
  const step = async () => {
    steps += 1;
    const taken = Math.min(size, left);
    left -= taken;
    return taken;
  };
  return { step, steps: () => steps };
}

describe('drainBatches', () => {
  it('steps until a batch comes back short, and reports the start time of that batch', async () => {
    const b = backlog(1000, 250);
    const caughtUp: number[] = [];
    let clock = 0;
    expect(
      await drainBatches(
        250,
        () => ++clock,
        b.step,
        (at) => caughtUp.push(at),
      ),
    ).toBe(1000);
    // 4 full batches, then an empty (short) one: the end.
    expect(b.steps()).toBe(5);
    expect(caughtUp).toEqual([5]);
  });

  it('stops at once when another instance holds the work (null)', async () => {
    let steps = 0;
    const total = await drainBatches(
      250,
      () => 0,
      async () => {
        steps += 1;
        return null;
      },
    );
    expect(total).toBe(0);
    expect(steps).toBe(1);
  });
});
