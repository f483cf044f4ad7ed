/**
 * The cost figure: one evaluation over 1 000 000 logged sessions (goal: under 30 s on this machine),
 * split into its phases. The simulation that makes the log is not part of it.
 */
import { loadavg } from 'node:os';
import type * as Library from './library.js';
import { simulateLog, type LogArm } from './logs.js';
import { Report, seconds, thousands } from './report.js';
import type { UserModel } from './users.js';
import type { World } from './world.js';

export function timingRun(
  report: Report,
  lib: typeof Library,
  world: World,
  arms: readonly LogArm[],
  candidate: ReadonlyMap<string, readonly string[]>,
  sessions: number,
  users: UserModel,
  bootstrap: number,
): void {
  const rows: string[][] = [];
  // Wall clock and this process's CPU time: on a shared machine the second is the steadier figure.
  const time = <T>(phase: string, run: () => T): { value: T; ms: number; cpuMs: number } => {
    const t = Date.now();
    const cpu = process.cpuUsage();
    const value = run();
    const ms = Date.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    rows.push([phase, seconds(ms), seconds(cpuMs), '']);
    return { value, ms, cpuMs };
  };
  const log = time('simulate the log (not part of an evaluation)', () =>
    simulateLog(world, { sessions, users, arms, exploration: 0, seed: 5 }),
  );
  const harvest = time(`harvest propensities (${bootstrap} bootstrap replicates)`, () => lib.harvest(log.value, bootstrap));
  const propensities = harvest.value.positions.map((p) => p.estimate);
  const snips = time(`evaluate one candidate, snips, 4 metrics, ${bootstrap} replicates`, () =>
    lib.libraryEstimate(log.value, candidate, 'snips', propensities, null, bootstrap),
  );
  const models = time('fit PBM and DBN click models', () => lib.fitModels(log.value));
  const dr = time(`evaluate one candidate, dr, 4 metrics, ${bootstrap} replicates`, () =>
    lib.libraryEstimate(log.value, candidate, 'dr', propensities, models.value, bootstrap),
  );
  const snipsTotal = harvest.ms + snips.ms;
  const drTotal = harvest.ms + models.ms + dr.ms;
  const snipsCpu = harvest.cpuMs + snips.cpuMs;
  const drCpu = harvest.cpuMs + models.cpuMs + dr.cpuMs;
  const verdict = (ms: number): string => (ms < 30_000 ? 'goal < 30 s: met' : 'goal < 30 s: NOT met');
  rows.push(['total, snips (harvest + evaluate)', seconds(snipsTotal), seconds(snipsCpu), verdict(snipsTotal)]);
  rows.push(['total, dr (harvest + fit + evaluate)', seconds(drTotal), seconds(drCpu), verdict(drTotal)]);
  rows.push(['peak RSS (whole process)', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`, '', '']);
  report.print(`## Cost: one evaluation over ${thousands(sessions)} logged sessions (PBM users, no exploration)`);
  report.print();
  report.print(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} (2 cores).`,
  );
  report.print();
  report.table(['phase', ' wall s', ' CPU s', 'note'], rows);
}
