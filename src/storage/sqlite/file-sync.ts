import fs from 'node:fs';

/** Coalesced fdatasync of one file: callers during a running sync share the next one. */
export class FileSync {
  private fd: number | undefined;
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly file: string) {}

  sync(): Promise<void> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    // The running sync may have started before this caller's commit: wait for the next one.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.sync();
      });
    return this.next;
  }

  private async run(): Promise<void> {
    this.fd ??= fs.openSync(this.file, 'r+');
    const fd = this.fd;
    await new Promise<void>((resolve, reject) =>
      fs.fdatasync(fd, (error) => {
        if (!error) return resolve();
        // Mapped like SQLite's own failed sync: 503 UNAVAILABLE, and the write is not acknowledged.
        reject(Object.assign(new Error(`fsync of ${this.file} failed: ${error.message}`), { code: 'SQLITE_IOERR_FSYNC' }));
      }),
    );
  }

  /** The file's size in bytes (0 before the first sync). */
  size(): number {
    return this.fd === undefined ? 0 : fs.fstatSync(this.fd).size;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
