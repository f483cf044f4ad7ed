/**
 * The analytics fold alone on SQLite, for `node --cpu-prof`: ingests ITEMS feedback items through
 * the API (the bench's request shape), then folds the backlog and prints how long each took.
 *
 *   ITEMS=40000 node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof bench/analytics/fold-profile.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { createContainer } from '../../src/container.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import { body } from './run.js';

const ITEMS = Number(process.env.ITEMS ?? 40_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-profile-'));
const handle = await openDatabase({ kind: 'sqlite', path: path.join(dir, 'p.db') });
await migrateToLatest(handle);
const container = createContainer(handle);
const app = await buildApp({ bodyLimitBytes: 2 * 1024 * 1024, logLevel: 'silent', logger: false }, container);
await app.ready();
let t = performance.now();
for (let i = 0; i < ITEMS / 10; i += 1) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/cortex/feedback',
    headers: { 'content-type': 'application/json' },
    payload: body(i),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
}
const ingestMs = performance.now() - t;
t = performance.now();
const folded = await container.analytics.services.analyticsService.catchUp();
const foldMs = performance.now() - t;
console.log(
  `ingest ${ITEMS} items: ${ingestMs.toFixed(0)} ms (${((ingestMs * 1000) / ITEMS).toFixed(1)} µs/item) · fold ${folded}: ${foldMs.toFixed(0)} ms (${((foldMs * 1000) / ITEMS).toFixed(1)} µs/item)`,
);
await app.close();
await container.close();
await handle.close();
fs.rmSync(dir, { recursive: true, force: true });
