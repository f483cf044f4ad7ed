/** Every method of the side-by-side table, in the order the table prints them. */
import { buildClickLog, trainOnClicks, type ClickSession } from '../../src/ranker/index.js';
import { trainParams } from '../../src/learning/training/runs/tree-params.js';
import { feedbackMethod, xgbMethods, type CellContext, type Method } from './cell.js';
import { trainService } from './service.js';
import { forEachSession } from './simulate.js';
import { settingsOf } from './service.js';
import { scoreAll } from './world.js';

export const METHOD_ORDER = [
  'logger',
  'skyline (true labels)',
  'feedback (judgments)',
  'clicks none',
  'clicks ips (harvested)',
  'clicks unbiased-lambdamart',
  'ips (true propensities)',
  'whole log: none',
  'whole log: unbiased-lambdamart',
  'xgb naive',
  'xgb ips (harvested)',
  'clicks unbiased-lambdamart, every core',
];

/** The log as A's ClickLog over the sample's features (sessions with the same query and list collapse). */
export function clickLogOf(ctx: CellContext) {
  const { world } = ctx;
  const sessions: ClickSession[] = [];
  forEachSession(ctx.log, (_, q, rows, clicked) =>
    sessions.push({ queryKey: world.queryHashes[q]!, docKeys: rows.map((r) => world.docIds[r]!), clicks: clicked }),
  );
  const F = world.data.numFeatures;
  const rowOf = new Map(world.docIds.map((d, r) => [d, r]));
  return buildClickLog(
    sessions,
    (_, doc) => world.data.features.subarray(rowOf.get(doc)! * F, (rowOf.get(doc)! + 1) * F),
    world.data.featureNames.map((n) => `f${n}`),
  );
}

/**
 * A's trainOnClicks with the service's default trees on the whole log (no held-out queries) and the
 * sample's features: ips with PBM's true curve (clip 0.1), and the other modes, to tell apart what
 * the service path's 20 % held-out queries cost from what the method does.
 */
function wholeLog(debiasing: 'none' | 'ips' | 'unbiased-lambdamart', propensities?: (ctx: CellContext) => number[] | null): Method {
  return (ctx) => {
    const p = propensities?.(ctx);
    if (propensities && !p)
      return { test: Number.NaN, tail: Number.NaN, valid: Number.NaN, seconds: Number.NaN, note: 'DBN has no position curve' };
    const t = performance.now();
    const tree = settingsOf({ trainingData: 'dataset' }).tree;
    const result = trainOnClicks(clickLogOf(ctx), trainParams(tree), p ? { debiasing, propensities: p } : { debiasing });
    return ctx.evaluate(scoreAll(ctx.world, result.model), (performance.now() - t) / 1000);
  };
}

/** The service's clicks path (runTraining, `trainingData: "clicks"`) with one debiasing mode, its defaults otherwise. */
export function clicksMethod(debiasing: 'none' | 'ips' | 'unbiased-lambdamart', config: Record<string, unknown> = {}): Method {
  return (ctx) =>
    ctx.evaluateRun(trainService(ctx.world, ctx.cols(), settingsOf({ trainingData: 'clicks', debiasing, ...config }), ctx.features));
}

export function allMethods(): Record<string, Method> {
  return {
    'feedback (judgments)': feedbackMethod(),
    'clicks none': clicksMethod('none'),
    'clicks ips (harvested)': clicksMethod('ips'),
    'clicks unbiased-lambdamart': clicksMethod('unbiased-lambdamart'),
    'ips (true propensities)': wholeLog('ips', (ctx) => ctx.propensities),
    'whole log: none': wholeLog('none'),
    'whole log: unbiased-lambdamart': wholeLog('unbiased-lambdamart'),
    ...xgbMethods(),
  };
}
