/* eslint-disable no-control-regex -- the erase-line sequence (ESC [K) a terminal gets is what these tests check */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportProgress, formatDuration } from '../../src/cli/import-progress.js';
import { createTestDatabase, describeOnEveryDatabase, type TestDatabase } from '../support/test-database.js';
import { cliCommand } from '../support/service-process.js';

const REPO = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-progress-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A stream that records what is written; a terminal of `columns` when `tty`. */
function stream(tty: boolean, columns?: number) {
  const writes: string[] = [];
  return { writes, isTTY: tty, ...(columns ? { columns } : {}), write: (t: string) => void writes.push(t) };
}
const totals = (imported: number, duplicates = 0, rejected = 0) => ({ imported, duplicates, rejected });

describe('import progress renderer', () => {
  it('on a terminal: a bar redrawn in place with the share done, items/s and the ETA, cut to the width', () => {
    let now = 1_000_000;
    const out = stream(true, 120);
    const progress = new ImportProgress(4000, out, { now: () => now });
    now += 2000;
    progress.update(1000, totals(5000, 1000, 2));
    // 6000 items in 2 s; a quarter of the bytes in 2 s leaves 6 s; the bar gets the 40 cells the text leaves.
    expect(out.writes).toEqual([
      `\r[${'#'.repeat(10)}${'.'.repeat(30)}] 25.0% 3,000 items/s ETA 6s · 5000 imported, 1000 duplicates, 2 rejected\x1b[K`,
    ]);
    now += 100; // inside the 200 ms interval: not redrawn
    progress.update(1500, totals(7000));
    expect(out.writes).toHaveLength(1);
    now += 200;
    progress.update(3000, totals(18_000));
    expect(out.writes[1]).toMatch(/^\r\[#+\.+\] 75\.0% 7,826 items\/s ETA 1s/);
    now += 700;
    progress.update(4000, totals(24_000), true);
    const last = out.writes.at(-1)!;
    expect(last).toMatch(/^\r\[#{10,40}\] 100\.0% 8,000 items\/s · 24000 imported, 0 duplicates, 0 rejected\x1b\[K\n$/);
    expect(last).not.toContain('ETA');
  });

  it('on a narrow terminal the bar shrinks to 10 cells and the line is cut before the last column', () => {
    let now = 0;
    const out = stream(true, 60);
    const progress = new ImportProgress(4000, out, { now: () => now });
    now = 2000;
    progress.update(1000, totals(5000, 1000, 2));
    expect(out.writes).toEqual([`\r[###.......] 25.0% 3,000 items/s ETA 6s · 5000 imported, 10\x1b[K`]);
    expect(out.writes[0]!.length - '\r\x1b[K'.length).toBe(59);
  });

  it('on a terminal, without a known size (stdin): counts and items/s, no bar and no ETA', () => {
    let now = 0;
    const out = stream(true);
    const progress = new ImportProgress(undefined, out, { now: () => now });
    now = 4000;
    progress.update(123, totals(2000));
    expect(out.writes).toEqual(['\r500 items/s · 2000 imported, 0 duplicates, 0 rejected\x1b[K']);
  });

  it('not on a terminal: a plain line every 5 s with the share, items/s and ETA, and a last one', () => {
    let now = 0;
    const out = stream(false);
    const progress = new ImportProgress(1000, out, { now: () => now });
    now = 1000;
    progress.update(100, totals(100)); // the first line comes at once
    now = 3000;
    progress.update(300, totals(300)); // within 5 s of it: nothing
    now = 6000;
    progress.update(600, totals(600, 0, 1));
    now = 8000;
    progress.update(1000, totals(800, 0, 1), true);
    expect(out.writes).toEqual([
      'import: 10.0% 100 imported, 0 duplicates, 0 rejected, 100 items/s ETA 9s\n',
      'import: 60.0% 600 imported, 0 duplicates, 1 rejected, 100 items/s ETA 4s\n',
      'import: 100.0% 800 imported, 0 duplicates, 1 rejected, 100 items/s\n',
    ]);
    expect(out.writes.join('')).not.toMatch(/\r|\x1b/);
  });

  it('formats durations for the ETA', () => {
    expect([formatDuration(0.4), formatDuration(59), formatDuration(75), formatDuration(3725)]).toEqual(['0s', '59s', '1m15s', '1h02m']);
  });
});

/** 3000 lines (new items in each file), committed 100 at a time so the bar moves 30 times (SEARCHLOOP_PROGRESS_MS=0 redraws on every batch). */
function feedbackFile(name: string): string {
  const lines = Array.from({ length: 3000 }, (_, i) =>
    JSON.stringify({
      sessionId: `${name}-${i % 7}`,
      feedback: [{ queryId: `q-${i}`, metadata: { userAction: 'impression', resultId: `d-${i}`, timestamp: '2026-10-01T08:00:00Z' } }],
    }),
  );
  const p = path.join(dir, name);
  fs.writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describeOnEveryDatabase('searchloop import progress', (kind) => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    env = {
      PATH: process.env.PATH ?? '',
      SEARCHLOOP_PROGRESS_MS: '0',
      ...(db.target.kind === 'sqlite'
        ? { DATABASE_URL: `sqlite:${db.target.path}` }
        : { DATABASE_URL: db.target.url, DATABASE_SCHEMA: db.target.schema }),
    };
  });
  afterAll(() => db.drop());

  it(
    'under a pseudo-terminal (script(1)) draws the bar in place with items/s and the ETA, within the width',
    { timeout: 120_000 },
    async () => {
      const input = feedbackFile(`tty-${kind}.ndjson`);
      const cli = `stty cols 90 rows 24; exec node --import tsx src/cli/cli.ts import '${input}' --batch 100`;
      const { code, output } = await run('script', ['-qfec', cli, '/dev/null'], env);
      expect(code).toBe(0);
      const redraws = output.split('\r').filter((r) => r.startsWith('['));
      expect(redraws.length).toBeGreaterThanOrEqual(10);
      const moving = redraws.filter((r) =>
        /^\[[#.]+\] \d+\.\d% [\d,]+ items\/s ETA \d+(s|m\d\ds) · \d+ imported, 0 duplicates, 0 rejected\x1b\[K$/.test(r),
      );
      expect(moving.length).toBeGreaterThanOrEqual(10);
      expect(redraws.at(-1)).toMatch(/^\[#+\] 100\.0% [\d,]+ items\/s · 3000 imported, 0 duplicates, 0 rejected\x1b\[K$/);
      for (const r of redraws) expect(r.replace(/\x1b\[K[\s\S]*$/, '').length).toBeLessThan(90);
      expect(output).toContain('imported 3000 items, skipped 0 duplicates, rejected 0 lines');
    },
  );

  it('not on a terminal (a pipe) writes plain lines with items/s and the ETA, no carriage returns', { timeout: 120_000 }, async () => {
    const input = feedbackFile(`pipe-${kind}.ndjson`);
    const { code, output } = await run(...cliCommand('source', 'import', input, '--batch', '100'), env);
    expect(code).toBe(0);
    expect(output).not.toMatch(/\r|\x1b/);
    const lines = output.split('\n').filter((l) => l.startsWith('import: '));
    expect(lines.length).toBeGreaterThanOrEqual(10);
    expect(
      lines.filter((l) => /^import: \d+\.\d% \d+ imported, 0 duplicates, 0 rejected, [\d,]+ items\/s ETA \d+(s|m\d\ds)$/.test(l)).length,
    ).toBeGreaterThanOrEqual(9);
    expect(lines.at(-1)).toMatch(/^import: 100\.0% 3000 imported, 0 duplicates, 0 rejected, [\d,]+ items\/s$/);
    expect(output).toContain('imported 3000 items, skipped 0 duplicates, rejected 0 lines');
  });
});
