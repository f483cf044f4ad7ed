/* global process, console, setTimeout, URL, performance */
/**
 * How long `npm start` takes to a listening server: runs it `runs` times on one temporary SQLite file
 * (the first run builds whatever is stale; the next ones find everything built), and prints for each
 * the wall time from the spawn to the "listening" line and the CPU time its processes used by then
 * (on a shared machine the CPU time is the steadier figure). Linux only (reads /proc).
 *
 *   node scripts/measure-start.mjs [runs]     # default 3
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const TICKS_PER_SECOND = 100;

/** CPU seconds of every live process of a process group, with the children each has reaped. */
function groupCpuSeconds(groupId) {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state is field 3, pgrp 5, utime 14 … cstime 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== groupId) continue;
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

function startOnce(databaseFile) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: REPO,
      detached: true,
      env: { ...process.env, PORT: '0', DATABASE_URL: `sqlite://${databaseFile}`, LOG_FORMAT: 'json' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let listening = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (listening || !/searchloop listening/.test(output)) return;
      listening = true;
      const seconds = (performance.now() - started) / 1000;
      const cpu = groupCpuSeconds(child.pid);
      child.once('exit', () => resolve({ seconds, cpu, built: (output.match(/^\w+: building/gm) ?? []).length }));
      process.kill(-child.pid, 'SIGTERM');
    });
    child.once('exit', (code) => {
      if (!listening) reject(new Error(`npm start exited with ${code} before listening:\n${output}`));
    });
  });
}

const runs = Number(process.argv[2] ?? 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'searchloop-start-'));
try {
  console.log(
    `${new Date().toISOString()} ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`,
  );
  for (let i = 1; i <= runs; i += 1) {
    const run = await startOnce(path.join(dir, 'start.db'));
    console.log(
      `run ${i}: ${run.seconds.toFixed(1)} s to listening, ${run.cpu.toFixed(1)} s of CPU, ${run.built} targets built, load ${os.loadavg()[0].toFixed(1)}`,
    );
    await new Promise((r) => setTimeout(r, 500));
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
