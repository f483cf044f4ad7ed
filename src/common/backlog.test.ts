import { describe, expect, it } from 'vitest';
import { drainBatches } from './backlog.js';

/** A backlog of `n` items; records the batch size each step asked for. */
function backlog(n: number) {
  let left = n;
  const asked: number[] = [];
  const step = async (limit: number) => {
    asked.push(limit);
    const taken = Math.min(limit, left);
    left -= taken;
    return taken;
  };
  return { step, asked };
}

describe('drainBatches', () => {
  it('keeps the batch size when no larger one is allowed', async () => {
    const b = backlog(1000);
    expect(await drainBatches(250, () => 0, b.step)).toBe(1000);
    expect(b.asked).toEqual([250, 250, 250, 250, 250]);
  });

  it('doubles the batch after each full one up to the maximum, and ends on a short batch', async () => {
    const b = backlog(3000);
    const caughtUp: number[] = [];
    let clock = 0;
    const total = await drainBatches(
      250,
      () => ++clock,
      b.step,
      (at) => caughtUp.push(at),
      1000,
    );
    expect(total).toBe(3000);
    // 250 + 500 + 1000 + 1000 = 2750, then 250 of the asked 1000: the end.
    expect(b.asked).toEqual([250, 500, 1000, 1000, 1000]);
    expect(caughtUp).toEqual([5]);
  });

  it('starts from the base size again on the next drain', async () => {
    const b = backlog(600);
    await drainBatches(250, () => 0, b.step, undefined, 1000);
    await drainBatches(250, () => 0, b.step, undefined, 1000);
    expect(b.asked).toEqual([250, 500, 250]);
  });

  it('stops at once when another instance holds the work (null)', async () => {
    const asked: number[] = [];
    const total = await drainBatches(
      250,
      () => 0,
      async (limit) => {
        asked.push(limit);
        return null;
      },
      undefined,
      1000,
    );
    expect(total).toBe(0);
    expect(asked).toEqual([250]);
  });
});
