/**
 * bench/rank/bare: the machine's own floor for goal 1 of issue 28 (p99 < 5 ms at half of each
 * endpoint's maximum). The two bare Fastify routes that bench:rank and bench:throughput compare
 * Searchloop against (rank: parse the 100 × 40 body and answer its list in order; assign: parse
 * the body and answer a constant of assign's size), with no database, no hashing and no ranking,
 * swept exactly as bench:rank sweeps Searchloop: the maximum (closed loop), then open loop at
 * 10, 25, 50 and 75 % of it, the load generator in a process of its own. Searchloop does strictly
 * more work per request than these routes, so where their p99 passes 5 ms, so does its own.
 *
 *   npm run bench:bare     (DURATION=10 CONNECTIONS=64 OUT=<raw-output file, default bench/rank/last-run-bare.txt>)
 */
import path from 'node:path';
import { report } from '../support/report.js';
import { machineLine, startBenchServer } from '../support/processes.js';
import { ASSIGN_BODY } from '../support/experiments.js';
import { rankBody } from './bodies.js';
import { CONNECTIONS, DURATION, sweep, type Sweep } from './sweep.js';

const OUT = path.resolve(process.env.OUT ?? path.join(import.meta.dirname, 'last-run-bare.txt'));
const startedAt = new Date();
const rank = await startBenchServer('rank/ceiling-server.ts');
const assign = await startBenchServer('assign/ceiling-server.ts', { RESPONSE_BYTES: '300' });
const sweeps: Sweep[] = [];
try {
  sweeps.push(await sweep('bare rank route (100 × 40 body)', '—', rank, '/api/nous/rank', rankBody()));
  sweeps.push(await sweep('bare assign route', '—', assign, '/api/nous/ab-testing/assign', ASSIGN_BODY));
} finally {
  await rank.stop();
  await assign.stop();
}

const out = report(OUT);
out.log(`bench/rank/bare — ${startedAt.toISOString().slice(0, 16)}Z — ${machineLine()}`);
out.log(`${CONNECTIONS} connections, ${DURATION} s per run; open loop at shares of each route's own maximum\n`);
out.log('| route | load | offered req/s | achieved req/s | p50 ms | p99 ms | p99 under 5 ms |');
out.log('|---|---|---:|---:|---:|---:|---|');
for (const s of sweeps)
  for (const p of s.points) {
    const r = p.result;
    const load = p.share === 'max' ? 'max (closed loop)' : `${p.share * 100} % of max`;
    out.log(
      `| ${s.name} | ${load} | ${p.offered?.toFixed(0) ?? ''} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.p99 < 5 ? 'yes' : 'no'} |`,
    );
  }
out.save();
