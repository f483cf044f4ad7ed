/**
 * The checkpoint thread (checkpointer.ts): its own connection to one SQLite file and its
 * analytics file, running PASSIVE checkpoints every `intervalMs`, one RESTART checkpoint of one
 * file when asked ('checkpoint main' / 'checkpoint analytics', answered 'checkpointed'), and a
 * last PASSIVE one before it closes (any other message).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointerData } from './checkpointer.js';

const options = workerData as CheckpointerData;
const db = new Database(options.file);
db.pragma('busy_timeout = 0');
// The analytics file too (sqlite-analytics-file.ts): wal_checkpoint without a schema checkpoints every attached file.
db.prepare('attach database ? as analytics').run(options.analyticsFile);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another instance checkpointing) or out of space: the WAL keeps the data; try again.
  }
}, options.intervalMs);
parentPort!.on('message', (message: string) => {
  if (message === 'checkpoint main' || message === 'checkpoint analytics') {
    // The writes of this process pause meanwhile (catchUp), for one file: the analytics file
    // is written by the fold thread, which these pauses do not stop, so checkpointing it too would
    // lengthen them for nothing. RESTART waits (in SQLite's busy handler, here, at most
    // catchUpWaitMs) for readers still on older snapshots, such as the fold thread reading
    // feedback, so that the next commit starts the WAL again; PASSIVE would skip them and leave
    // the WAL as long as it was.
    try {
      db.pragma(`busy_timeout = ${options.catchUpWaitMs}`);
      db.pragma(`${message.slice('checkpoint '.length)}.wal_checkpoint(RESTART)`);
    } catch {
      // as above
    } finally {
      db.pragma('busy_timeout = 0');
    }
    parentPort!.postMessage('checkpointed');
    return;
  }
  clearInterval(timer);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // as above
  }
  db.close();
  parentPort!.close();
});
