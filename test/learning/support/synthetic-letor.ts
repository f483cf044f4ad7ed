import { mulberry32 } from '../../../src/random/index.js';

/**
 * A seeded LETOR file whose labels (0–4) follow features 1–3 with noise and ignore 4–F, so a
 * ranker has something to learn and its feature importance something to find.
 */
export function syntheticLetor(opts: { queries: number; docsPerQuery: number; features: number; seed: number }): string {
  const rnd = mulberry32(opts.seed);
  const lines: string[] = [];
  for (let q = 1; q <= opts.queries; q += 1) {
    for (let d = 0; d < opts.docsPerQuery; d += 1) {
      const x = Array.from({ length: opts.features }, () => Math.round(rnd() * 1000) / 1000);
      const signal = 2 * (x[0] as number) + (x[1] as number) - 0.5 * (x[2] as number) + 0.3 * rnd();
      const label = Math.max(0, Math.min(4, Math.floor(signal * 1.6)));
      lines.push(`${label} qid:${q} ${x.map((v, j) => `${j + 1}:${v}`).join(' ')} # doc-${q}-${d}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
