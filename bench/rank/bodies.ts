import { mulberry32 } from '../../src/random/index.js';

/** Features per result in every rank request and in the training data. */
export const FEATURES = 40;
/** Results per rank request. */
export const RESULTS = 100;

/** A LETOR training file: 400 queries × 25 documents; labels follow a few features so the trees are full-sized. */
export function letorDataset(seed = 42): string {
  const rnd = mulberry32(seed);
  const lines: string[] = [];
  for (let q = 1; q <= 400; q += 1) {
    for (let d = 0; d < 25; d += 1) {
      const x = Array.from({ length: FEATURES }, () => Math.round(rnd() * 1000) / 1000);
      const label = Math.max(0, Math.min(4, Math.floor((x[0]! * 2 + x[1]! + x[2]! * x[3]! + rnd() * 0.5) * 1.3)));
      lines.push(`${label} qid:${q} ${x.map((v, j) => `${j + 1}:${v}`).join(' ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A POST /api/nous/rank body: 100 results × 40 features (≈ 45 KB). `unitId` and `queryId` hold
 * the load generator's `[<id>]` (a fresh UUID per request), so every request is a new unit and query (a new exposure in an
 * experiment); pass `id` to fill them in for a single request.
 */
export function rankBody(id = '[<id>]', seed = 7): string {
  const rnd = mulberry32(seed);
  return JSON.stringify({
    unitId: `unit-${id}`,
    queryId: `query-${id}`,
    results: Array.from({ length: RESULTS }, (_, i) => ({
      resultId: `doc-${i}`,
      features: Object.fromEntries(Array.from({ length: FEATURES }, (_, j) => [String(j + 1), Math.round(rnd() * 1000) / 1000])),
    })),
  });
}
