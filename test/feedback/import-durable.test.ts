import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, expect, it, vi } from 'vitest';
import { KyselyFeedbackImportStore } from '../../src/feedback/import/import.kysely-store.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { feedbackItem, nextId } from '../contract/support/records.js';

let dir: string | undefined;
let handle: DatabaseHandle | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await handle?.close();
  handle = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The SQLite import writes with its own prepared statements in a raw transaction of the syncing
 * driver (sqlite-driver.ts): a batch may count as imported (and the resume position move past it)
 * only after an fdatasync of the WAL that began once the batch had committed.
 */
it('a SQLite import batch resolves only after a WAL sync that started after its commit', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-durable-'));
  const file = path.join(dir, 'db.sqlite');
  handle = await openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(handle);
  const observer = new BetterSqlite3(file, { readonly: true });
  const stored = () => (observer.prepare('select count(*) as n from feedback_items').get() as { n: number }).n;
  const storedWhenSyncsStarted: number[] = [];
  const original = fs.fdatasync;
  vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    storedWhenSyncsStarted.push(stored());
    original(fd, callback);
  }) as typeof fs.fdatasync);

  const sub = nextId('sub');
  const batch = [0, 1, 2].map((seq) => ({
    key: `k${seq}`,
    record: feedbackItem({ id: nextId('item'), submissionId: sub, sessionId: 's1', seq, eventTime: 500 }),
  }));
  const result = await new KyselyFeedbackImportStore(handle).importBatch(batch, 9000);

  expect(result).toEqual({ inserted: 3, duplicates: 0 });
  expect(storedWhenSyncsStarted.some((n) => n === 3)).toBe(true);
  observer.close();
});
