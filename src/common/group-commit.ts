import { startFirstGroup } from './linger.js';

/**
 * Group commit: concurrent callers' entries are written together in one transaction, and each
 * caller's promise settles only when the transaction holding its entries has committed (or
 * failed). While one write is in flight the next group gathers, so under load every commit
 * carries many entries and at rest an entry waits for no timer. `write` returns one result per
 * entry, in order; each caller receives the results of its own entries.
 */
export class GroupCommit<T, R = void> {
  private queue: { entries: T[]; resolve: (results: R[]) => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;
  /** When the last write ended (performance.now()), to tell steady traffic from a lone request. */
  private lastWriteEnded = -Infinity;

  /**
   * @param maxWeight a group closes once its entries' total weight would pass this (one entry
   *   always fits), so one transaction never grows large enough to stall other requests.
   * @param lingerMs under steady traffic (a write ended less than 10 × lingerMs ago), the first
   *   entry of an idle committer waits this long for others to join its group, as PostgreSQL's
   *   commit_delay does: each commit's fixed cost (BEGIN/COMMIT, its WAL pages, a sync, the
   *   checkpoint that copies them) is then shared by more entries. A lone entry at rest never waits.
   */
  constructor(
    private readonly write: (entries: T[]) => Promise<R[] | void>,
    private readonly maxWeight = 1000,
    private readonly weight: (entry: T) => number = () => 1,
    private readonly lingerMs = 0,
  ) {}

  add(entries: T[]): Promise<R[]> {
    if (entries.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ entries, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        startFirstGroup(() => void this.flush(), this.lingerMs, this.lastWriteEnded);
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const group: typeof this.queue = [];
      let total = 0;
      const weigh = (entries: T[]) => entries.reduce((acc, e) => acc + this.weight(e), 0);
      while (this.queue.length > 0 && (group.length === 0 || total + weigh(this.queue[0]!.entries) <= this.maxWeight)) {
        const next = this.queue.shift()!;
        group.push(next);
        total += weigh(next.entries);
      }
      try {
        const results = (await this.write(group.flatMap((g) => g.entries))) ?? [];
        let offset = 0;
        for (const g of group) {
          g.resolve(results.slice(offset, offset + g.entries.length));
          offset += g.entries.length;
        }
      } catch (error) {
        for (const g of group) g.reject(error);
      }
      this.lastWriteEnded = performance.now();
    }
    this.flushing = false;
  }
}
