import { expect, it } from 'vitest';
import { describeContract } from './support/contract.js';
import { learningWorld } from './support/learning-world.js';
import { submission } from './support/records.js';

describeContract('TrainingDataStore', learningWorld, (world) => {
  it('reads a window of feedback oldest first in (eventTime, id) pages, every training column included', async () => {
    await world().feedback.insertSubmissions([
      submission('s1', 9000, [
        { queryId: 'q1', eventTime: 3000, userAction: 'click', queryHash: 'shoes', resultId: 'd1', position: 2, dwellTime: 31_000 },
        { queryId: 'q1', eventTime: 1000, userAction: 'impression', queryHash: 'shoes', resultId: 'd1', position: 2, deviceType: 'mobile' },
        { queryId: 'q0', eventTime: 500, userAction: 'impression' },
      ]),
      submission('s2', 9000, [
        {
          queryId: 'q2',
          eventTime: 3000,
          rating: 4,
          searchType: 'semantic',
          language: 'en',
          category: 'c',
          viewportWidth: 10,
          viewportHeight: 20,
          extraMetadata: '{"features":{"bm25":1.5}}',
        },
        { queryId: 'q3', eventTime: 8000 },
      ]),
    ]);
    const window = { start: 1000, end: 8000 };
    const first = await world().trainingData.readPage(window, undefined, 2);
    expect(first.rows.map((r) => [r.queryId, r.eventTime])).toEqual([
      ['q1', 1000],
      ['q1', 3000],
    ]);
    expect(first.rows[1]).toEqual({
      queryId: 'q1',
      queryHash: 'shoes',
      resultId: 'd1',
      position: 2,
      action: 'click',
      eventTime: 3000,
      rating: null,
      dwellTime: 31_000,
      deviceType: null,
      searchType: null,
      language: null,
      category: null,
      viewportWidth: null,
      viewportHeight: null,
      extra: null,
    });
    const second = await world().trainingData.readPage(window, first.last, 2);
    expect(second.rows).toEqual([
      expect.objectContaining({
        queryId: 'q2',
        rating: 4,
        searchType: 'semantic',
        language: 'en',
        category: 'c',
        viewportWidth: 10,
        extra: '{"features":{"bm25":1.5}}',
      }),
    ]);
    const third = await world().trainingData.readPage(window, second.last, 2);
    expect(third).toEqual({ rows: [], last: undefined });
  });

  it('hasImpressions: only an impression with a queryHash and a position inside the window counts', async () => {
    expect(await world().trainingData.hasImpressions({ start: 0, end: 10_000 })).toBe(false);
    await world().feedback.insertSubmissions([
      submission('s1', 9000, [
        { queryId: 'q1', eventTime: 1000, userAction: 'click', queryHash: 'shoes', resultId: 'd1', position: 1 },
        { queryId: 'q1', eventTime: 1000, userAction: 'impression', resultId: 'd1', position: 1 },
        { queryId: 'q2', eventTime: 2000, userAction: 'impression', queryHash: 'shoes', resultId: 'd1' },
        { queryId: 'q3', eventTime: 5000, userAction: 'impression', queryHash: 'shoes', resultId: 'd1', position: 3 },
      ]),
    ]);
    expect(await world().trainingData.hasImpressions({ start: 0, end: 5000 })).toBe(false);
    expect(await world().trainingData.hasImpressions({ start: 5000, end: 5001 })).toBe(true);
    expect(await world().trainingData.hasImpressions({ start: 5001, end: 10_000 })).toBe(false);
  });
});
