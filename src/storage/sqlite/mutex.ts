/** One holder at a time (a transaction holds it from BEGIN to COMMIT/ROLLBACK). */
export class Mutex {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  lock(): Promise<void> | undefined {
    if (!this.held) {
      this.held = true;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}
