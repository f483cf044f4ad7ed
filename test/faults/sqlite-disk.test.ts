import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import type { ServiceProcess } from '../support/service-process.js';
import { audit, feedbackBatch, isErrorEnvelope, listSessionItems, postBatch, send, type SentBatch, startServer, tally } from './harness.js';

/** A small tmpfs to fill, when this process may mount one (root in a sandbox that allows it). */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
  }
}

/** Fills the filesystem holding `dir` until a write fails with ENOSPC. */
function fillDisk(file: string): number {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  let written = 0;
  try {
    for (;;) written += fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  return written;
}

/** `chattr +i`: the file refuses writes even from root and through descriptors already open. */
function chattr(flag: '+i' | '-i', files: string[]): boolean {
  try {
    execFileSync('chattr', [flag, ...files], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

async function integrityCheck(file: string): Promise<string> {
  const handle = await openDatabase({ kind: 'sqlite', path: file });
  try {
    const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(handle.db);
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    await handle.close();
  }
}

/** Posts batches until one is refused (or `max` were accepted); returns every batch sent. */
async function postUntilRefused(
  server: ServiceProcess,
  sessionId: string,
  prefix: string,
  items: number,
  max: number,
): Promise<SentBatch[]> {
  const batches: SentBatch[] = [];
  for (let n = 0; n < max; n += 1) {
    const requestId = `${prefix}-${n}`;
    const body = feedbackBatch(sessionId, requestId, items);
    const startedAt = Date.now();
    const answer = await postBatch(server.url, requestId, body);
    batches.push({ requestId, body, queryIds: body.feedback.map((f) => f.queryId), answer, startedAt, endedAt: Date.now() });
    if (answer.status !== 201) break;
  }
  return batches;
}

function checkRefusal(batches: SentBatch[], problems: string[], what: string): SentBatch | undefined {
  const refused = batches.find((b) => b.answer.status !== 201);
  if (!refused) {
    problems.push(`${what}: all ${batches.length} writes were accepted`);
    return undefined;
  }
  if (refused.answer.status !== 503 || !isErrorEnvelope(refused.answer.body, 'UNAVAILABLE')) {
    problems.push(
      `${what}: a write answered ${refused.answer.status ?? refused.answer.error} ${JSON.stringify(refused.answer.body)} (want 503 UNAVAILABLE)`,
    );
  }
  return refused;
}

/** The log line of a refused request: says the database is unavailable and carries SQLite's code. */
async function refusalLog(server: ServiceProcess, requestId: string) {
  const line = await server.waitForLine((l) => l.reqId === requestId && (l.level ?? 0) >= 50);
  if (process.env.FAULTS_DEBUG) console.log(server.raw.filter((l) => l.includes(`"${requestId}"`)).join('\n'));
  return line?.msg === 'database unavailable' ? line : undefined;
}

describe('SQLite disk faults', () => {
  it('disk full: 503 UNAVAILABLE with a log line naming SQLITE_FULL, no corruption, writes resume once there is room', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-full-'));
    // FAULTS_NO_TMPFS=1 exercises the fallback on a machine that could mount.
    const mounted = process.env.FAULTS_NO_TMPFS !== '1' && mountTmpfs(dir, '24m');
    const file = path.join(dir, 'searchloop.db');
    // No mount allowed: the operator's size cap gives the same SQLITE_FULL from inside SQLite.
    const env: Record<string, string> = { DATABASE_URL: `sqlite://${file}`, ...(mounted ? {} : { SQLITE_MAX_PAGE_COUNT: '3000' }) };
    if (!mounted) process.stderr.write(`\n!! tmpfs mount refused: simulating a full disk with SQLITE_MAX_PAGE_COUNT=3000 instead\n\n`);
    const filler = path.join(dir, 'filler');
    let server: ServiceProcess | undefined;
    const problems: string[] = [];
    try {
      server = await startServer(env);
      const sessionId = 'disk-full';
      const before = await postUntilRefused(server, sessionId, 'full-before', 100, 20);
      if (before.some((b) => b.answer.status !== 201))
        problems.push(`writes failed before the disk was full: ${JSON.stringify(tally(before.map((b) => b.answer)))}`);
      const filled = mounted ? fillDisk(filler) : 0;

      const during = await postUntilRefused(server, sessionId, 'full', 500, 400);
      const refused = checkRefusal(during, problems, 'disk full');
      const log = refused && (await refusalLog(server, refused.requestId));
      if (refused && !log) problems.push(`no "database unavailable" log line for ${refused.requestId}`);
      else if (log && !/^SQLITE_(FULL|IOERR)/.test(String(log.err?.code)))
        problems.push(`the log line names ${log.err?.code}, not SQLITE_FULL: ${JSON.stringify(log.err)}`);
      // Still full: still a clean 503, and reads and liveness still answer.
      const again = await postUntilRefused(server, sessionId, 'full-again', 500, 1);
      checkRefusal(again, problems, 'disk still full');
      const health = await send(server.url, { method: 'GET', path: '/healthz' });
      if (health.status !== 200) problems.push(`/healthz answered ${health.status ?? health.error} on a full disk`);
      const readable = await listSessionItems(server.url, sessionId);

      if (mounted) fs.rmSync(filler);
      const after = mounted ? await postUntilRefused(server, sessionId, 'full-after', 100, 3) : [];
      if (after.some((b) => b.answer.status !== 201))
        problems.push(`writes did not resume after space was freed: ${JSON.stringify(tally(after.map((b) => b.answer)))}`);
      await server.stop();
      const exit = await server.exited;
      if (exit.code !== 0) problems.push(`the server exited with ${exit.code ?? exit.signal} after the fault`);

      const integrity = await integrityCheck(file);
      if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
      server = await startServer(env);
      const all = [...before, ...during, ...again, ...after];
      const found = audit(all, await listSessionItems(server.url, sessionId));
      if (found.lost.length) problems.push(`${found.lost.length} acknowledged items lost`);
      if (found.duplicates.length) problems.push(`duplicated items ${found.duplicates.slice(0, 5).join(', ')}`);
      if (found.partial.length) problems.push(`partial submissions ${found.partial.join(', ')}`);
      if (found.unacknowledgedPresent) problems.push(`${found.unacknowledgedPresent} refused submissions were stored anyway`);

      console.log(
        `disk full (${mounted ? `tmpfs 24 MiB, filler ${(filled / 1048576).toFixed(1)} MiB` : 'SQLITE_MAX_PAGE_COUNT=3000'}): ` +
          `writes until refused ${during.length}: ${JSON.stringify(tally(during.map((b) => b.answer)))}; refusal ${refused?.answer.status} ${refused?.answer.body?.error?.code}; ` +
          `log: "${log?.msg}" code ${log?.err?.code} (${log?.err?.message}); reads while full ${readable.length} items; ` +
          `after freeing space ${JSON.stringify(tally(after.map((b) => b.answer)))}; integrity_check ${integrity}; ` +
          `acknowledged items ${found.acknowledgedItems}, found ${found.found}, lost ${found.lost.length}, duplicates ${found.duplicates.length}`,
      );
      expect(problems).toEqual([]);
    } finally {
      await server?.stop();
      if (mounted) unmount(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-chattr-'));
  const probeFile = path.join(probeDir, 'probe');
  fs.writeFileSync(probeFile, '');
  const immutableWorks = chattr('+i', [probeFile]) && chattr('-i', [probeFile]);
  fs.rmSync(probeDir, { recursive: true, force: true });
  if (!immutableWorks)
    process.stderr.write(
      `\n!! chattr +i is not available on ${os.tmpdir()} (needs root and ext4/xfs/btrfs): SKIPPING the read-only database test\n\n`,
    );

  it.runIf(immutableWorks)(
    'read-only database file (chattr +i under the running server): 503 UNAVAILABLE and a log line, reads still work, no corruption',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-readonly-'));
      const file = path.join(dir, 'searchloop.db');
      const locked = [file, `${file}-wal`];
      const env = { DATABASE_URL: `sqlite://${file}` };
      let server: ServiceProcess | undefined;
      const problems: string[] = [];
      try {
        server = await startServer(env);
        const sessionId = 'read-only';
        const before = await postUntilRefused(server, sessionId, 'ro-before', 100, 20);
        if (before.some((b) => b.answer.status !== 201))
          problems.push(`writes failed before the file was made read-only: ${JSON.stringify(tally(before.map((b) => b.answer)))}`);
        if (!chattr('+i', locked)) throw new Error(`chattr +i ${locked.join(' ')} failed`);

        const during = await postUntilRefused(server, sessionId, 'ro', 100, 50);
        const refused = checkRefusal(during, problems, 'read-only file');
        const log = refused && (await refusalLog(server, refused.requestId));
        if (refused && !log) problems.push(`no "database unavailable" log line for ${refused.requestId}`);
        else if (log && !/^SQLITE_(READONLY|IOERR)/.test(String(log.err?.code)))
          problems.push(`the log line names ${log.err?.code}: ${JSON.stringify(log.err)}`);
        const readable = await listSessionItems(server.url, sessionId);
        const readsWork = readable.length === before.length * 100;
        if (!readsWork) problems.push(`reads on the read-only file returned ${readable.length} items, ${before.length * 100} were stored`);

        chattr('-i', locked);
        const after = await postUntilRefused(server, sessionId, 'ro-after', 100, 3);
        await server.stop();
        const exit = await server.exited;
        if (exit.code !== 0) problems.push(`the server exited with ${exit.code ?? exit.signal} after the fault`);
        const integrity = await integrityCheck(file);
        if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
        server = await startServer(env);
        const found = audit([...before, ...during, ...after], await listSessionItems(server.url, sessionId));
        if (found.lost.length) problems.push(`${found.lost.length} acknowledged items lost`);
        if (found.duplicates.length) problems.push(`duplicated items ${found.duplicates.slice(0, 5).join(', ')}`);
        if (found.partial.length) problems.push(`partial submissions ${found.partial.join(', ')}`);
        if (found.unacknowledgedPresent) problems.push(`${found.unacknowledgedPresent} refused submissions were stored anyway`);

        console.log(
          `read-only file (chattr +i on the database and its WAL): writes ${JSON.stringify(tally(during.map((b) => b.answer)))}; refusal ${refused?.answer.status} ${refused?.answer.body?.error?.code}; ` +
            `log: "${log?.msg}" code ${log?.err?.code} (${log?.err?.message}); reads while read-only ${readable.length} items; ` +
            `after chattr -i ${JSON.stringify(tally(after.map((b) => b.answer)))}; integrity_check ${integrity}; ` +
            `acknowledged items ${found.acknowledgedItems}, found ${found.found}, lost ${found.lost.length}, duplicates ${found.duplicates.length}`,
        );
        expect(problems).toEqual([]);
      } finally {
        chattr('-i', locked);
        await server?.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
