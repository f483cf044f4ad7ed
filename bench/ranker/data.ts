import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32, shuffleInPlace } from '../../src/random/index.js';
import { benchDir } from './common.js';

const SAMPLE = fileURLToPath(new URL('../../test/fixtures/ltr', import.meta.url));

/**
 * LightGBM's lambdarank sample split by query (seeded): `fraction` of the queries held out,
 * written as LETOR text so XGBoost reads exactly the same rows. Same split as ltr.ts.
 */
export function sampleSplit(seed: number, fraction = 0.2): { trainFile: string; testFile: string } {
  const lines = readFileSync(join(SAMPLE, 'rank.train'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const sizes = readFileSync(join(SAMPLE, 'rank.train.query'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number);
  const queries: string[][] = [];
  let at = 0;
  sizes.forEach((n, q) => {
    queries.push(lines.slice(at, at + n).map((l) => l.replace(/^(\S+)/, `$1 qid:${q + 1}`)));
    at += n;
  });
  return writeSplit(queries, seed, fraction, 'ltr');
}

/** Split LETOR text files by query with the bench's seeded shuffle (used for the tuning split too). */
export function writeSplit(queries: string[][], seed: number, fraction: number, name: string): { trainFile: string; testFile: string } {
  const order = shuffleInPlace(Array.from(queries.keys()), mulberry32(seed));
  const nTest = Math.round(queries.length * fraction);
  const testQ = order.slice(0, nTest).sort((a, b) => a - b);
  const trainQ = order.slice(nTest).sort((a, b) => a - b);
  const dir = benchDir(name);
  const trainFile = join(dir, `train-${seed}-${fraction}.letor`);
  const testFile = join(dir, `test-${seed}-${fraction}.letor`);
  writeFileSync(trainFile, trainQ.flatMap((q) => queries[q]!).join('\n') + '\n');
  writeFileSync(testFile, testQ.flatMap((q) => queries[q]!).join('\n') + '\n');
  return { trainFile, testFile };
}

/**
 * The scale set: rows × features synthetic LETOR, graded relevance from a hidden nonlinear
 * function of 10 features plus noise; the last fifth of the features are sparse (absent 70%
 * of the time) so the missing-value path is exercised. Written once per shape and seed.
 */
export function scaleFile(rows: number, queries: number, features: number, seed: number): string {
  const path = join(benchDir('scale'), `synthetic-${rows}x${features}-${queries}q-seed${seed}.letor`);
  if (existsSync(path)) return path;
  const rng = mulberry32(seed);
  const perQuery = rows / queries;
  const out: string[] = [];
  for (let q = 0; q < queries; q++) {
    const qShift = rng() - 0.5;
    for (let d = 0; d < perQuery; d++) {
      const x = Array.from({ length: features }, () => rng());
      const latent =
        2 * x[0]! + x[1]! * x[2]! * 3 - x[3]! + (x[4]! > 0.7 ? 1 : 0) + Math.sin(6 * x[5]!) + x[6]! * x[7]! + qShift + (rng() - 0.5) * 1.2;
      const label = Math.max(0, Math.min(4, Math.floor(latent * 1.3)));
      const parts = [String(label), `qid:${q + 1}`];
      x.forEach((v, j) => {
        if (j >= features * 0.8 && rng() < 0.7) return;
        parts.push(`${j + 1}:${v.toFixed(4)}`);
      });
      out.push(parts.join(' '));
    }
  }
  writeFileSync(path, out.join('\n') + '\n');
  return path;
}
