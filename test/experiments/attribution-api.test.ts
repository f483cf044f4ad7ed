import { expect, it } from 'vitest';
import { postJson, request } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';

describeOnEveryDatabase('attribution', (kind) => {
  const clock = new TestClock();
  const t = useTestApp(kind, { clock });

  const feedback = (sessionId: string, items: unknown[]) => postJson(t.app, '/api/cortex/feedback', { sessionId, feedback: items });
  const ev = (queryId: string, userAction: string, custom: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    queryId,
    ...extra,
    metadata: { userAction, customMetadata: custom },
  });

  it('folds feedback that arrived after exposure into per-unit sums, exactly once', async () => {
    const created = await postJson(t.app, `${BASE}/experiments`, {
      name: 'attribution',
      configuration: { variants: [{ id: 'a' }, { id: 'b' }] },
    });
    const id = created.body.data.experimentId;
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/start` });

    // Before exposure: must not count.
    await feedback('s1', [ev('early', 'click', { position: 1 })]);
    clock.advance(1000);
    const assigned = await postJson(t.app, `${BASE}/experiments/${id}/assign`, { unitId: 's1' });
    expect(assigned.body.data.inExperiment).toBe(true);
    clock.advance(1000);
    await feedback('s1', [
      ev('q1', 'impression', { position: 1 }),
      ev('q1', 'impression', { position: 2 }),
      ev('q1', 'impression', { position: 3 }),
      ev('q1', 'click', { position: 2, timeToClick: 1500, dwellTime: 45_000 }),
      ev('q1', 'click', { position: 3, dwellTime: 5_000 }),
      ev('q2', 'impression', { position: 1, scrollDepth: 0.5 }),
      ev('q2', 'rate', {}, { rating: 4 }),
    ]);
    // A later submission continues search q2 (first click) and converts twice (counted once).
    await feedback('s1', [ev('q2', 'click', { position: 4 }), ev('q3', 'purchase'), ev('q3', 'conversion')]);
    // Another session, never exposed: ignored.
    await feedback('stranger', [ev('q9', 'click', { position: 1 })]);

    expect(await t.container.experiments.services.attributionService.catchUp()).toBe(12);
    expect(await t.container.experiments.services.attributionService.catchUp()).toBe(0);
    const unit = await t.container.database.db
      .selectFrom('experiment_units')
      .selectAll()
      .where('experiment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(unit).toMatchObject({
      unit_id: 's1',
      impressions: 4,
      clicks: 3,
      searches: 3,
      searches_with_click: 2,
      rated_items: 1,
      rating_sum: 4,
      dwell_count: 2,
      dwell_sum: 50_000,
      satisfied_clicks: 1,
      ttc_count: 1,
      ttc_sum: 1500,
      scroll_count: 1,
      scroll_sum: 0.5,
      conversions: 1,
    });
    expect(unit.rr_sum).toBeCloseTo(1 / 2 + 1 / 4, 12);
    expect(t.container.experiments.services.attributionService.freshAsOf).toBe(clock.now());

    // After the experiment stops, the phase is closed: later feedback does not count.
    await request(t.app, { method: 'POST', url: `${BASE}/experiments/${id}/stop` });
    clock.advance(1000);
    await feedback('s1', [ev('q4', 'click', { position: 1 })]);
    await t.container.experiments.services.attributionService.catchUp();
    const after = await t.container.database.db
      .selectFrom('experiment_units')
      .select(['clicks', 'searches'])
      .where('experiment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ clicks: 3, searches: 3 });
  });
});
