/**
 * Group commit: concurrent callers' rows are written together in one transaction, and each
 * caller's promise settles only when the transaction holding its rows has committed (or
 * failed). While one write is in flight the next group gathers, so under load every commit
 * carries many rows and at rest a row waits for no timer.
 */
export class GroupCommit<T> {
  private queue: { rows: T[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly maxRows = 1000,
  ) {}

  add(rows: T[]): Promise<void> {
    if (rows.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // Let the requests already in this turn of the event loop join the first group.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group: typeof this.queue = [];
      let count = 0;
      while (this.queue.length > 0 && (group.length === 0 || count + this.queue[0]!.rows.length <= this.maxRows)) {
        const next = this.queue.shift()!;
        group.push(next);
        count += next.rows.length;
      }
      try {
        await this.write(group.flatMap((g) => g.rows));
        for (const g of group) g.resolve();
      } catch (error) {
        for (const g of group) g.reject(error);
      }
    }
    this.flushing = false;
  }
}
