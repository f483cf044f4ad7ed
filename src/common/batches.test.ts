import { describe, expect, it } from 'vitest';
import { drainBatches, singleFlight } from './batches.js';
import { PeriodicTask } from './periodic-task.js';

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
    expect(await drainBatches(250, () => ++clock, b.step, { onCaughtUp: (at) => caughtUp.push(at) })).toBe(1000);
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

  it('a background run that is told to stop ends at its next batch boundary and leaves the rest', async () => {
    const b = backlog(10_000, 250);
    const halt = new AbortController();
    let caughtUp = false;
    const total = await drainBatches(
      250,
      () => 0,
      async () => {
        const n = await b.step();
        if (b.steps() === 3) halt.abort();
        return n;
      },
      { stop: halt.signal, onCaughtUp: () => (caughtUp = true) },
    );
    expect(total).toBe(750);
    expect(b.steps()).toBe(3);
    expect(caughtUp).toBe(false);
  });

  it("a request joining a background run shares it, stop signal and all; a request's own run has none", async () => {
    const b = backlog(10_000, 250);
    const halt = new AbortController();
    const catchUp = singleFlight((stop) =>
      drainBatches(
        250,
        () => 0,
        async () => {
          await new Promise((r) => setTimeout(r, 1));
          return b.step();
        },
        { stop },
      ),
    );
    const background = catchUp(halt.signal);
    const request = catchUp();
    halt.abort();
    // Both get what the one shared run folded before it stopped at its batch boundary.
    expect(await request).toBe(await background);
    expect(await background).toBeLessThan(10_000);
    // Called again without a signal (a request alone), the run ignores the aborted one and drains to the end.
    expect((await background) + (await catchUp())).toBe(10_000);
  });

  it("PeriodicTask.stop() ends a run's drain at the batch boundary instead of waiting for the backlog", async () => {
    const b = backlog(1_000_000, 250);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const task = new PeriodicTask(
      'fold',
      10,
      (signal) =>
        drainBatches(
          250,
          () => 0,
          async () => {
            started();
            await new Promise((r) => setTimeout(r, 1));
            return b.step();
          },
          { stop: signal },
        ),
      { error: () => undefined },
    );
    task.start();
    await running;
    await task.stop();
    const steps = b.steps();
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(1_000_000 / 250);
    await new Promise((r) => setTimeout(r, 30));
    expect(b.steps()).toBe(steps);
  });
});
