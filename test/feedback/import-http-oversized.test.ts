import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runImportCommand } from '../../src/cli/import-command.js';
import { loadConfig } from '../../src/config.js';
import { cliCommand } from '../support/service-process.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BODY_LIMIT = 1_500_000;
const submission = (i: number, note = '') =>
  JSON.stringify({
    sessionId: 'big-s',
    feedback: [
      {
        queryId: `q-${i}`,
        metadata: {
          userAction: 'impression',
          resultId: `d-${i}`,
          timestamp: '2026-10-04T08:00:00Z',
          ...(note ? { customMetadata: { note } } : {}),
        },
      },
    ],
  });

/**
 * 30 lines: line 12 is larger than the service's body limit on its own (413 for any batch that
 * holds it), line 25 fits a request but is longer than a line may be (400 on /lines/<i>/text).
 * The other 28 are one feedback item each.
 */
function fileWithOversizedLines(): string {
  const lines = Array.from({ length: 30 }, (_, k) => {
    const i = k + 1;
    if (i === 12) return submission(i, 'x'.repeat(BODY_LIMIT + 100_000));
    if (i === 25) return submission(i, 'y'.repeat(1_100_000));
    return submission(i);
  });
  return `${lines.join('\n')}\n`;
}

const quiet = () => {
  const out: string[] = [];
  return { out, io: { out: (t: string) => void out.push(t), err: () => {}, tty: false } };
};

describeOnEveryDatabase('searchloop import --url with lines the service refuses', (kind) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-import-big-'));
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp(kind, { bodyLimitBytes: BODY_LIMIT });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  // --url never reads the service's configuration.
  const config = () => loadConfig({});
  const stored = async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/api/cortex/feedback?sessionId=big-s&limit=100' })).json().data;
    return page.items.length as number;
  };

  it('rejects the oversized lines with their reasons, imports the rest, and a rerun stores nothing twice', async () => {
    const input = path.join(dir, `big-${kind}.ndjson`);
    fs.writeFileSync(input, fileWithOversizedLines());
    const first = quiet();
    expect(await runImportCommand([input, '--url', url, '--batch', '10'], config, first.io)).toBe(1);
    expect(first.out.join('')).toBe(`imported 28 items, skipped 0 duplicates, rejected 2 lines (see ${input}.rejects.ndjson)\n`);
    const rejects = () =>
      fs
        .readFileSync(`${input}.rejects.ndjson`, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; reason: string });
    const [big, long] = rejects();
    expect(rejects()).toHaveLength(2);
    expect(big!.line).toBe(12);
    expect(big!.reason).toMatch(
      /^1\d{6} bytes: too large for one request to the service \(413 request body is larger than the configured limit\)$/,
    );
    expect(long!.line).toBe(25);
    expect(long!.reason).toMatch(/^\/lines\/\d+\/text must NOT have more than 1000000 characters \(400 /);
    expect(await stored()).toBe(28);
    // Finished: no saved position is left for a rerun to resume from.
    expect(fs.existsSync(`${input}.import-state.json`)).toBe(false);

    const again = quiet();
    expect(await runImportCommand([input, '--url', url, '--batch', '7'], config, again.io)).toBe(1);
    expect(again.out.join('')).toBe(`imported 0 items, skipped 28 duplicates, rejected 2 lines (see ${input}.rejects.ndjson)\n`);
    expect(rejects().map((r) => r.line)).toEqual([12, 25]);
    expect(await stored()).toBe(28);
  });
});

it(
  'over HTTP, resumes after being killed: the rejected line stays rejected once, every other line is stored once',
  { timeout: 180_000 },
  async () => {
    const t = await buildTestApp('sqlite', { bodyLimitBytes: BODY_LIMIT });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-import-resume-'));
    try {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      // 10 000 lines, line 12 too large for a request.
      const lines = Array.from({ length: 10_000 }, (_, k) =>
        k + 1 === 12 ? submission(12, 'x'.repeat(BODY_LIMIT + 1000)) : submission(k + 1),
      );
      const input = path.join(dir, 'resume.ndjson');
      fs.writeFileSync(input, `${lines.join('\n')}\n`);
      const child = spawn(...cliCommand('source', 'import', input, '--url', url, '--batch', '100'), { stdio: 'ignore' });
      let finished = false;
      const exited = new Promise((r) => child.on('exit', r)).then(() => (finished = true));
      const state = `${input}.import-state.json`;
      const savedLine = () => (fs.existsSync(state) ? (JSON.parse(fs.readFileSync(state, 'utf8')) as { line: number }).line : 0);
      while (savedLine() < 1000 && !finished) await new Promise((r) => setTimeout(r, 20));
      expect(finished, 'the import ended before it could be killed').toBe(false);
      child.kill('SIGKILL');
      await exited;
      const killedAt = savedLine();
      expect(killedAt).toBeLessThan(10_000);

      const run = quiet();
      expect(await runImportCommand([input, '--url', url, '--batch', '100'], () => loadConfig({}), run.io)).toBe(1);
      const report = /^imported (\d+) items, skipped (\d+) duplicates, rejected 1 lines/.exec(run.out.join(''));
      expect(report).not.toBeNull();
      // A batch committed just before the kill, past the saved position, is read again: duplicates, not copies.
      expect(Number(report![1]) + Number(report![2])).toBe(9999);
      expect(Number(report![2])).toBeLessThanOrEqual(100);
      const rejects = fs.readFileSync(`${input}.rejects.ndjson`, 'utf8').trim().split('\n');
      expect(rejects.map((l) => (JSON.parse(l) as { line: number }).line)).toEqual([12]);
      const count = await t.database.db
        .selectFrom('feedback_items')
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(9999);
      expect(fs.existsSync(state)).toBe(false);
    } finally {
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
