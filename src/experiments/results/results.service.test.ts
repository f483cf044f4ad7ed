import { describe, expect, it } from 'vitest';
import { createFakeExperiments } from '../fake-experiments.js';
import type { AttributableItem } from '../model/attribution-records.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

function setup() {
  const fake = createFakeExperiments({ now: NOW });
  const { experimentService: definitions, lifecycleService: lifecycle, resultsService: service, powerService: power } = fake;
  const { feedback, stores } = fake;
  /** A unit exposed to `variant` that saw `impressions` results and clicked `clicks`. */
  const unit = async (experimentId: string, unitId: string, variant: string, impressions: number, clicks: number) => {
    await stores.exposures.recordExposures([
      { experimentId, phase: 0, unitId, variantId: variant, exposedAt: NOW - 1000, covariates: null },
    ]);
    const item = (userAction: string, position: number): AttributableItem => ({
      id: `${unitId}-${feedback.length}`.padStart(12, '0'),
      sessionId: unitId,
      queryId: `${unitId}-q`,
      userAction,
      rating: null,
      receivedAt: NOW - 500,
      position,
      dwellTime: null,
      timeToClick: null,
      scrollDepth: null,
    });
    for (let p = 1; p <= impressions; p += 1) feedback.push(item('impression', p));
    for (let p = 1; p <= clicks; p += 1) feedback.push(item('click', p));
  };
  return { definitions, lifecycle, service, power, unit };
}

describe('ResultsService and PowerService (fake stores)', () => {
  it('attributes what is pending, then reports each variant from the sums and compares it with the control', async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({
      name: 'r',
      configuration: { variants: [{ id: 'a' }, { id: 'b' }], targetMetrics: ['ctr'], analysis: { cuped: false } },
    });
    await t.lifecycle.act(experimentId, 'start');
    await t.unit(experimentId, 'u1', 'a', 4, 1);
    await t.unit(experimentId, 'u2', 'a', 4, 0);
    await t.unit(experimentId, 'u3', 'b', 2, 1);
    await t.unit(experimentId, 'u4', 'b', 2, 2);
    const view = await t.service.results(experimentId);
    expect(view.metrics[0]!.variants).toEqual([
      { variantId: 'a', units: 2, numerator: 1, denominator: 8, value: 1 / 8 },
      { variantId: 'b', units: 2, numerator: 3, denominator: 4, value: 3 / 4 },
    ]);
    expect(view.metrics[0]!.comparisons[0]).toMatchObject({ variantId: 'b', controlVariantId: 'a' });
    expect(view.srm.observed).toEqual({ a: 2, b: 2 });
    expect(view.dataFreshAsOf).toBe(new Date(NOW).toISOString());
  });

  it('sizes an experiment from recent feedback when the request leaves inputs out', async () => {
    const t = setup();
    const { experimentId } = await t.definitions.create({ name: 'p', configuration: { variants: [{ id: 'a' }, { id: 'b' }] } });
    await t.lifecycle.act(experimentId, 'start');
    await t.unit(experimentId, 'u1', 'a', 4, 1);
    await t.unit(experimentId, 'u2', 'b', 4, 2);
    const plan = await t.power.plan({ metric: 'ctr', mde: 0.2 });
    expect(plan.baseline).toBeCloseTo(3 / 8, 12);
    expect(plan.sources).toMatchObject({ baseline: 'recent_feedback', observed: 'recent_feedback' });
    expect(plan.sessionsPerVariant).toBeGreaterThan(0);
    await expect(t.power.plan({ metric: 'clicks', mde: 0.1 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
