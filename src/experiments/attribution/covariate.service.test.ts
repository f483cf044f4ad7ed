import { describe, expect, it } from 'vitest';
import type { AttributableItem } from '../model/attribution-records.js';
import { CovariateService } from './covariate.service.js';
import { FakeExperimentData } from '../model/fake-experiment-data.js';
import { FakePreExposureCovariates } from './fake-pre-exposure-covariates.store.js';
import type { NewExposure, PreExposureCovariateStore } from './pre-exposure-covariates.store.js';

const exposure = (unitId: string) => ({ experimentId: 'e', phase: 0, unitId, variantId: 'a', exposedAt: 5000, covariates: null });

describe('CovariateService (fake store)', () => {
  it("queues first exposures and computes their covariates from the unit's earlier feedback", async () => {
    const feedback: AttributableItem[] = [
      {
        id: 'i1',
        sessionId: 'u1',
        queryId: 'q',
        userAction: 'impression',
        rating: null,
        receivedAt: 1000,
        position: 1,
        dwellTime: null,
        timeToClick: null,
        scrollDepth: null,
      },
    ];
    const data = new FakeExperimentData(() => feedback);
    const service = new CovariateService(new FakePreExposureCovariates(data));
    service.enqueue([exposure('u1'), exposure('u2')]);
    expect(await service.drain()).toBe(7);
    expect(data.covariates.get('e\u00000\u0000u1\u0000ctr')).toEqual({ x: 0, y: 1, source: 'pre_exposure' });
    expect(await service.drain()).toBe(0);
  });

  it('keeps a batch queued when the store fails, for the next run', async () => {
    const seen: NewExposure[][] = [];
    let fail = true;
    const flaky: PreExposureCovariateStore = {
      compute: async (units) => {
        seen.push([...units]);
        if (fail) throw new Error('database down');
        return units.length;
      },
    };
    const service = new CovariateService(flaky);
    service.enqueue([exposure('u1')]);
    await expect(service.drain()).rejects.toThrow('database down');
    fail = false;
    expect(await service.drain()).toBe(1);
    expect(seen.map((b) => b.map((u) => u.unitId))).toEqual([['u1'], ['u1']]);
    expect(service.droppedUnits).toBe(0);
  });
});
