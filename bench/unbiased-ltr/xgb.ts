/** XGBoost on the same clicks and features (bench/unbiased-ltr/xgb_clicks.py through Debian's python3). */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, PYTHON } from '../ranker/common.js';
import type { Collapsed } from './simulate.js';
import type { World } from './world.js';

export const XGB_PARAMS = { rounds: 100, eta: 0.1, maxDepth: 6 };

/** Trains one model per entry of `weights` (click weight per position, 1-based order) and returns each one's scores per sample row. */
export function xgbOnClicks(world: World, log: Collapsed, weights: Record<string, number[]>, seed: number): Record<string, Float64Array> {
  const dir = benchDir(`unbiased-ltr-${process.pid}`);
  const { data } = world;
  writeFileSync(join(dir, 'features.f32'), Buffer.from(data.features.buffer, data.features.byteOffset, data.features.byteLength));
  const rows = new Int32Array(log.row.length * 2);
  const counts = new Float64Array(log.row.length * 2);
  log.row.forEach((r, j) => {
    rows[2 * j] = r;
    rows[2 * j + 1] = log.position[j]!;
    counts[2 * j] = log.impressions[j]!;
    counts[2 * j + 1] = log.clicks[j]!;
  });
  writeFileSync(join(dir, 'rows.i32'), Buffer.from(rows.buffer));
  writeFileSync(join(dir, 'counts.f64'), Buffer.from(counts.buffer));
  writeFileSync(join(dir, 'weights.json'), JSON.stringify(weights));
  const script = new URL('./xgb_clicks.py', import.meta.url).pathname;
  const p = XGB_PARAMS;
  const args = [
    script,
    dir,
    String(data.numRows),
    String(data.numFeatures),
    String(p.rounds),
    String(p.eta),
    String(p.maxDepth),
    String(seed),
  ];
  execFileSync(PYTHON, args, { encoding: 'utf8' });
  const out: Record<string, Float64Array> = {};
  for (const name of Object.keys(weights)) {
    const buf = readFileSync(join(dir, `${name}.f32`));
    out[name] = Float64Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4));
  }
  return out;
}
