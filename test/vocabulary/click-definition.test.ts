import { expect, it } from 'vitest';
import { getJson, postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

/**
 * One definition of a click (src/vocabulary): the same feedback, sent once through the public
 * API, gives an experiment's CTR and a click model the same clicks and impressions. Cart adds,
 * purchases and conversions are not clicks for either; a satisfied click is a click with a long dwell.
 */
const searches = ['s-a', 's-b', 's-c'].map((queryId, n) => ({ queryId, queryHash: `query ${n % 2}` }));

function feedbackItems() {
  const items: unknown[] = [];
  const item = (queryId: string, queryHash: string, userAction: string, position: number, custom: Record<string, unknown> = {}) => ({
    queryId,
    metadata: { userAction, resultId: `${queryHash}/doc-${position}`, queryHash, customMetadata: { position, ...custom } },
  });
  for (const { queryId, queryHash } of searches) {
    for (let position = 1; position <= 4; position += 1) items.push(item(queryId, queryHash, 'impression', position));
  }
  const [a, b, c] = searches as [(typeof searches)[number], (typeof searches)[number], (typeof searches)[number]];
  // Three clicks, one of them satisfied (dwell ≥ 30 s).
  items.push(item(a.queryId, a.queryHash, 'click', 2, { dwellTime: 45_000 }));
  items.push(item(b.queryId, b.queryHash, 'click', 1, { dwellTime: 4_000 }));
  items.push(item(c.queryId, c.queryHash, 'click', 3));
  // Engagement and conversions: none is a click, and a long dwell on them is no satisfied click.
  items.push(item(a.queryId, a.queryHash, 'add_to_cart', 4, { dwellTime: 60_000 }));
  items.push(item(b.queryId, b.queryHash, 'purchase', 3, { dwellTime: 31_000 }));
  items.push(item(c.queryId, c.queryHash, 'conversion', 1));
  items.push(item(c.queryId, c.queryHash, 'add_to_cart', 2));
  return items;
}

describeOnEveryDatabase('one click definition for experiments and learning', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  it('experiment CTR and a click model count the same clicks and impressions from the same feedback', async () => {
    const created = await postJson(t.app, '/api/nous/ab-testing/experiments', {
      name: 'one-click',
      configuration: {
        variants: [
          { id: 'only', weight: 1 },
          { id: 'never', weight: 0 },
        ],
        targetMetrics: ['ctr', 'satisfied_click_rate', 'conversion_rate'],
      },
    });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(201);
    const experimentId = created.body.data.experimentId as string;
    expect((await request(t.app, { method: 'POST', url: `/api/nous/ab-testing/experiments/${experimentId}/start` })).statusCode).toBe(200);
    const assigned = await postJson(t.app, `/api/nous/ab-testing/experiments/${experimentId}/assign`, { unitId: 'session-1' });
    expect(assigned.body.data).toMatchObject({ inExperiment: true, variantId: 'only' });
    clock.advance(1000);

    const sent = await postJson(t.app, '/api/cortex/feedback', { sessionId: 'session-1', feedback: feedbackItems() });
    expect(sent.statusCode, JSON.stringify(sent.body)).toBe(201);

    const registered = await postJson(t.app, '/api/nous/learn/models', {
      modelId: 'clicks',
      name: 'clicks',
      type: 'click_model',
      config: { algorithm: 'ctr', heldOutFraction: 0.05 },
    });
    expect(registered.statusCode, JSON.stringify(registered.body)).toBe(201);
    expect(await t.container.learning.services.trainingService.runUntilIdle()).toBe(1);
    const model = (await getJson(t.app, '/api/nous/learn/models/clicks')).body.data;
    expect(model.status, JSON.stringify(model)).toBe('ready');

    const results = (await getJson(t.app, `/api/nous/ab-testing/experiments/${experimentId}/results`)).body.data;
    const arm = (metric: string) =>
      (results.metrics as { metric: string; variants: { variantId: string; numerator: number; denominator: number }[] }[])
        .find((m) => m.metric === metric)!
        .variants.find((v) => v.variantId === 'only')!;

    // Three `click` items; the cart adds, the purchase and the conversion are not clicks.
    expect(arm('ctr')).toMatchObject({ numerator: 3, denominator: 12 });
    expect(model.metrics.counts).toMatchObject({ clicks: 3, impressions: 12, sessions: 3 });
    expect(model.metrics.counts.clicks).toBe(arm('ctr').numerator);
    expect(model.metrics.counts.impressions).toBe(arm('ctr').denominator);
    // One click dwelt ≥ 30 s; the long dwells on the cart add and the purchase do not count.
    expect(arm('satisfied_click_rate')).toMatchObject({ numerator: 1, denominator: 3 });
    // Purchases and conversions are what conversion_rate counts: this session converted.
    expect(arm('conversion_rate')).toMatchObject({ numerator: 1, denominator: 1 });
  });
});
