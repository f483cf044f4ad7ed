import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../common/errors.js';
import type { QueryDetail } from '../analytics.service.js';
import { latestFeatures } from './logged-features.store.js';
import { SideBySideService, type RankerInput, type RankerPort } from './side-by-side.service.js';

const row = (resultId: string, relevance: number | null) => ({
  resultId,
  impressions: 10,
  clicks: 2,
  ctr: 0.2,
  meanPosition: 1,
  byPosition: [],
  relevance,
});

const DETAIL = {
  window: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-08T00:00:00.000Z' },
  dimension: null,
  value: null,
  dataFreshAsOf: null,
  interval: 'day',
  queryHash: 'shoes',
  queryText: 'running shoes',
  figures: {} as QueryDetail['figures'],
  series: [],
  histogram: [],
  positions: [],
  results: [row('a', 0.1), row('b', 0.9), row('c', null)],
  relevanceModel: { modelId: 'default', version: 1, reason: null },
} as QueryDetail;

/** A ranker that scores by the feature `x` (a dataset ranker when `required`), and `alias:prod` pointing at it. */
function service(options: {
  required: boolean;
  aliasTarget?: { modelId: string; version: number } | null;
  logged?: Record<string, Record<string, number>>;
}) {
  const seen: RankerInput[] = [];
  const rankers: RankerPort = {
    alias: async (alias) => {
      if (alias !== 'prod') throw new NotFoundError(`alias ${alias} not found`);
      return options.aliasTarget === undefined ? { modelId: 'r', version: 2 } : options.aliasTarget;
    },
    featureNeeds: async (modelId, version) => {
      if (modelId === 'clicks') return { version: 1, type: 'click_model', features: [], required: false };
      return { version: version ?? 2, type: 'ranker', features: ['x'], required: options.required };
    },
    rank: async (_modelId, _version, input) => {
      seen.push(input);
      const scored = input.results.map((r, i) => ({ resultId: r.resultId, score: r.features?.x ?? 0, i }));
      scored.sort((p, q) => q.score - p.score || p.i - q.i);
      return { scoreType: 'ranker-margin', results: scored.map(({ resultId, score }) => ({ resultId, score })) };
    },
  };
  const features = { latest: async () => new Map(Object.entries(options.logged ?? {})) };
  return { seen, sbs: new SideBySideService({ detail: async () => DETAIL, rankers, features }) };
}

describe('SideBySideService', () => {
  it('ranks the logged results with only the features the ranker reads, and reads movement against the engine', async () => {
    const { sbs, seen } = service({ required: false, logged: { c: { x: 5, other: 1 }, a: { x: 1 } } });
    const view = await sbs.compare('shoes', { left: 'original', right: 'model:r', k: 2 });
    expect(seen[0]!.results).toEqual([{ resultId: 'a', features: { x: 1 } }, { resultId: 'b' }, { resultId: 'c', features: { x: 5 } }]);
    expect(view.right.results.map((r) => [r.resultId, r.movement.kind, r.movement.by])).toEqual([
      ['c', 'new', 0],
      ['a', 'down', 1],
    ]);
    expect(view.left.results.map((r) => r.movement.kind)).toEqual(['up', 'new']);
    expect(view.overlap).toBe(1);
    expect(view.right.summary).toEqual({ relevanceDcg: 0 + 0.1 / Math.log2(3), unjudged: 1 });
  });

  it('an alias that serves no version orders like the engine; an unknown alias is not found', async () => {
    const { sbs, seen } = service({ required: false, aliasTarget: null });
    const view = await sbs.compare('shoes', { right: 'alias:prod' });
    expect(view.right.served).toEqual({ source: 'original', alias: 'prod', modelId: null, version: null, scoreType: null });
    expect(view.right.results.map((r) => r.resultId)).toEqual(['a', 'b', 'c']);
    expect(seen).toEqual([]);
    await expect(sbs.compare('shoes', { right: 'alias:other' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses a model that is no ranker on its side, and a dataset ranker whose features feedback never logged', async () => {
    const { sbs } = service({ required: true, logged: { a: { x: 1 } } });
    await expect(sbs.compare('shoes', { left: 'model:clicks', right: 'original' })).rejects.toMatchObject({
      constructor: ValidationError,
      details: [{ path: '/left', in: 'querystring' }],
    });
    const refused = await sbs.compare('shoes', { right: 'model:r@2' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).message).toBe(
      "model r v2 ranks by request features alone, and feedback logged no x for 2 of the query's 3 results (b, c) in this window: log them in customMetadata.features",
    );
    expect((refused as ConflictError).details[0]).toMatchObject({ path: '/right', in: 'querystring' });
  });

  it('keeps each feature’s newest logged value per result', () => {
    const rows = [
      { resultId: 'a', extra: JSON.stringify({ features: { x: 3 } }) },
      { resultId: 'a', extra: JSON.stringify({ features: { x: 1, y: 2 }, colour: 'red' }) },
      { resultId: 'b', extra: JSON.stringify({ colour: 'blue' }) },
    ];
    expect(latestFeatures(rows)).toEqual(new Map([['a', { x: 3, y: 2 }]]));
  });
});
