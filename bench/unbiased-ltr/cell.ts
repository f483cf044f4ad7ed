/**
 * One cell of the grid (users × logger × sessions × seed): simulate the log, train every method on it
 * side by side, and score each on the held-out queries' true labels (overall, tail, and validation).
 */
import { harvestPropensities, type LoggedSearch } from '../../src/offline-eval/index.js';
import { train } from '../../src/ranker/index.js';
import { trainParams } from '../../src/learning/training/runs/tree-params.js';
import { collapse, describeUsers, forEachSession, simulateLog, truePropensities, type SimLog, type Users } from './simulate.js';
import { feedbackColumns, settingsOf, trainService, type ServiceRun } from './service.js';
import { xgbOnClicks } from './xgb.js';
import { labelled, makeLogger, makeWorld, ndcg10, scoreAll, splitQueries, type LoggerName, type Split, type World } from './world.js';
import type { FeedbackColumns } from '../../src/learning/training/runs/feedback-columns.js';

/** Tail: test queries with fewer sessions than this in the log. */
export const TAIL_SESSIONS = 20;
/** Clip of the bench's own 1/propensity weights (XGBoost's): the service's default (max weight 10). */
export const CLIP = 0.1;

export interface CellSpec {
  users: Users;
  logger: LoggerName;
  sessions: number;
  seed: number;
}

export interface Score {
  test: number;
  tail: number;
  valid: number;
  seconds?: number;
  note?: string;
}

export interface CellResult {
  spec: CellSpec;
  label: string;
  tailQueries: number;
  testQueries: number;
  harvested: number[];
  scores: Record<string, Score>;
}

/** Extra methods plugged in by the run (service modes, ablations): each gets the cell's context. */
export interface CellContext {
  world: World;
  split: Split;
  log: SimLog;
  cols: () => FeedbackColumns;
  features: Record<string, number>[];
  propensities: number[] | null;
  harvested: number[];
  evaluate: (scores: ArrayLike<number>, seconds?: number) => Score;
  evaluateRun: (run: ServiceRun) => Score;
}
export type Method = (ctx: CellContext) => Score;

const worlds = new Map<number, { world: World; split: Split; skyline: Float64Array; features: Record<string, number>[] }>();

/** World, split and skyline depend on the seed only: built once per seed. */
export function worldOf(seed: number, featureMapsOf: (w: World) => Record<string, number>[]) {
  let w = worlds.get(seed);
  if (!w) {
    const world = makeWorld(seed);
    const split = splitQueries(world, seed);
    const settings = settingsOf({ trainingData: 'dataset' });
    const sky = train(labelled(world, split.train), { objective: 'lambdarank', ...trainParams({ ...settings.tree, seed }) });
    w = { world, split, skyline: scoreAll(world, sky.model), features: featureMapsOf(world) };
    worlds.set(seed, w);
  }
  return w;
}

export function harvest(world: World, log: SimLog): number[] {
  const searches: LoggedSearch[] = [];
  forEachSession(log, (s, q, rows, clicked) =>
    searches.push({
      queryHash: world.queryHashes[q]!,
      sessionId: `s${s}`,
      resultIds: rows.map((r) => world.docIds[r]!),
      clicks: clicked,
      satisfied: clicked.map(() => false),
    }),
  );
  return harvestPropensities(searches, { maxDepth: 10, bootstrap: 0 }).positions.map((p) => p.estimate);
}

export function runCell(
  spec: CellSpec,
  methods: Record<string, Method>,
  featureMapsOf: (w: World) => Record<string, number>[],
): CellResult {
  const { world, split, skyline, features } = worldOf(spec.seed, featureMapsOf);
  const logger = makeLogger(world, split, spec.logger, spec.seed);
  const log = simulateLog(world, logger, spec.users, spec.sessions, spec.seed);
  const tail = split.test.filter((q) => log.perQuery[q]! < TAIL_SESSIONS);
  const evaluate = (scores: ArrayLike<number>, seconds?: number): Score => ({
    test: ndcg10(world, scores, split.test),
    tail: ndcg10(world, scores, tail),
    valid: ndcg10(world, scores, split.valid),
    ...(seconds === undefined ? {} : { seconds }),
  });
  const evaluateRun = (run: ServiceRun): Score =>
    run.output.kind === 'trained'
      ? evaluate(run.scores, run.seconds)
      : { test: Number.NaN, tail: Number.NaN, valid: Number.NaN, seconds: run.seconds, note: run.output.message };
  let cols: FeedbackColumns | undefined;
  const propensities = truePropensities(spec.users);
  const harvested = harvest(world, log);
  const ctx: CellContext = {
    world,
    split,
    log,
    cols: () => (cols ??= feedbackColumns(world, log, features)),
    features,
    propensities,
    harvested,
    evaluate,
    evaluateRun,
  };
  const scores: Record<string, Score> = {};
  const loggerScores = new Float64Array(world.grade.length);
  logger.ranking.forEach((list) => list.forEach((r, i) => (loggerScores[r] = -i)));
  scores['logger'] = evaluate(loggerScores);
  scores['skyline (true labels)'] = evaluate(skyline);
  for (const [name, method] of Object.entries(methods)) {
    const t = performance.now();
    scores[name] = method(ctx);
    scores[name].seconds ??= (performance.now() - t) / 1000;
  }
  return {
    spec,
    label: `${describeUsers(spec.users)}, ${spec.logger}, ${spec.sessions}`,
    tailQueries: tail.length,
    testQueries: split.test.length,
    harvested,
    scores,
  };
}

/** XGBoost, plain and with 1/max(p, clip) on clicks (harvested p): one python call for both. */
export function xgbMethods(): Record<string, Method> {
  let last: { ctx: CellContext; out: Record<string, Float64Array>; seconds: number } | undefined;
  const fit = (ctx: CellContext) => {
    if (last?.ctx !== ctx) {
      const t = performance.now();
      const w = ctx.harvested.map((p) => 1 / Math.max(p, CLIP));
      const out = xgbOnClicks(ctx.world, collapse(ctx.log), { plain: w.map(() => 1), ips: w }, 1);
      last = { ctx, out, seconds: (performance.now() - t) / 1000 / 2 };
    }
    return last;
  };
  return {
    'xgb naive': (ctx) => {
      const l = fit(ctx);
      return ctx.evaluate(l.out['plain']!, l.seconds);
    },
    'xgb ips (harvested)': (ctx) => {
      const l = fit(ctx);
      return ctx.evaluate(l.out['ips']!, l.seconds);
    },
  };
}

/** Today's judgment pipeline: `trainingData: "feedback"` with the service's defaults. */
export function feedbackMethod(config: Record<string, unknown> = {}): Method {
  return (ctx) => ctx.evaluateRun(trainService(ctx.world, ctx.cols(), settingsOf({ trainingData: 'feedback', ...config }), ctx.features));
}
