import type { DatabaseCapabilities } from '../../../storage/database.js';
import type { Backlog } from './backlog.js';
import { RowidBacklog } from './rowid.kysely-store.js';
import { SnapshotBacklog } from './snapshot.kysely-store.js';

/**
 * The backlog of the database with these capabilities. In a file of its own, so the interface
 * (backlog.ts) does not import the implementations that import it.
 */
export function backlogFor(capabilities: Pick<DatabaseCapabilities, 'commitOrderedRowids'>): Backlog {
  return capabilities.commitOrderedRowids ? new RowidBacklog() : new SnapshotBacklog();
}
