import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runExportCommand } from '../../src/cli/export-command.js';
import { runImportCommand } from '../../src/cli/import-command.js';
import { loadConfig } from '../../src/config.js';
import { cliCommand } from '../support/service-process.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, describeOnEveryDatabase, type TestDatabase } from '../support/test-database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-import-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

/** 40 lines: feedback submissions, UBI events and a UBI query, two bad lines (11 and 23), and a blank one. */
function mixedNdjson(): string {
  const lines: string[] = [];
  for (let i = 1; i <= 40; i++) {
    if (i === 11) lines.push('{"sessionId": "broken"');
    else if (i === 23) lines.push(JSON.stringify({ sessionId: 'imp-a', feedback: [{ queryId: 'q', rating: 11 }] }));
    else if (i === 30) lines.push('');
    else if (i % 3 === 0)
      lines.push(
        JSON.stringify({
          action_name: 'click',
          query_id: `uq-${i}`,
          client_id: 'imp-b',
          timestamp: '2026-10-01T09:00:00Z',
          event_attributes: { object: { object_id: `sku-${i}` }, position: { ordinal: 2 } },
        }),
      );
    else if (i === 40)
      lines.push(JSON.stringify({ user_query: 'Shoes', query_id: 'uq-q', client_id: 'imp-b', query_response_hit_ids: ['a', 'b', 'c'] }));
    else
      lines.push(
        JSON.stringify({
          sessionId: 'imp-a',
          feedback: [{ queryId: `q-${i}`, metadata: { userAction: 'impression', resultId: `d-${i}`, timestamp: '2026-10-01T08:00:00Z' } }],
        }),
      );
  }
  return `${lines.join('\n')}\n`;
}
// Lines 3, 6, … 39 but 30 (blank) are events (12), line 40 a query with 3 hits, the other 24 but 11 and 23 submissions.
const EXPECTED_ITEMS = 12 + 3 + 24;

const quiet = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t), tty: false } };
};

describeOnEveryDatabase('searchloop import / export', (kind) => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    env =
      db.target.kind === 'sqlite'
        ? { DATABASE_URL: `sqlite:${db.target.path}` }
        : { DATABASE_URL: db.target.url, DATABASE_SCHEMA: db.target.schema };
    t = await buildTestApp(kind);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });
  const config = () => loadConfig(env);

  it('imports NDJSON of feedback and UBI with historical timestamps, reports rejects by line, and a re-run stores nothing new', async () => {
    const input = file(`mixed-${kind}.ndjson`, mixedNdjson());
    const first = quiet();
    expect(await runImportCommand([input, '--batch', '7'], config, first.io)).toBe(1);
    expect(first.out.join('')).toBe(
      `imported ${EXPECTED_ITEMS} items, skipped 0 duplicates, rejected 2 lines (see ${input}.rejects.ndjson)\n`,
    );
    const rejects = fs
      .readFileSync(`${input}.rejects.ndjson`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; reason: string });
    expect(rejects).toEqual([
      { line: 11, reason: 'not JSON' },
      { line: 23, reason: '/feedback/0/rating must be <= 5' },
    ]);
    expect(first.err.some((l) => /^import: 100\.0% 39 imported/.test(l))).toBe(true);

    const again = quiet();
    await runImportCommand([input, '--batch', '5'], config, again.io);
    expect(again.out.join('')).toMatch(new RegExp(`^imported 0 items, skipped ${EXPECTED_ITEMS} duplicates, rejected 2 lines`));

    const exported = path.join(dir, `out-${kind}.ndjson`);
    expect(await runExportCommand(['--format', 'ndjson', '--session', 'imp-a', '-o', exported], config, quiet().io)).toBe(0);
    const items = fs
      .readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { metadata: { timestamp: string } });
    expect(items).toHaveLength(24);
    expect(items.every((i) => i.metadata.timestamp === '2026-10-01T08:00:00.000Z')).toBe(true);
    // Our own export imports back as the same items: all duplicates.
    const back = quiet();
    await runImportCommand([exported], config, back.io);
    expect(back.out.join('')).toBe('imported 0 items, skipped 24 duplicates, rejected 0 lines\n');
  });

  it('imports CSV straight into the database in batches of 2 (the worker keeps the header across batches); the inline path finds the same keys', async () => {
    const csv = file(
      `direct-${kind}.csv`,
      [
        'sessionId,queryId,resultId,position,userAction,timestamp',
        'dcsv-s,q1,d1,1,click,2026-10-03T10:00:00Z',
        'dcsv-s,q1,d2,2,impression,2026-10-03T10:00:00Z',
        'dcsv-s,q1,d3,x,impression,2026-10-03T10:00:00Z',
        'dcsv-s,q2,d4,1,impression,2026-10-03T10:01:00Z',
        'dcsv-t,q3,d5,3,impression,2026-10-03T10:02:00Z',
      ].join('\n'),
    );
    const run = quiet();
    expect(await runImportCommand([csv, '--batch', '2'], config, run.io)).toBe(1);
    expect(run.out.join('')).toMatch(/^imported 4 items, skipped 0 duplicates, rejected 1 lines/);
    expect(fs.readFileSync(`${csv}.rejects.ndjson`, 'utf8')).toBe('{"line":4,"reason":"position: \\"x\\" is not a number"}\n');
    // Parsed on this thread instead of the worker: the same items, so all duplicates.
    process.env.SEARCHLOOP_IMPORT_INLINE = '1';
    try {
      const again = quiet();
      await runImportCommand([csv, '--batch', '3'], config, again.io);
      expect(again.out.join('')).toMatch(/^imported 0 items, skipped 4 duplicates, rejected 1 lines/);
    } finally {
      delete process.env.SEARCHLOOP_IMPORT_INLINE;
    }
    const exported = path.join(dir, `direct-out-${kind}.ndjson`);
    expect(await runExportCommand(['--format', 'ndjson', '--session', 'dcsv-s', '-o', exported], config, quiet().io)).toBe(0);
    const items = fs
      .readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { metadata: { resultId: string } });
    expect(items.map((i) => i.metadata.resultId)).toEqual(['d1', 'd2', 'd4']);
  });

  it('imports CSV with a header over HTTP (--url), extra columns into customMetadata, idempotent on re-run', async () => {
    const csv = file(
      `c-${kind}.csv`,
      [
        'sessionId,queryId,resultId,position,userAction,timestamp,rating,dwellTime,device',
        'csv-s,q1,"d,1",1,click,2026-10-02T10:00:00Z,,35000,mobile',
        'csv-s,q1,d2,2,impression,2026-10-02T10:00:00Z,,,mobile',
        'csv-s,q1,d3,x,impression,2026-10-02T10:00:00Z,,,mobile',
        'csv-s,q2,,,,2026-10-02T10:01:00Z,4,,desktop',
      ].join('\n'),
    );
    const run = quiet();
    expect(await runImportCommand([csv, '--url', url], config, run.io)).toBe(1);
    expect(run.out.join('')).toMatch(/^imported 3 items, skipped 0 duplicates, rejected 1 lines/);
    expect(fs.readFileSync(`${csv}.rejects.ndjson`, 'utf8')).toBe('{"line":4,"reason":"position: \\"x\\" is not a number"}\n');
    const again = quiet();
    await runImportCommand([csv, '--url', url], config, again.io);
    expect(again.out.join('')).toMatch(/^imported 0 items, skipped 3 duplicates/);
    const stored = (await t.app.inject({ method: 'GET', url: '/api/cortex/feedback?sessionId=csv-s' })).json().data.items;
    expect(stored[0].metadata).toMatchObject({ resultId: 'd,1', customMetadata: { position: 1, dwellTime: 35000, device: 'mobile' } });
    expect(stored[2]).toMatchObject({ rating: 4, queryId: 'q2' });
    // And out again over HTTP: the CSV export of the session, header plus its three items.
    const out = path.join(dir, `export-${kind}.csv`);
    expect(await runExportCommand(['--url', url, '--format', 'csv', '--session', 'csv-s', '-o', out], config, quiet().io)).toBe(0);
    const rows = fs.readFileSync(out, 'utf8').trim().split('\n');
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatch(/^csv-s,q1,,"d,1",1,click,2026-10-02T10:00:00.000Z,,35000,,"{""device"":""mobile""}",/);
  });
});

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

it('resumes after being killed: the second run starts where the first stopped and the total is exact', { timeout: 120_000 }, async () => {
  const db = await createTestDatabase('sqlite');
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${(db.target as { path: string }).path}` };
  const lines = Array.from({ length: 30_000 }, (_, i) =>
    JSON.stringify({
      sessionId: `r-${i % 50}`,
      feedback: [{ queryId: `q-${i}`, metadata: { userAction: 'impression', resultId: `d-${i}` } }],
    }),
  );
  const input = file('resume.ndjson', `${lines.join('\n')}\n`);
  const child = spawn(...cliCommand('source', 'import', input, '--batch', '500'), {
    cwd: REPO,
    env,
    stdio: 'ignore',
  });
  const exited = new Promise((r) => child.on('exit', r));
  const state = `${input}.import-state.json`;
  while (!fs.existsSync(state) || (JSON.parse(fs.readFileSync(state, 'utf8')) as { line: number }).line < 2000) {
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  await exited;
  const savedLine = (JSON.parse(fs.readFileSync(state, 'utf8')) as { line: number }).line;
  expect(savedLine).toBeLessThan(30_000);
  const run = quiet();
  expect(await runImportCommand([input, '--batch', '5000'], () => loadConfig(env), run.io)).toBe(0);
  expect(run.err[0]).toBe(`import: resuming ${input} at line ${savedLine + 1}\n`);
  // Everything once: what the killed run committed plus what the resumed run added. The position
  // is saved after a batch is committed and synced, so a kill between the two leaves at most one
  // batch (500 lines) committed past it: the resumed run reads those lines again and their keys
  // make them duplicates, never second copies.
  const report = /^imported (\d+) items, skipped (\d+) duplicates, rejected 0 lines\n$/.exec(run.out.join(''));
  expect(report).not.toBeNull();
  const [imported, skipped] = [Number(report![1]), Number(report![2])];
  expect(imported + skipped).toBe(30_000);
  expect([0, 500]).toContain(skipped);
  const stored = new BetterSqlite3((db.target as { path: string }).path, { readonly: true });
  expect((stored.prepare('select count(*) as n from feedback_items').get() as { n: number }).n).toBe(30_000);
  stored.close();
  expect(fs.existsSync(state)).toBe(false);
  await db.drop();
});
