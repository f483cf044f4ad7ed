import type { Clock } from '../../src/common/clock.js';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(private current: number = Date.parse('2026-11-22T12:00:00Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
