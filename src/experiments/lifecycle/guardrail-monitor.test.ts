import { describe, expect, it } from 'vitest';
import { createFakeExperiments } from '../fake-experiments.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('GuardrailMonitor', () => {
  // The scheduler stops its runs at shutdown: the attribution catch-up a guardrail read starts must
  // end at its next batch then, not fold the whole backlog while the process waits to exit.
  it("passes the scheduler's stop signal to the attribution catch-up its guardrail read starts", async () => {
    const fake = createFakeExperiments({ now: NOW });
    const { experimentId } = await fake.experimentService.create({
      name: 'guarded',
      configuration: { variants: [{ id: 'a' }, { id: 'b' }], analysis: { guardrails: [{ metric: 'ctr', margin: 0.02, autoPause: true }] } },
    });
    await fake.lifecycleService.act(experimentId, 'start');
    await fake.stores.exposures.recordExposures([
      { experimentId, phase: 0, unitId: 'u1', variantId: 'a', exposedAt: NOW - 1000, covariates: null },
    ]);
    fake.feedback.push({
      id: '000000000001',
      sessionId: 'u1',
      queryId: 'q1',
      userAction: 'impression',
      rating: null,
      receivedAt: NOW - 500,
      position: 1,
      dwellTime: null,
      timeToClick: null,
      scrollDepth: null,
    });
    const halt = new AbortController();
    halt.abort();
    expect(await fake.guardrailMonitor.run(halt.signal)).toBe(0);
    // Stopped before its first batch: attribution never reached the end of the backlog.
    expect(fake.attributionService.freshAsOf).toBeNull();
    await fake.guardrailMonitor.run();
    expect(fake.attributionService.freshAsOf).toBe(NOW);
  });
});
