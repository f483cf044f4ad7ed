import fc from 'fast-check';
import { METRIC_NAMES } from '../../../src/vocabulary/index.js';
import { MODEL_STATUSES, MODEL_TYPES } from '../../../src/learning/model/model-types.js';
import { EXPERIMENT_STATES } from '../../../src/experiments/model/lifecycle.js';
import { syntheticLetor } from '../../learning/support/synthetic-letor.js';
import type { FuzzRequest, RouteSpec } from './harness.js';

/** Ids of rows the fixtures created, so path parameters often name something that exists. */
export interface Fixtures {
  feedbackIds: string[];
  sessionIds: string[];
  experimentIds: string[];
  modelIds: string[];
}

export const NO_FIXTURES: Fixtures = { feedbackIds: ['f'], sessionIds: ['s'], experimentIds: ['e'], modelIds: ['m'] };

const NOW = Date.now();
const DAY = 86_400_000;

const id = fc.oneof(fc.constantFrom('s-1', 's-2', 'q-1', 'doc-42', 'session-abc'), fc.string({ minLength: 1, maxLength: 16 }));
const short = fc.oneof(fc.constantFrom('mobile', 'desktop', 'keyword', 'en', 'en-GB'), fc.string({ minLength: 1, maxLength: 12 }));
const isoRecent = fc.integer({ min: NOW - 30 * DAY, max: NOW }).map((ms) => new Date(ms).toISOString());
const isoAny = fc.integer({ min: NOW - 400 * DAY, max: NOW + 400 * DAY }).map((ms) => new Date(ms).toISOString());
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const positive = fc.double({ min: 0.001, max: 1, noNaN: true });
const limit = (max: number) => fc.oneof(fc.integer({ min: 1, max }).map(String), fc.constantFrom('1', String(max)));
const cursor = fc.constantFrom(
  Buffer.from(JSON.stringify({ k: '1700000000000.01HZZZZZZZZZZZZZZZZZZZZZZZ' })).toString('base64url'),
  Buffer.from(JSON.stringify({ k: '01HZZZZZZZZZZZZZZZZZZZZZZZ' })).toString('base64url'),
  Buffer.from(JSON.stringify({ k: '5' })).toString('base64url'),
);
const metric = fc.constantFrom(...METRIC_NAMES);

const feedbackItem = fc.record(
  {
    queryId: id,
    rating: fc.oneof(fc.constantFrom(-1, 0, 1, 4, 5), fc.double({ min: -1, max: 5, noNaN: true })),
    metadata: fc.record(
      {
        userAction: fc.constantFrom('impression', 'click', 'add_to_cart', 'purchase', 'conversion', 'rate', 'skip', 'hover'),
        timestamp: isoRecent,
        resultId: id,
        queryHash: id,
        engagementType: short,
        customMetadata: fc.record(
          {
            position: fc.integer({ min: 1, max: 50 }),
            timeToClick: fc.integer({ min: 0, max: 600_000 }),
            dwellTime: fc.integer({ min: 0, max: 600_000 }),
            scrollDepth: fraction,
            deviceType: short,
            searchType: short,
            category: id,
            language: short,
            viewport: fc.record({ width: fc.integer({ min: 1, max: 4000 }), height: fc.integer({ min: 1, max: 4000 }) }),
            experimentTag: fc.string({ maxLength: 12 }),
            nested: fc.constant({ a: { b: 1 } }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['userAction'] },
    ),
  },
  { requiredKeys: ['queryId', 'metadata'] },
);

const feedbackBody = fc.record({ sessionId: id, feedback: fc.array(feedbackItem, { minLength: 1, maxLength: 3 }) });

const variants = fc.constantFrom(
  [{ id: 'control' }, { id: 'treatment' }],
  [
    { id: 'a', weight: 0.5, config: { layout: 'list' } },
    { id: 'b', weight: 0.5, name: 'B', config: { layout: 'grid' } },
  ],
  [
    { id: 'a', weight: 0.2 },
    { id: 'b', weight: 0.3 },
    { id: 'c', weight: 0.5 },
  ],
);
const conditions = fc.constantFrom(
  { country: 'US' },
  { $and: [{ country: 'US' }, { age: { $gt: 18 } }] },
  { tier: { $in: ['gold', 'silver'] } },
  { $not: { country: 'FR' } },
  { $or: [{ age: { $lte: 30 } }, { tags: { $nin: ['x'] } }] },
);
const analysis = fc.record(
  {
    method: fc.constantFrom('fixed', 'sequential'),
    alpha: fc.constantFrom(0.01, 0.05, 0.1),
    correction: fc.constantFrom('holm', 'benjamini-hochberg', 'none'),
    sequentialTuning: fc.integer({ min: 1, max: 100_000 }),
    mde: fc.constantFrom(0.01, 0.05, 0.2),
    bayesianPrior: fc.constantFrom('improper', 'proper'),
    cuped: fc.boolean(),
    scale: fc.constantFrom('relative', 'absolute'),
    guardrails: fc.array(
      fc.record(
        {
          metric: fc.constantFrom(...METRIC_NAMES),
          margin: fc.constantFrom(0, 0.02, 0.5),
          direction: fc.constantFrom('higher', 'lower'),
          scale: fc.constantFrom('relative', 'absolute'),
          autoPause: fc.boolean(),
        },
        { requiredKeys: ['metric', 'margin'] },
      ),
      { maxLength: 2 },
    ),
    dimensions: fc.subarray(['deviceType', 'searchType', 'language', 'category']),
    capping: fc.constantFrom(
      {},
      { dwell_time: { type: 'percentile', value: 0.99 } },
      { time_to_click: { type: 'absolute', value: 60_000 } },
    ),
    priors: fc.constantFrom({}, { ctr: { mean: 0, stdDev: 0.1 } }, { dwell_time: { mean: 0, stdDev: 1000, scale: 'absolute' } }),
  },
  { requiredKeys: [] },
);
const configurationFields = {
  variants,
  trafficAllocation: positive,
  targetMetrics: fc.subarray([...METRIC_NAMES], { minLength: 1 }),
  seed: fc.string({ minLength: 1, maxLength: 20 }),
  layer: fc.record({ id: fc.constantFrom('l1', 'l2'), range: fc.constantFrom([0, 0.5], [0.5, 1], [0, 1]) }),
  conditions,
  controlVariantId: fc.constantFrom('a', 'control', 'b'),
  analysis,
};
const experimentBody = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 30 }).map((s) => `fuzz ${s}`),
    description: fc.string({ maxLength: 40 }),
    startDate: isoAny,
    endDate: isoAny,
    configuration: fc.record(configurationFields, { requiredKeys: ['variants'] }),
  },
  { requiredKeys: ['name', 'configuration'] },
);
const patchBody = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 30 }).map((s) => `patched ${s}`),
    description: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
    startDate: fc.option(isoAny, { nil: null }),
    endDate: fc.option(isoAny, { nil: null }),
    configuration: fc.record(configurationFields, { requiredKeys: [] }),
    newPhase: fc.boolean(),
  },
  { requiredKeys: [] },
);
const concludeBody = fc.record(
  {
    decision: fc.constantFrom('ship', 'rollback', 'inconclusive'),
    winnerVariantId: fc.constantFrom('a', 'b', 'control', 'treatment'),
    notes: fc.string({ maxLength: 40 }),
    force: fc.boolean(),
    promote: fc.record({ alias: fc.oneof(fc.constantFrom('production', 'canary'), fc.string({ minLength: 1, maxLength: 12 })) }),
  },
  { requiredKeys: ['decision'] },
);
const assignBody = fc.record(
  {
    unitId: id,
    attributes: fc.record(
      {
        country: fc.constantFrom('US', 'FR'),
        age: fc.integer({ min: 0, max: 99 }),
        tier: fc.constantFrom('gold', 'silver', 'bronze'),
        tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
        covariates: fc.dictionary(metric, fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxKeys: 3 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['unitId'] },
);

const modelConfigs = {
  click_model: [
    { algorithm: 'pbm' },
    { algorithm: 'ubm', maxDepth: 5, iterations: 20, retrainEvery: '24h', window: '30d' },
    { algorithm: 'dbn' },
  ],
  ranker: [
    { trainingData: 'dataset', numTrees: 10, learningRate: 0.1 },
    { numTrees: 20, numLeaves: 7, seed: 3 },
  ],
  engagement_predictor: [{ target: 'satisfied_click', numTrees: 10 }, { target: 'click' }],
} as const;
const modelBody = fc.constantFrom(...MODEL_TYPES).chain((type) =>
  fc.record(
    {
      modelId: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,20}$/),
      name: fc.string({ minLength: 1, maxLength: 30 }).map((s) => `model ${s}`),
      type: fc.constant(type),
      config: fc.constantFrom(...modelConfigs[type]),
    },
    { requiredKeys: ['name', 'type'] },
  ),
);
const rankBody = fc.record(
  {
    queryHash: id,
    context: fc.record(
      {
        deviceType: short,
        searchType: short,
        language: short,
        viewport: fc.record({ width: fc.integer({ min: 1, max: 4000 }), height: fc.integer({ min: 1, max: 4000 }) }),
        hour: fc.integer({ min: 0, max: 23 }),
      },
      { requiredKeys: [] },
    ),
    results: fc.array(
      fc.record(
        {
          resultId: id,
          position: fc.integer({ min: 1, max: 20 }),
          category: id,
          features: fc.dictionary(fc.constantFrom('1', '2', '3', '4', 'bm25'), fc.double({ min: -10, max: 10, noNaN: true }), {
            maxKeys: 4,
          }),
        },
        { requiredKeys: ['resultId'] },
      ),
      { minLength: 1, maxLength: 5 },
    ),
  },
  { requiredKeys: ['results'] },
);
const powerBody = (experimentIds: string[]) =>
  fc.record(
    {
      metric: fc.oneof(metric, fc.constantFrom('revenue', 'ctr ')),
      baseline: fraction,
      stdDev: fc.double({ min: 0.01, max: 10, noNaN: true }),
      mde: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
      alpha: fc.constantFrom(0.01, 0.05, 0.1),
      power: fc.constantFrom(0.5, 0.8, 0.95),
      variants: fc.integer({ min: 2, max: 5 }),
      trafficAllocation: positive,
      dailySessions: fc.integer({ min: 1, max: 1_000_000 }),
      experimentId: fc.constantFrom(...experimentIds, 'missing'),
    },
    { requiredKeys: ['metric', 'mde'] },
  );
/**
 * src/stats/planning/power.ts never returns when (mde·baseline/stdDev)² underflows to 0: its bisection
 * starts from hi = Infinity and halves it forever (regressions.test.ts).
 */
export function powerSolverHangs(req: FuzzRequest): boolean {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(String(req.payload)) as Record<string, unknown>;
  } catch {
    return false;
  }
  const { baseline, stdDev, mde } = body ?? {};
  if (typeof baseline !== 'number' || typeof mde !== 'number') return false;
  const sd = typeof stdDev === 'number' ? stdDev : Math.sqrt(baseline * (1 - baseline));
  const effect = Math.abs(mde * baseline) / sd;
  return effect > 0 && Number.isFinite(effect) && !Number.isFinite(100 / effect ** 2);
}

const letor = fc.integer({ min: 1, max: 1_000 }).map((seed) => syntheticLetor({ queries: 3, docsPerQuery: 3, features: 3, seed }));

const EXP = '/api/nous/ab-testing/experiments';
const MODELS = '/api/nous/learn/models';

// UBI 1.3.0 documents, valid and not (issue 14).
const ubiEvent = fc.record(
  {
    action_name: fc.oneof(fc.constantFrom('click', 'impression', 'click_through', 'add_to_cart'), fc.string({ maxLength: 120 })),
    timestamp: fc.oneof(isoRecent, isoAny, fc.constantFrom('2018-11-13T20:20:39', 'yesterday')),
    query_id: id,
    session_id: id,
    client_id: id,
    event_attributes: fc.record(
      {
        position: fc.oneof(
          fc.record({ ordinal: fc.integer({ min: -2, max: 20_000 }) }),
          fc.record({ xy: fc.record({ x: fc.double(), y: fc.double() }) }),
        ),
        object: fc.record({ object_id: fc.oneof(id, fc.integer(), fc.double()) }, { requiredKeys: [] }),
        dwell_time: fc.oneof(fc.integer({ min: -5, max: 100_000_000 }), fc.string()),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const ubiQuery = fc.record(
  {
    user_query: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
    query_id: id,
    client_id: id,
    timestamp: fc.oneof(isoRecent, fc.string()),
    query_response_hit_ids: fc.oneof(fc.array(id, { maxLength: 30 }), fc.array(fc.anything(), { maxLength: 3 })),
    query_attributes: fc.oneof(fc.object(), fc.anything()),
  },
  { requiredKeys: [] },
);
const ubiBody = (doc: fc.Arbitrary<unknown>) => fc.oneof(doc, fc.array(doc, { maxLength: 5 }), fc.anything());

export function feedbackSpecs(fx: Fixtures): RouteSpec[] {
  const feedbackId = fc.oneof(
    fc.constantFrom(...fx.feedbackIds),
    fc.constantFrom('01HZZZZZZZZZZZZZZZZZZZZZZZ', 'x'),
    fc.string({ minLength: 1, maxLength: 64 }),
  );
  const sessionId = fc.oneof(fc.constantFrom(...fx.sessionIds), id);
  return [
    {
      method: 'POST',
      path: '/api/cortex/feedback',
      body: feedbackBody,
      headers: { 'idempotency-key': fc.constantFrom('k-1', 'k-2', 'k-3') },
      runs: 250,
    },
    { method: 'GET', path: '/api/cortex/feedback/{feedbackId}', params: { feedbackId } },
    {
      method: 'GET',
      path: '/api/cortex/feedback',
      query: {
        sessionId,
        queryId: id,
        since: isoAny,
        until: isoAny,
        order: fc.constantFrom('oldest', 'newest'),
        limit: limit(1000),
        cursor,
      },
    },
    // Erasing is a valid request that changes the database: keep the fixture sessions mostly.
    { method: 'DELETE', path: '/api/cortex/feedback', query: { sessionId: fc.oneof(id, fc.constantFrom('nobody')) } },
    { method: 'POST', path: '/api/cortex/ubi/events', body: ubiBody(ubiEvent), runs: 150 },
    { method: 'POST', path: '/api/cortex/ubi/queries', body: ubiBody(ubiQuery), runs: 150 },
    {
      method: 'POST',
      path: '/api/cortex/feedback/import',
      body: fc.record(
        {
          format: fc.constantFrom('auto', 'feedback', 'ubi', 'csv', 'xml'),
          csvHeader: fc.oneof(fc.constant(['sessionId', 'queryId', 'userAction', 'rating']), fc.array(fc.string(), { maxLength: 4 })),
          lines: fc.array(
            fc.record({
              line: fc.integer({ min: -1, max: 100 }),
              text: fc.oneof(
                fc.json(),
                ubiEvent.map((d) => JSON.stringify(d)),
                feedbackBody.map((b) => JSON.stringify(b)),
                fc.constantFrom('s-1,q-1,click,', 's-1,q-1,,4', '"unbalanced,x', ''),
              ),
            }),
            { maxLength: 6 },
          ),
        },
        { requiredKeys: ['lines'] },
      ),
      runs: 150,
    },
    {
      method: 'GET',
      path: '/api/cortex/feedback/export',
      query: { format: fc.constantFrom('ubi', 'ndjson', 'csv', 'xml'), sessionId, since: isoAny, until: isoAny, cursor },
      rawSuccess: true,
      runs: 100,
    },
  ];
}

export function platformSpecs(): RouteSpec[] {
  return [
    { method: 'GET', path: '/healthz', runs: 60 },
    { method: 'GET', path: '/readyz', runs: 60 },
    { method: 'GET', path: '/api/system', runs: 40 },
    { method: 'GET', path: '/openapi.json', rawSuccess: true, runs: 40 },
  ];
}

export function experimentSpecs(fx: Fixtures): RouteSpec[] {
  const experimentId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.experimentIds) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  );
  const params = { experimentId };
  const lifecycle = (action: string): RouteSpec => ({ method: 'POST', path: `${EXP}/{experimentId}/${action}`, params, runs: 100 });
  // Destructive lifecycle actions come last so the other endpoints meet experiments in every state.
  return [
    { method: 'POST', path: EXP, body: experimentBody, runs: 250 },
    { method: 'GET', path: `${EXP}/{experimentId}`, params, runs: 100 },
    { method: 'GET', path: EXP, query: { status: fc.constantFrom(...EXPERIMENT_STATES), limit: limit(200), cursor }, runs: 100 },
    { method: 'POST', path: `${EXP}/{experimentId}/assign`, params, body: assignBody, runs: 200 },
    { method: 'POST', path: '/api/nous/ab-testing/assign', body: assignBody, runs: 200 },
    {
      method: 'GET',
      path: `${EXP}/{experimentId}/results`,
      params,
      query: {
        method: fc.constantFrom('fixed', 'sequential'),
        alpha: fc.constantFrom('0.05', '0.1', '0.5'),
        correction: fc.constantFrom('holm', 'benjamini-hochberg', 'none'),
        phase: fc.constantFrom('0', '1', '2'),
        scale: fc.constantFrom('relative', 'absolute'),
        dimension: fc.constantFrom('deviceType', 'searchType', 'language', 'category'),
        capping: fc.constantFrom('on', 'off'),
      },
      runs: 100,
    },
    { method: 'POST', path: '/api/nous/ab-testing/power', body: powerBody(fx.experimentIds), runs: 200, knownHang: powerSolverHangs },
    { method: 'GET', path: `${EXP}/{experimentId}/events`, params, query: { limit: limit(500), cursor }, runs: 100 },
    {
      method: 'GET',
      path: '/api/nous/ab-testing/queries/{queryHash}/experiments',
      params: { queryHash: fc.oneof(fc.constantFrom('shoes', 'q-1'), id) },
      query: { limit: limit(100), cursor },
      runs: 100,
    },
    { method: 'PATCH', path: `${EXP}/{experimentId}`, params, body: patchBody, runs: 250 },
    lifecycle('start'),
    lifecycle('pause'),
    lifecycle('resume'),
    { method: 'POST', path: `${EXP}/{experimentId}/conclude`, params, body: concludeBody, runs: 150 },
    lifecycle('stop'),
    lifecycle('archive'),
  ];
}

export function learningSpecs(fx: Fixtures): RouteSpec[] {
  const modelId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.modelIds) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  );
  const params = { modelId };
  return [
    { method: 'POST', path: MODELS, body: modelBody, runs: 200 },
    { method: 'GET', path: `${MODELS}/{modelId}`, params, runs: 100 },
    {
      method: 'GET',
      path: MODELS,
      query: { type: fc.constantFrom(...MODEL_TYPES), status: fc.constantFrom(...MODEL_STATUSES), limit: limit(200), cursor },
      runs: 100,
    },
    { method: 'GET', path: `${MODELS}/{modelId}/versions`, params, query: { limit: limit(200), cursor }, runs: 100 },
    {
      method: 'POST',
      path: `${MODELS}/{modelId}/rank`,
      params,
      query: { explain: fc.constantFrom('true', 'false') },
      body: rankBody,
      runs: 200,
    },
    {
      method: 'GET',
      path: `${MODELS}/{modelId}/judgments`,
      params,
      query: {
        format: fc.constantFrom('json', 'ranklib', 'csv'),
        minImpressions: fc.constantFrom('1', '10', '1000000'),
        grades: fc.constantFrom('fixed', 'quantile'),
      },
      rawSuccess: true,
      runs: 100,
    },
    {
      method: 'GET',
      path: `${MODELS}/{modelId}/export`,
      params,
      query: { format: fc.constantFrom('xgboost-json', 'ltr-plugin', 'native') },
      rawSuccess: true,
      runs: 100,
    },
    // Heavy: a valid upload parses the file and queues training, so keep unmutated uploads rare.
    { method: 'POST', path: `${MODELS}/{modelId}/dataset`, params, text: letor, validWeight: 1, runs: 150 },
    {
      method: 'POST',
      path: `${MODELS}/{modelId}/train`,
      params,
      body: fc.record({ force: fc.boolean() }, { requiredKeys: [] }),
      validWeight: 1,
      runs: 150,
    },
    // Issue 26: offline evaluation and position bias.
    { method: 'POST', path: EVALUATIONS, body: evaluationBody(modelId), runs: 150 },
    { method: 'GET', path: EVALUATIONS, query: { modelId, limit: limit(200), cursor }, runs: 60 },
    { method: 'GET', path: `${EVALUATIONS}/{evaluationId}`, params: { evaluationId: id }, runs: 60 },
    { method: 'GET', path: `${EVALUATIONS}/track-record`, runs: 20 },
    {
      method: 'GET',
      path: '/api/nous/learn/position-bias',
      query: { from: isoRecent, to: fc.oneof(isoRecent, fc.constant(String(NOW))), dimension: fc.constant('deviceType') },
      runs: 80,
    },
  ];
}

const EVALUATIONS = '/api/nous/learn/evaluations';

function evaluationBody(modelId: fc.Arbitrary<string>) {
  const source = fc.oneof(
    fc.record({ modelId, version: fc.integer({ min: 1, max: 3 }) }, { requiredKeys: ['modelId'] }),
    fc.record({ alias: fc.constantFrom('production', 'staging') }),
    fc.record({ rankings: fc.dictionary(id, fc.array(id, { minLength: 1, maxLength: 5 }), { minKeys: 1, maxKeys: 3 }) }),
  );
  return fc.record(
    {
      name: short,
      candidate: source,
      baseline: source,
      from: isoRecent,
      to: fc.constant(new Date(NOW).toISOString()),
      metrics: fc.subarray(['mrr', 'clicks_per_search', 'ctr@10', 'abandonment_rate', 'satisfied_clicks'], { minLength: 1 }),
      estimator: fc.constantFrom('ips', 'snips', 'dm-pbm', 'dm-dbn', 'dr'),
      depth: fc.integer({ min: 1, max: 50 }),
    },
    { requiredKeys: ['candidate', 'from', 'to'] },
  );
}

const ANALYTICS = '/api/cortex/analytics';

export function analyticsSpecs(): RouteSpec[] {
  const window = {
    from: isoAny,
    to: isoAny,
    dimension: fc.constantFrom('deviceType', 'searchType', 'language', 'category', 'colour'),
    value: fc.constantFrom('mobile', 'en', ''),
  };
  const interval = fc.constantFrom('hour', 'day', 'week');
  return [
    { method: 'GET', path: `${ANALYTICS}/overview`, query: { ...window, interval }, runs: 100 },
    {
      method: 'GET',
      path: `${ANALYTICS}/queries`,
      query: {
        ...window,
        sort: fc.constantFrom('searches', 'ctr', 'abandonment', 'firstClickPosition', 'change', 'zeroResults', 'nope'),
        order: fc.constantFrom('asc', 'desc'),
        minSearches: fc.integer({ min: -1, max: 20 }).map(String),
        limit: limit(200),
        cursor,
      },
      runs: 100,
    },
    {
      method: 'GET',
      path: `${ANALYTICS}/queries/{queryHash}`,
      params: { queryHash: fc.oneof(fc.constantFrom('h-running-shoes', 'shoes'), fc.string({ minLength: 1, maxLength: 64 })) },
      query: { ...window, interval, model: fc.constantFrom('default', 'nope') },
      runs: 100,
    },
    // Issue 25: one query's top k under two rankers.
    {
      method: 'GET',
      path: `${ANALYTICS}/queries/{queryHash}/side-by-side`,
      params: { queryHash: fc.oneof(fc.constantFrom('h-running-shoes', 'shoes'), fc.string({ minLength: 1, maxLength: 64 })) },
      query: {
        ...window,
        left: fc.constantFrom('original', 'alias:production', 'model:m', 'model:m@1', 'engine'),
        right: fc.constantFrom('original', 'alias:production', 'alias:nope', 'model:m', 'model:m@2', 'model:', 'alias:Prod'),
        k: fc.constantFrom('1', '10', '50', '51', '0', 'x'),
        model: fc.constantFrom('default', 'nope'),
      },
      runs: 100,
    },
  ];
}

const searchRankBody = fc.record(
  {
    unitId: id,
    queryId: id,
    queryHash: id,
    results: fc.array(
      fc.record(
        { resultId: id, features: fc.dictionary(fc.constantFrom('1', '2', '3'), fc.double({ min: -10, max: 10, noNaN: true })) },
        { requiredKeys: ['resultId'] },
      ),
      { minLength: 1, maxLength: 12 },
    ),
    attributes: fc.record({ country: short, covariates: fc.record({ ctr: fraction }, { requiredKeys: [] }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['unitId', 'queryId', 'results'] },
);
const interleaveBody = fc.record({
  unitId: id,
  queryId: id,
  rankings: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'control', 'treatment'), fc.array(id, { maxLength: 8 }), {
    minKeys: 1,
    maxKeys: 3,
  }),
});
const aliasName = fc.oneof(fc.constantFrom('production', 'staging', 'canary'), fc.string({ minLength: 1, maxLength: 20 }));

/** Issue 10: the search-time call, external interleaving and model aliases. */
export function closedLoopSpecs(fx: Fixtures): RouteSpec[] {
  const experimentId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.experimentIds) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  );
  const modelId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fx.modelIds) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 64 }) },
  );
  return [
    { method: 'POST', path: '/api/nous/rank', body: searchRankBody, runs: 200 },
    { method: 'POST', path: `${EXP}/{experimentId}/interleave`, params: { experimentId }, body: interleaveBody, runs: 150 },
    {
      method: 'PUT',
      path: '/api/nous/learn/aliases/{alias}',
      params: { alias: aliasName },
      body: fc.record(
        {
          modelId: fc.oneof({ weight: 4, arbitrary: modelId }, { weight: 1, arbitrary: fc.constant(null) }),
          version: fc.integer({ min: 1, max: 5 }),
          reason: short,
        },
        { requiredKeys: ['modelId'] },
      ),
      runs: 150,
    },
    { method: 'DELETE', path: '/api/nous/learn/aliases/{alias}', params: { alias: aliasName }, query: { reason: short }, runs: 80 },
    { method: 'GET', path: '/api/nous/learn/aliases/{alias}', params: { alias: aliasName }, runs: 80 },
    { method: 'GET', path: '/api/nous/learn/aliases', query: { limit: limit(200), cursor }, runs: 80 },
    {
      method: 'GET',
      path: '/api/nous/learn/aliases/{alias}/events',
      params: { alias: aliasName },
      query: { limit: limit(200), cursor },
      runs: 80,
    },
  ];
}

export function allSpecs(fx: Fixtures = NO_FIXTURES): RouteSpec[] {
  return [
    ...platformSpecs(),
    ...feedbackSpecs(fx),
    ...experimentSpecs(fx),
    ...learningSpecs(fx),
    ...closedLoopSpecs(fx),
    ...analyticsSpecs(),
  ];
}
