/**
 * bench/ingest soak: measures the single-item maximum for 10 s, then holds 80 % of it for
 * SOAK_MINUTES (default 10) in one-minute slices, printing each slice's p99 and the server's
 * resident memory, so a drift in either shows.
 *
 *   npm run bench:soak        (SOAK_MINUTES=10 DATABASE=sqlite|postgres)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { machineLine, startProcess } from '../support/processes.js';
import { feedbackBody } from './bodies.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const ROOT = path.resolve(import.meta.dirname, '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-soak-'));
const server = await startProcess(
  process.execPath,
  [path.join(ROOT, 'dist/cli/cli.js'), 'serve'],
  { LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', DATABASE_URL: `sqlite://${tmp}/soak.db` },
  3410,
);
const url = `${server.url}/api/cortex/feedback`;
const body = feedbackBody(1);
const rssMb = () => {
  const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};
const run = (seconds: number, rate?: number) =>
  autocannon({
    url,
    method: 'POST',
    connections: 64,
    duration: seconds,
    headers: { 'content-type': 'application/json' },
    body,
    idReplacement: true,
    ...(rate ? { overallRate: rate } : {}),
  });

const max = await run(10);
const rate = Math.floor(max.requests.average * 0.8);
console.log(`\nbench/ingest soak — ${new Date().toISOString().slice(0, 10)} — ${machineLine()}`);
console.log(
  `SQLite, single-item submissions; measured maximum ${max.requests.average.toFixed(0)} req/s, soak at ${rate} req/s for ${MINUTES} min\n`,
);
console.log('| minute | req/s | p50 ms | p99 ms | non-2xx | server RSS MB |');
console.log('|---:|---:|---:|---:|---:|---:|');
console.log(`| start | | | | | ${rssMb().toFixed(0)} |`);
for (let minute = 1; minute <= MINUTES; minute += 1) {
  const r = await run(60, rate);
  console.log(
    `| ${minute} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} | ${rssMb().toFixed(0)} |`,
  );
}
await server.stop();
fs.rmSync(tmp, { recursive: true, force: true });
