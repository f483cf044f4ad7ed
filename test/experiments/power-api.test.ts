import { expect, it } from 'vitest';
import { sampleSize } from '../../src/stats/index.js';
import { expectError, postJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { TestClock } from '../support/test-clock.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

const BASE = '/api/nous/ab-testing';

describeOnEveryDatabase('experiment power calculator', (kind) => {
  const clock = new TestClock(Date.parse('2026-11-01T09:00:00Z'));
  const t = useTestApp(kind, { clock });

  /** Recent feedback the calculator derives missing inputs from. */
  async function recentFeedback() {
    for (let s = 0; s < 40; s += 1) {
      const items = [
        { queryId: `p-${s}`, metadata: { userAction: 'impression', customMetadata: { position: 1 } } },
        { queryId: `p-${s}`, metadata: { userAction: 'impression', customMetadata: { position: 2 } } },
        ...(s % 3 === 0 ? [{ queryId: `p-${s}`, metadata: { userAction: 'click', customMetadata: { position: 1 } } }] : []),
      ];
      clock.advance(3_600_000);
      await postJson(t.app, '/api/cortex/feedback', { sessionId: `power-${s}`, feedback: items });
    }
  }

  it('sizes an experiment from the request, and from recent feedback when inputs are missing', async () => {
    await recentFeedback();
    const explicit = await postJson(t.app, `${BASE}/power`, { metric: 'conversion_rate', baseline: 0.1, mde: 0.05, dailySessions: 10_000 });
    expect(explicit.statusCode, JSON.stringify(explicit.body)).toBe(200);
    const expected = sampleSize({
      baselineMean: 0.1,
      mde: 0.05,
      alpha: 0.05,
      power: 0.8,
      variants: 2,
      trafficAllocation: 1,
      dailySessions: 10_000,
    });
    expect(explicit.body.data).toMatchObject({
      sessionsPerVariant: expected.sessionsPerVariant,
      days: expected.days,
      sources: { baseline: 'request' },
    });
    // Planned for the correction the results will apply (issue 13's example): 3 variants at α = 0.01.
    const issue = { metric: 'conversion_rate', baseline: 0.02, mde: 0.1, alpha: 0.01, variants: 3 };
    const holmPlan = (await postJson(t.app, `${BASE}/power`, issue)).body.data;
    expect(holmPlan).toMatchObject({
      correction: 'holm',
      method: 'fixed',
      comparisons: 2,
      plannedAlpha: 0.005,
      sessionsPerVariant: 130_465,
    });
    expect(holmPlan.bound).toContain('Bonferroni bound');
    expect((await postJson(t.app, `${BASE}/power`, { ...issue, correction: 'none' })).body.data.sessionsPerVariant).toBe(114_454);
    const sequentialPlan = (await postJson(t.app, `${BASE}/power`, { ...issue, method: 'sequential' })).body.data;
    const expectedSequential = sampleSize({
      baselineMean: 0.02,
      mde: 0.1,
      alpha: 0.01,
      power: 0.8,
      variants: 3,
      correction: 'holm',
      method: 'sequential',
    });
    expect(sequentialPlan.sessionsPerVariant).toBe(expectedSequential.sessionsPerVariant);
    expect(sequentialPlan.sessionsPerVariant).toBeGreaterThan(130_465);
    const derived = await postJson(t.app, `${BASE}/power`, { metric: 'ctr', mde: 0.1 });
    expect(derived.statusCode, JSON.stringify(derived.body)).toBe(200);
    expect(derived.body.data.sources).toMatchObject({
      baseline: 'recent_feedback',
      stdDev: 'recent_feedback',
      dailySessions: 'recent_feedback',
    });
    expect(derived.body.data.baseline).toBeGreaterThan(0.1);
    expect(derived.body.data.sessionsPerVariant).toBeGreaterThan(0);
    expectError(await postJson(t.app, `${BASE}/power`, { metric: 'revenue', mde: 0.1 }), 400, 'VALIDATION_ERROR', '/metric');
    expectError(await postJson(t.app, `${BASE}/power`, { metric: 'dwell_time', mde: 0.1 }), 400, 'VALIDATION_ERROR', '/baseline');
    expectError(
      await postJson(t.app, `${BASE}/power`, { metric: 'dwell_time', baseline: 30_000, mde: 0.1 }),
      400,
      'VALIDATION_ERROR',
      '/stdDev',
    );
  });
});
