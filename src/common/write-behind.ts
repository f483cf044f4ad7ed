import { startFirstGroup } from './linger.js';

/**
 * Write-behind: callers hand over entries and go on; a single writer commits them in groups
 * (everything queued when the previous group finished, up to `maxGroup` entries), so the caller's
 * answer never waits for a disk. What it costs is stated where it is used: entries queued or in
 * the transaction being written when the process dies are lost.
 *
 * Nothing is dropped silently. A failed group is retried (with a growing pause) ahead of newer
 * entries; while more than `maxBacklog` entries wait, `submit` makes its caller wait until the
 * backlog is back under the limit, so memory stays bounded and an outage slows callers down
 * instead of losing their entries.
 *
 * GroupCommit (group-commit.ts) gathers groups the same way but is a different contract, kept
 * apart on purpose: there each caller waits for its own commit and a failure goes back to that
 * caller (a feedback item is not acknowledged unless it is on disk), while here nobody waits and a
 * failure is kept and retried. What they share is a dozen lines of queue slicing and the rule that
 * starts a first group (linger.ts).
 */
export interface WriteBehindOptions {
  /** Entries per transaction, at most. */
  maxGroup?: number;
  /** Entries that may wait before `submit` pushes back on its caller. */
  maxBacklog?: number;
  /** Told about every failed attempt (the group is kept and retried). */
  onError?: (error: unknown, entries: number) => void;
  /** Pause before retrying a failed group, by attempt (1, 2, …); defaults to 50 ms doubling up to 5 s. */
  retryDelayMs?: (attempt: number) => number;
  /**
   * Under steady traffic the first entry of an idle writer waits this long for others to join its
   * group (startFirstGroup, linger.ts; GroupCommit's rule). An entry at rest is written at once. Default 0.
   */
  lingerMs?: number;
}

export class WriteBehind<T> {
  private queue: T[] = [];
  private writing = false;
  private readonly idle: (() => void)[] = [];
  private readonly underLimit: (() => void)[] = [];
  private readonly maxGroup: number;
  private readonly maxBacklog: number;
  private readonly onError: (error: unknown, entries: number) => void;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly lingerMs: number;
  /** When the last group ended (performance.now()), to tell steady traffic from a lone entry. */
  private lastWriteEnded = -Infinity;
  private inFlight = 0;
  /** Entries submitted and written since start: groups are written in submission order. */
  private submitted = 0;
  private written = 0;
  private readonly awaitingWritten: { upTo: number; resolve: () => void }[] = [];

  constructor(
    private readonly write: (entries: T[]) => Promise<void>,
    options: WriteBehindOptions = {},
  ) {
    this.maxGroup = options.maxGroup ?? 1000;
    this.maxBacklog = options.maxBacklog ?? 20_000;
    this.onError = options.onError ?? (() => undefined);
    this.retryDelayMs = options.retryDelayMs ?? ((attempt) => Math.min(5000, 50 * 2 ** (attempt - 1)));
    this.lingerMs = options.lingerMs ?? 0;
  }

  /** Entries queued or being written. */
  get backlog(): number {
    return this.queue.length + this.inFlight;
  }

  /**
   * Queues `entries` for the next group. Resolves at once, unless the backlog is over `maxBacklog`:
   * then once it has drained under it.
   */
  submit(entries: readonly T[]): Promise<void> {
    if (entries.length > 0) {
      for (const e of entries) this.queue.push(e);
      this.submitted += entries.length;
      if (!this.writing) {
        this.writing = true;
        startFirstGroup(() => void this.run(), this.lingerMs, this.lastWriteEnded);
      }
    }
    if (this.backlog <= this.maxBacklog) return Promise.resolve();
    return new Promise((resolve) => this.underLimit.push(resolve));
  }

  /**
   * Resolves once every entry submitted before the call is written; later ones are not waited
   * for, so a reader (an erasure, a results read) is not held up by sustained traffic.
   */
  settled(): Promise<void> {
    if (this.written >= this.submitted) return Promise.resolve();
    return new Promise((resolve) => this.awaitingWritten.push({ upTo: this.submitted, resolve }));
  }

  /** Resolves once everything submitted before the call (and since) is written. */
  drain(): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async run(): Promise<void> {
    let attempt = 0;
    while (this.queue.length > 0) {
      const group = this.queue.slice(0, this.maxGroup);
      this.inFlight = group.length;
      this.queue = this.queue.slice(group.length);
      try {
        await this.write(group);
        attempt = 0;
        this.written += group.length;
        for (let i = this.awaitingWritten.length - 1; i >= 0; i -= 1) {
          const w = this.awaitingWritten[i]!;
          if (this.written >= w.upTo) {
            this.awaitingWritten.splice(i, 1);
            w.resolve();
          }
        }
      } catch (error) {
        attempt += 1;
        this.onError(error, group.length);
        // Kept, ahead of newer entries, and tried again after a pause.
        this.queue = group.concat(this.queue);
        await new Promise((r) => setTimeout(r, this.retryDelayMs(attempt)));
      } finally {
        this.inFlight = 0;
        this.lastWriteEnded = performance.now();
      }
      if (this.backlog <= this.maxBacklog) for (const resolve of this.underLimit.splice(0)) resolve();
    }
    this.writing = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
