import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attachQueryIds, parseLetor, train } from '../../ranker/index.js';
import { resolveThreads, trainThreaded } from './ranker-threads.js';

const DATA_DIR = fileURLToPath(new URL('../../../test/fixtures/ltr', import.meta.url));
const data = parseLetor(
  attachQueryIds(readFileSync(`${DATA_DIR}/rank.train`, 'utf8'), readFileSync(`${DATA_DIR}/rank.train.query`, 'utf8')),
);

describe('multi-threaded training (feature-parallel histograms in worker threads)', () => {
  it.each([
    { threads: 2, extra: {} },
    { threads: 3, extra: { featureFraction: 0.5, baggingFraction: 0.7, seed: 3, maxDepth: 5 } },
  ])('grows exactly the trees of single-threaded training ($threads threads)', ({ threads, extra }) => {
    const params = { objective: 'lambdarank' as const, numTrees: 15, ...extra };
    const single = train(data, params).model;
    const multi = trainThreaded(data, { ...params, threads }).model;
    expect(multi.trees.length).toBe(15);
    expect(multi.trees).toEqual(single.trees);
    expect(multi.params).toEqual(single.params);
    expect(multi.params).not.toHaveProperty('threads');
  });

  it('reuses its pooled workers: back-to-back trainings give the same trees as single-threaded ones', () => {
    const params = { objective: 'lambdarank' as const, numTrees: 8 };
    const single = train(data, params).model;
    for (let i = 0; i < 3; i++)
      expect(trainThreaded(data, { ...params, threads: 2, numTrees: 8 + i }).model.trees.slice(0, 8)).toEqual(single.trees);
  });

  it('reads 0 as every core and rejects negative or fractional counts', () => {
    expect(resolveThreads(0)).toBeGreaterThanOrEqual(1);
    expect(resolveThreads(3)).toBe(3);
    expect(() => resolveThreads(-1)).toThrow(RangeError);
    expect(() => resolveThreads(1.5)).toThrow(RangeError);
    expect(() => train(data, { objective: 'lambdarank', threads: 2 })).toThrow(/worker spawner/);
  });
});
