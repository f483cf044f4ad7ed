import { expect, it } from 'vitest';
import { METRIC_NAMES, type MetricName } from '../../src/vocabulary/index.js';
import { describeContract } from './support/contract.js';
import { experimentWorld, sumsOf, type ExperimentWorld } from './support/experiment-world.js';
import { submission } from './support/records.js';

/** Three sessions of recent feedback (and one older item that must not count). */
async function recentFeedback(world: ExperimentWorld) {
  await world.feedback.insertSubmissions([
    submission('s1', 500, [{ queryId: 'old', userAction: 'click', position: 1 }]),
    submission('s1', 1000, [
      { queryId: 'q1', userAction: 'impression', position: 1 },
      { queryId: 'q1', userAction: 'impression', position: 2 },
      { queryId: 'q1', userAction: 'click', position: 2, dwellTime: 45_000, timeToClick: 800 },
      { queryId: 'q2', userAction: 'impression', position: 1, scrollDepth: 0.5 },
      { queryId: 'q2', userAction: 'rate', rating: 5 },
      { queryId: 'q3', userAction: 'purchase' },
    ]),
    submission('s2', 2000, [
      { queryId: 'q5', userAction: 'impression', position: 1 },
      { queryId: 'q5', userAction: 'click', position: 1, dwellTime: 10_000 },
      { queryId: 'q5', userAction: 'click', position: 3 },
      // An engagement: no click, no conversion, and its long dwell makes no satisfied click.
      { queryId: 'q5', userAction: 'add_to_cart', position: 1, dwellTime: 60_000 },
    ]),
    submission('s3', 3000, [{ queryId: 'q7', userAction: 'impression', position: 1 }]),
  ]);
}

/** Per session (s1, s2, s3), the metric's X and Y by hand, from the vocabulary and the catalogue. */
const EXPECTED: Record<MetricName, [number, number][]> = {
  ctr: [
    [1, 3],
    [2, 1],
    [0, 1],
  ],
  abandonment_rate: [
    [2, 3],
    [0, 1],
    [1, 1],
  ],
  mrr: [
    [0.5, 3],
    [1, 1],
    [0, 1],
  ],
  mean_rating: [
    [5, 1],
    [0, 0],
    [0, 0],
  ],
  dwell_time: [
    [45_000, 1],
    [70_000, 2],
    [0, 0],
  ],
  time_to_click: [
    [800, 1],
    [0, 0],
    [0, 0],
  ],
  satisfied_click_rate: [
    [1, 1],
    [0, 2],
    [0, 0],
  ],
  scroll_depth: [
    [0.5, 1],
    [0, 0],
    [0, 0],
  ],
  conversion_rate: [
    [1, 1],
    [0, 1],
    [0, 1],
  ],
};

describeContract('PlanningStore', experimentWorld, (world) => {
  // The Kysely store runs each catalogue row's SQL, the fake folds the same rows in TypeScript:
  // both must give the sums worked out by hand, so the catalogue's two forms cannot disagree.
  it.each(METRIC_NAMES.map((m) => [m]))('%s: per-session sums of recent feedback', async (metric) => {
    await recentFeedback(world());
    const recent = await world().planning.recentSessionSums(metric, 1000);
    expect(recent.sums).toEqual(sumsOf(EXPECTED[metric]));
    expect([recent.firstAt, recent.lastAt]).toEqual([1000, 3000]);
  });

  it('reports no sessions and no span without recent feedback', async () => {
    await recentFeedback(world());
    expect(await world().planning.recentSessionSums('ctr', 10_000)).toEqual({ sums: sumsOf([]), firstAt: null, lastAt: null });
  });
});
