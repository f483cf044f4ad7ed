import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { attachQueryIds } from '../../ranker/index.js';
import { PiscinaTrainingRunner } from './training-pool.js';

const DATA_DIR = fileURLToPath(new URL('../../../test/fixtures/ltr', import.meta.url));
const dataset = attachQueryIds(readFileSync(`${DATA_DIR}/rank.train`, 'utf8'), readFileSync(`${DATA_DIR}/rank.train.query`, 'utf8'));

describe('the training pool (piscina)', () => {
  // From source, the pool's threads load tsx, and a ranker on 2 threads starts a split worker from
  // inside one (common/worker-threads.ts): both bootstraps, one inside the other.
  it('trains a ranker on 2 threads in its worker thread', async () => {
    const runner = new PiscinaTrainingRunner(1);
    try {
      const output = await runner.run({
        settings: {
          kind: 'ranker',
          trainingData: 'dataset',
          missing: 'nan',
          minImpressions: 1,
          windowMs: 1e9,
          heldOutFraction: 0.2,
          replaceIfWorse: true,
          tree: { numTrees: 5, threads: 2 },
        },
        window: { start: 0, end: 1e12 },
        dataset,
      });
      expect(output.kind).toBe('trained');
    } finally {
      await runner.close();
    }
  });
});
