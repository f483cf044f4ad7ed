import { METRIC_CATALOGUE, linearValue } from '../../vocabulary/index.js';
import { FakeExperimentData, unitKey } from '../model/fake-experiment-data.js';
import { foldSession } from './fake-session-fold.js';
import type { NewExposure, PreExposureCovariateStore } from './pre-exposure-covariates.store.js';

/** Session-level metrics: the ones with a pre-exposure covariate. */
const SESSION_METRICS = METRIC_CATALOGUE.filter((m) => 'session' in m.sql);

/**
 * In-memory PreExposureCovariateStore: the catalogue's folds over the unit's earlier feedback,
 * where the Kysely store runs the catalogue's SQL; the contract test holds the two to one answer.
 */
export class FakePreExposureCovariates implements PreExposureCovariateStore {
  constructor(readonly data = new FakeExperimentData()) {}

  async compute(units: readonly NewExposure[]): Promise<number> {
    let offered = 0;
    for (const u of units) {
      const before = this.data.feedback().filter((i) => i.sessionId === u.unitId && i.receivedAt < u.exposedAt);
      if (before.length === 0) continue;
      const stats = foldSession(before);
      for (const m of SESSION_METRICS) {
        offered += 1;
        const key = `${unitKey(u.experimentId, u.phase, u.unitId)}\u0000${m.name}`;
        if (!this.data.covariates.has(key)) {
          this.data.covariates.set(key, { x: linearValue(stats, m.x), y: linearValue(stats, m.y), source: 'pre_exposure' });
        }
      }
    }
    return offered;
  }
}
