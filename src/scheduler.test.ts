import { describe, expect, it } from 'vitest';
import type { TaskLogger } from './common/periodic-task.js';
import { createScheduler } from './scheduler.js';

const silent: TaskLogger = { error: () => undefined };

describe('createScheduler', () => {
  it('runs every spec on its interval, observing only the ones marked observed', async () => {
    const observed: string[] = [];
    let polls = 0;
    let jobs = 0;
    const scheduler = createScheduler(
      [
        { name: 'job', intervalMs: 10, run: async () => (jobs += 1), observed: true },
        { name: 'poll', intervalMs: 10, run: async () => (polls += 1) },
      ],
      silent,
      async (name, run) => {
        observed.push(name);
        return run();
      },
    );
    scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, 120));
    await scheduler.stop();
    expect(jobs).toBeGreaterThan(0);
    expect(polls).toBeGreaterThan(0);
    expect(observed.length).toBe(jobs);
    expect(new Set(observed)).toEqual(new Set(['job']));
  });

  it('hands each run the scheduler logger and keeps going after a failure', async () => {
    const logged: string[] = [];
    let runs = 0;
    const log: TaskLogger = { error: (_obj, msg) => logged.push(msg) };
    const scheduler = createScheduler(
      [
        {
          name: 'flaky',
          intervalMs: 10,
          run: async (context) => {
            runs += 1;
            expect(context.log).toBe(log);
            throw new Error('boom');
          },
        },
      ],
      log,
      (_name, run) => run(),
    );
    scheduler.start();
    await new Promise((resolve) => setTimeout(resolve, 120));
    await scheduler.stop();
    expect(runs).toBeGreaterThan(1);
    expect(logged[0]).toBe('periodic task flaky failed');
  });

  it('hands each run, observed or not, a signal that aborts when the scheduler stops', async () => {
    const signals: AbortSignal[] = [];
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const hold = (context: { signal: AbortSignal }) =>
      new Promise<void>((resolve) => {
        signals.push(context.signal);
        if (signals.length === 2) started();
        context.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    const scheduler = createScheduler(
      [
        { name: 'observed', intervalMs: 10, run: hold, observed: true },
        { name: 'plain', intervalMs: 10, run: hold },
      ],
      silent,
      (_name, run) => run(),
    );
    scheduler.start();
    await running;
    expect(signals.map((s) => s.aborted)).toEqual([false, false]);
    // stop() resolves only because each run ends when its signal aborts.
    await scheduler.stop();
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it('refuses two tasks with one name', () => {
    const run = async () => undefined;
    expect(() =>
      createScheduler(
        [
          { name: 'same', intervalMs: 1, run },
          { name: 'same', intervalMs: 1, run },
        ],
        silent,
        (_name, r) => r(),
      ),
    ).toThrow(/two background tasks are named "same"/);
  });
});
