/**
 * One case of the HTTP rank bench: its maximum (closed loop, CONNECTIONS connections), then open
 * loop at fixed shares of that maximum (evenly spaced, bench/support/paced.ts), each run by a load generator
 * in its own process; and the mixed case, two loads at once on one server.
 */
import { loadAverage, runLoad, type LoadResult } from '../support/load.js';
import { waitQuiet, type ServerProcess } from '../support/processes.js';

export const DURATION = Number(process.env.DURATION ?? 10);
export const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
/** The open-loop rates, as shares of the case's measured maximum. */
export const SHARES = [0.1, 0.25, 0.5, 0.75];

export interface Point {
  /** 'max' for the closed-loop run, else the share of the maximum offered open loop. */
  share: number | 'max';
  offered?: number;
  result: LoadResult;
  load: string;
}
export interface Sweep {
  name: string;
  db: string;
  points: Point[];
}

const say = (text: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${text}\n`);
const fmt = (r: LoadResult) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms`;

export async function sweep(name: string, db: string, server: ServerProcess, path: string, body: string): Promise<Sweep> {
  const url = server.url + path;
  await runLoad({ url, connections: CONNECTIONS, durationSeconds: 2, body }); // warm-up: JIT, caches, connections
  const max = await runLoad({ url, connections: CONNECTIONS, durationSeconds: DURATION, body });
  const points: Point[] = [{ share: 'max', result: max, load: loadAverage() }];
  say(`${name}, ${db}: max ${fmt(max)}`);
  for (const share of SHARES) {
    await waitQuiet(server.child.pid!, 15);
    const offered = max.rps * share;
    const result = await runLoad({ url, connections: CONNECTIONS, durationSeconds: DURATION, body, overallRate: offered });
    points.push({ share, offered, result, load: loadAverage() });
    say(`${name}, ${db}: ${share * 100} % (${offered.toFixed(0)} req/s offered): ${fmt(result)}`);
  }
  await waitQuiet(server.child.pid!, 15);
  return { name, db, points };
}

export interface Mixed {
  name: string;
  db: string;
  offered: number;
  result: LoadResult;
  ingestOffered: number;
  ingest: LoadResult;
  load: string;
}

/** `path` open loop at `rate` while single-item ingestion runs open loop at `ingestRate` on the same server. */
export async function mixed(
  name: string,
  db: string,
  server: ServerProcess,
  load: { path: string; body: string; rate: number },
  ingestion: { path: string; body: string; rate: number },
): Promise<Mixed> {
  await waitQuiet(server.child.pid!, 15);
  const run = (l: { path: string; body: string; rate: number }) =>
    runLoad({ url: server.url + l.path, connections: CONNECTIONS, durationSeconds: DURATION, body: l.body, overallRate: l.rate });
  const [result, ingest] = await Promise.all([run(load), run(ingestion)]);
  say(`${name}, ${db} (with ingestion at ${ingestion.rate.toFixed(0)} req/s: ${fmt(ingest)}): ${fmt(result)}`);
  await waitQuiet(server.child.pid!, 30);
  return { name, db, offered: load.rate, result, ingestOffered: ingestion.rate, ingest, load: loadAverage() };
}

/** The point at half the maximum. */
export const atHalf = (s: Sweep): Point => s.points.find((p) => p.share === 0.5)!;
export const maxOf = (s: Sweep): LoadResult => s.points[0]!.result;
