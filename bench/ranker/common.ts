import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's interpreter: the one with xgboost 1.7.4 (the `python3` on PATH is pyenv's). */
export const PYTHON = '/usr/bin/python3';
export const HERE = dirname(fileURLToPath(import.meta.url));

export interface XgbRun {
  seconds: number;
  /** CPU time of the training call, all threads. */
  cpuSeconds: number;
  /** Peak RSS up to the end of training (data loaded + DMatrix + training). */
  peakRssMb: number;
  /** Peak RSS once the LETOR file is parsed, before the DMatrix and training. */
  loadedRssMb: number;
  predictions: number[][];
  version: string;
}

/** Train with bench/ranker/xgb_ltr.py; predictions[0] is the train file, then each extra file. */
export function runXgboost(
  objective: string,
  trainFile: string,
  predictFiles: string[],
  opts: { rounds: number; eta: number; leaves: number; nthread?: number; seed?: number },
): XgbRun {
  const args = [
    join(HERE, 'xgb_ltr.py'),
    objective,
    trainFile,
    String(opts.rounds),
    String(opts.eta),
    String(opts.leaves),
    ...predictFiles,
  ];
  const env = {
    ...process.env,
    ...(opts.nthread ? { XGB_NTHREAD: String(opts.nthread) } : {}),
    ...(opts.seed ? { XGB_SEED: String(opts.seed) } : {}),
  };
  const out = execFileSync(PYTHON, args, { env, maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(out) as XgbRun;
}

export function benchDir(name: string): string {
  const dir = join(tmpdir(), 'searchloop-ranker-bench', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function printTable(headers: string[], rows: Array<Array<string | number>>): void {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(headers));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of cells) console.log(line(r));
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(1) : x.toFixed(4);
}

export const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;
