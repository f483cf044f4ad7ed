import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';
import { cliCommand } from '../support/service-process.js';

/** `searchloop demo` without --url: it starts the service itself, on its own SQLite file, and stops it with --exit. */
describe('searchloop demo (starting its own service)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-demo-cli-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints the dashboard URL first, runs on its own SQLite file, writes its figures and exits', async () => {
    const port = await freePort();
    const database = path.join(dir, 'demo.db');
    const json = path.join(dir, 'summary.json');
    const args = ['demo', '--port', String(port), '--database', database, '--json', json, '--exit'];
    const settings = ['--seed', '3', '--rate', '20', '--duration', '12', '--warmup', '100000', '--queries', '10'];
    const [command, cliArgs] = cliCommand('source', ...args, ...settings);
    const child = spawn(command, cliArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += String(chunk)));
    child.stderr.on('data', (chunk) => (out += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, out).toBe(0);
    expect(out.split('\n')[0]).toBe(`Dashboard: http://127.0.0.1:${port}/`);
    // Up front: where its simulated data goes, and how to start over.
    expect(out.split('\n')[1]).toBe(
      `The demo starts a service of its own on ${database} and writes its simulated data there (kept between runs).`,
    );
    expect(out.split('\n')[2]).toMatch(/^To start over: `searchloop demo --fresh`/);
    expect(fs.existsSync(database)).toBe(true);
    const summary = JSON.parse(fs.readFileSync(json, 'utf8'));
    // 240 asked (20/s for 12 s); a 2-core machine under other load sustains about half (132 at load average 16).
    expect(summary.sessions).toBeGreaterThan(60);
    expect(summary).toMatchObject({ throttled: 0, failedRequests: 0, seed: 3 });
    // Only the warm-up ran (--warmup is larger than the run): no models were trained.
    expect(summary.phases.map((p: { name: string }) => p.name)).toEqual(['warming up']);
    // The service it started is gone.
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      () => 'up',
      () => 'down',
    );
    expect(answer).toBe('down');
  }, 90_000);
});
