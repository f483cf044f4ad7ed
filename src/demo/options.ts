import { parseArgs } from 'node:util';
import { defaultSpeed } from './world/sim-clock.js';

export interface DemoOptions {
  url?: string;
  key?: string;
  seed: number;
  days: number;
  speed: number;
  /** Sessions per second. */
  rate: number;
  /** Seconds of traffic; 0 = until interrupted. */
  duration: number;
  /** Sessions of engine-order traffic before the models are trained. */
  warmup: number;
  port: number;
  database: string;
  queries: number;
  /** Exit when the run ends instead of keeping the started service up for the dashboard. */
  exit: boolean;
  /** Start its own service on an emptied `database`, even when a service answers at `port`. */
  fresh: boolean;
  /** Conclude the A/B test at the end and ship the ranker when it won (the `production` alias moves). */
  ship: boolean;
  json?: string;
  help: boolean;
}

export const DEMO_HELP = `searchloop demo — a simulated search site that runs the whole loop through the public API

Usage: searchloop demo [options]

  --url <url>        drive the service at this address (e.g. https://search-feedback.example.com)
                     without it: drive the service answering at 127.0.0.1:<port> (npm start), or
                     start one on <database> when nothing answers there
                     (either way the demo writes simulated feedback, models and experiments
                     into that service's database)
  --fresh            start over: empty <database> and start a service of the demo's own on it,
                     on the next free port when one already answers at <port>
  --ship             at the end, conclude the A/B test: ship the ranker when it won (the
                     "production" alias moves to it), else say why nothing ships
  --key <key>        API key (admin scope) for a service that requires keys
  --seed <n>         seed of the world and its users (default 42)
  --rate <n>         sessions per second (default 30)
  --duration <s>     seconds of traffic, 0 = until Ctrl-C (default 180)
  --days <n>         days of event time the run spreads over (default 7)
  --speed <x>        event-time compression (default: days spread over the duration)
  --warmup <n>       sessions in the engine's order before training (default 1200)
  --queries <n>      queries in the catalogue (default 80)
  --port <n>         port of the service the demo starts (default 3000)
  --database <file>  its SQLite file (default ./data/demo.db)
  --exit             stop a service the demo started when the run ends (default: keep serving the dashboard)
  --json <file>      write the run's figures as JSON
`;

function number(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number in [${min}, ${max}], got "${value}"`);
  return n;
}

export function parseDemoOptions(argv: string[]): DemoOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      seed: { type: 'string' },
      days: { type: 'string' },
      speed: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      queries: { type: 'string' },
      port: { type: 'string' },
      database: { type: 'string' },
      exit: { type: 'boolean' },
      fresh: { type: 'boolean' },
      ship: { type: 'boolean' },
      json: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.fresh && values.url) throw new Error('--fresh starts a service of its own on --database: it cannot be combined with --url');
  const duration = number(values.duration, 'duration', 180, 0, 31_536_000);
  const days = number(values.days, 'days', 7, 0, 365);
  return {
    url: values.url,
    key: values.key,
    seed: Math.floor(number(values.seed, 'seed', 42, 0, 2 ** 31 - 1)),
    days,
    speed: number(values.speed, 'speed', defaultSpeed(days, duration || 180), 0.001, 1e7),
    rate: number(values.rate, 'rate', 30, 0.1, 10_000),
    duration,
    warmup: Math.floor(number(values.warmup, 'warmup', 1200, 1, 10_000_000)),
    queries: Math.floor(number(values.queries, 'queries', 80, 1, 10_000)),
    port: Math.floor(number(values.port, 'port', 3000, 1, 65_535)),
    database: values.database ?? 'data/demo.db',
    exit: values.exit ?? false,
    fresh: values.fresh ?? false,
    ship: values.ship ?? false,
    json: values.json,
    help: values.help ?? false,
  };
}
