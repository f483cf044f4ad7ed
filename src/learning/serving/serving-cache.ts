/**
 * What POST /api/nous/rank reads of the registry on every call (the production alias's target, a
 * model's record and active version), kept in memory so a search-time call reads no table.
 *
 * Invalidation, the way the assignment cache does it: a local write that changes what is served
 * (a version trained or imported, an alias moved, a model registered) clears the cache at once (the
 * module wraps those store writes); another instance's write is seen by `refreshIfChanged`, a 1-second
 * poll of `revision`, a cheap read that changes with every such write.
 *
 * Values are cached as promises, set before their read starts: an `invalidate` that lands while a
 * read is in flight removes that read from the cache, so a value read before a change is never kept
 * after it (the callers already waiting get it, as they would have without a cache). A failed read
 * is not kept.
 */
export class ServingCache {
  private readonly values = new Map<string, Promise<unknown>>();
  private revision: string | undefined;

  /** `revision`: a string that changes whenever a served value may have changed on any instance. */
  constructor(private readonly readRevision: () => Promise<string>) {}

  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.values.get(key);
    if (hit) return hit as Promise<T>;
    const value = load();
    this.values.set(key, value);
    value.catch(() => {
      if (this.values.get(key) === value) this.values.delete(key);
    });
    return value;
  }

  invalidate(): void {
    this.values.clear();
  }

  /** The poll: one cheap read; clears the cache when another instance (or this one) changed something. */
  async refreshIfChanged(): Promise<void> {
    const revision = await this.readRevision();
    if (revision !== this.revision) {
      this.revision = revision;
      this.invalidate();
    }
  }
}
