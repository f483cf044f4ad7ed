export interface TaskLogger {
  error(obj: object, msg: string): void;
}

/**
 * A background job as a module hands it to the scheduler: what to run and how often. Modules
 * never start timers themselves; the one scheduler beside the composition root runs every spec.
 */
export interface TaskSpec {
  name: string;
  intervalMs: number;
  /**
   * `log` is the scheduler's logger, for work a run starts and leaves going (the training queue);
   * `signal` aborts when the scheduler stops: a drain given it ends at its next batch boundary.
   */
  run: (context: { log: TaskLogger; signal: AbortSignal }) => Promise<unknown>;
  /**
   * Count and time each run in searchloop_job_runs_total / searchloop_job_duration_seconds. Off for
   * cheap polls (cache revision, key refresh) whose runs would only drown the jobs worth watching.
   */
  observed?: boolean;
}

/** Wraps a job run so its count and duration by outcome are recorded (Metrics.observeJob). */
export type ObserveJob = <T>(name: string, run: () => Promise<T>) => Promise<T>;

/**
 * Runs `run` every `intervalMs` (± 10 % jitter so instances do not fire in lockstep), never
 * overlapping a run still going. Errors are logged and the schedule goes on.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private stopped = true;
  // Aborted by stop() and passed to each run: its drains end at their next batch boundary (common/batches.ts).
  private halt = new AbortController();

  constructor(
    readonly name: string,
    private readonly intervalMs: number,
    private readonly run: (signal: AbortSignal) => Promise<unknown>,
    private readonly log: TaskLogger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.halt.signal.aborted) this.halt = new AbortController();
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    const jitter = this.intervalMs * 0.1 * (Math.random() * 2 - 1);
    this.timer = setTimeout(() => void this.tick(), Math.max(10, this.intervalMs + jitter));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.current = this.run(this.halt.signal).then(
      () => undefined,
      (error: unknown) => this.log.error({ err: error, task: this.name }, `periodic task ${this.name} failed`),
    );
    await this.current;
    this.current = undefined;
    this.schedule();
  }

  /**
   * Stops scheduling and waits for a run in progress, which is told to stop: a backlog it drains
   * ends at its next batch boundary and is left for the next start (shutdown waits for one batch,
   * not for the whole backlog).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.halt.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }
}
