import { toIso } from '../../common/clock.js';
import { ValidationError } from '../../common/errors.js';
import { fitClickModel } from '../../click-models/index.js';
import type { EvaluationStore } from './evaluation.store.js';
import { parseWindow, readWindow } from './evaluation-window.js';
import { harvestPropensities } from '../../offline-eval/index.js';
import type { PositionBiasQuery, PositionBiasView } from './evaluation.schemas.js';

const DEPTH = 10;
const SEED = 1;

/**
 * GET /api/nous/learn/position-bias: examination by position relative to position 1, harvested
 * from the window's natural interventions (AllPairs, Agarwal et al. 2019), beside the PBM click
 * model fitted on the same searches (its γ_r divided by γ_1), so the two curves can be compared.
 */
export async function positionBias(store: EvaluationStore, now: number, query: PositionBiasQuery): Promise<PositionBiasView> {
  const window = parseWindow(query.from, query.to, 'querystring', { now, days: 28 });
  const { searches } = await readWindow(store, window, DEPTH);
  if (searches.length === 0)
    throw ValidationError.field('/from', 'the window from–to holds no logged searches with impressions', 'querystring');
  const byContext = query.dimension === 'deviceType';
  const harvested = harvestPropensities(searches, { maxDepth: DEPTH, seed: SEED, byContext });
  const pbm = fitClickModel(
    searches.map((s) => ({ queryHash: s.queryHash, resultIds: s.resultIds, clicks: s.clicks })),
    { algorithm: 'pbm', maxDepth: DEPTH },
  );
  const first = pbm.examination[0] ?? 0;
  // Below the deepest position anyone was shown, PBM's γ is its prior alone: not a measurement.
  const deepest = searches.reduce((d, s) => Math.max(d, s.resultIds.length), 0);
  return {
    method: 'allpairs',
    window: { from: toIso(window.start), to: toIso(window.end) },
    searches: searches.length,
    harvestedPairs: harvested.harvestedPairs,
    positions: harvested.positions,
    pbm: pbm.examination.slice(0, deepest).map((e, i) => ({ position: i + 1, examination: first > 0 ? e / first : 0 })),
    ...(byContext
      ? {
          byDimension: {
            dimension: 'deviceType',
            values: Object.entries(harvested.byContext ?? {}).map(([value, positions]) => ({ value, positions })),
          },
        }
      : {}),
  };
}
