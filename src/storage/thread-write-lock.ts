/**
 * A fair lock shared by the threads of one process that write the same SQLite file through their
 * own connections (the event loop's and the analytics fold thread's).
 *
 * Why not SQLite's own lock: a connection that finds the write lock taken by another connection
 * sleeps in SQLite's busy handler (1, 2, 5, 10 … ms), synchronously, and on the event loop that
 * sleep stalls every request in flight. Taking this lock first, the event loop waits without
 * blocking (Atomics.waitAsync) and is woken the moment the other thread lets go; SQLite's busy
 * timeout stays as the guard against other processes.
 *
 * A ticket lock over a SharedArrayBuffer: each acquirer draws the next ticket and holds the lock
 * when `serving` reaches it, so threads take turns in arrival order and neither can starve the
 * other. Both counters wrap around together in 32 bits, which keeps `===` exact.
 */
const NEXT = 0;
const SERVING = 1;

export class ThreadWriteLock {
  private readonly cells: Int32Array;

  /** A new lock, or the one whose `buffer` another thread passed here. */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)) {
    this.cells = new Int32Array(buffer);
  }

  /** Undefined when taken at once; otherwise a promise that resolves when this caller holds it. */
  acquire(): Promise<void> | undefined {
    const ticket = Atomics.add(this.cells, NEXT, 1);
    if (Atomics.load(this.cells, SERVING) === ticket) return undefined;
    return this.waitFor(ticket);
  }

  private async waitFor(ticket: number): Promise<void> {
    for (;;) {
      const serving = Atomics.load(this.cells, SERVING);
      if (serving === ticket) return;
      const waited = Atomics.waitAsync(this.cells, SERVING, serving);
      if (waited.async) await waited.value;
    }
  }

  release(): void {
    Atomics.add(this.cells, SERVING, 1);
    Atomics.notify(this.cells, SERVING);
  }

  /** Whether some thread holds it (or waits for it): for tests and diagnostics. */
  busy(): boolean {
    return Atomics.load(this.cells, NEXT) !== Atomics.load(this.cells, SERVING);
  }
}
