/**
 * Latency of POST /api/nous/learn/models/{id}/rank: 100 results, a 100-tree (31-leaf) ranker
 * trained from an uploaded LETOR file, through the whole app (routing, validation, envelope)
 * with app.inject. Goal (issue #5): p95 under 10 ms.
 * And of the search-time call POST /api/nous/rank (issue 10; goal p95 under 15 ms for 100
 * results): served by the production alias, by an A/B arm with a pinned model (the exposure
 * written), and by a team-draft interleaving of two rankers (exposure and list written).
 * Run: npx tsx bench/learning/rank.ts [--requests 3000]
 */
import { mulberry32 } from '../../src/random/index.js';
import { machineLine } from '../support/processes.js';
import { printTable } from '../ranker/common.js';
import { benchApp, percentile } from './support.js';

const arg = process.argv.indexOf('--requests');
const REQUESTS = arg > 0 ? Number(process.argv[arg + 1]) : 3000;
const FEATURES = 40;
const rnd = mulberry32(42);

// 400 queries × 25 documents; labels follow a few features so the trees are full-sized.
const lines: string[] = [];
for (let q = 1; q <= 400; q += 1) {
  for (let d = 0; d < 25; d += 1) {
    const x = Array.from({ length: FEATURES }, () => Math.round(rnd() * 1000) / 1000);
    const label = Math.max(0, Math.min(4, Math.floor((x[0]! * 2 + x[1]! + x[2]! * x[3]! + rnd() * 0.5) * 1.3)));
    lines.push(`${label} qid:${q} ${x.map((v, j) => `${j + 1}:${v}`).join(' ')}`);
  }
}

const t = await benchApp();
const M = '/api/nous/learn/models';
await t.app.inject({
  method: 'POST',
  url: M,
  payload: {
    modelId: 'bench',
    name: 'bench',
    type: 'ranker',
    config: { trainingData: 'dataset', numTrees: 100, numLeaves: 31, learningRate: 0.1, minDataInLeaf: 5 },
  },
});
await t.app.inject({
  method: 'POST',
  url: `${M}/bench/dataset`,
  payload: `${lines.join('\n')}\n`,
  headers: { 'content-type': 'text/plain' },
});
await t.container.learning.services.trainingService.runUntilIdle();
const model = (await t.app.inject({ method: 'GET', url: `${M}/bench` })).json().data;
if (model.status !== 'ready') throw new Error(`model not ready: ${model.error}`);

const bodies = Array.from({ length: 32 }, () =>
  JSON.stringify({
    results: Array.from({ length: 100 }, (_, i) => ({
      resultId: `doc-${i}`,
      position: i + 1,
      features: Object.fromEntries(Array.from({ length: FEATURES }, (_, j) => [String(j + 1), Math.round(rnd() * 1000) / 1000])),
    })),
  }),
);

async function measure(explain: boolean): Promise<number[]> {
  const url = `${M}/bench/rank${explain ? '?explain=true' : ''}`;
  for (let i = 0; i < 200; i += 1)
    await t.app.inject({ method: 'POST', url, payload: bodies[i % 32], headers: { 'content-type': 'application/json' } });
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i += 1) {
    const start = process.hrtime.bigint();
    const res = await t.app.inject({ method: 'POST', url, payload: bodies[i % 32], headers: { 'content-type': 'application/json' } });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  return times.sort((a, b) => a - b);
}

await t.app.inject({
  method: 'POST',
  url: M,
  payload: {
    modelId: 'bench2',
    name: 'bench2',
    type: 'ranker',
    config: { trainingData: 'dataset', numTrees: 50, numLeaves: 15, learningRate: 0.1, minDataInLeaf: 5 },
  },
});
await t.app.inject({
  method: 'POST',
  url: `${M}/bench2/dataset`,
  payload: `${lines.join('\n')}\n`,
  headers: { 'content-type': 'text/plain' },
});
await t.container.learning.services.trainingService.runUntilIdle();

const searchBodies = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => {
    const body = JSON.parse(bodies[i % 32]!) as { results: { resultId: string; features: Record<string, number> }[] };
    return JSON.stringify({
      unitId: `${prefix}-unit-${i % 1000}`,
      queryId: `${prefix}-q-${i}`,
      results: body.results.map((r) => ({ resultId: r.resultId, features: r.features })),
    });
  });

/** Wall-clock times and the process's CPU time per request (less sensitive to other processes on a shared machine). */
async function measureSearch(prefix: string): Promise<{ times: number[]; cpu: number[]; served: string }> {
  const all = searchBodies(REQUESTS + 200, prefix);
  let served = '';
  for (let i = 0; i < 200; i += 1)
    await t.app.inject({ method: 'POST', url: '/api/nous/rank', payload: all[i], headers: { 'content-type': 'application/json' } });
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 200; i < all.length; i += 1) {
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/nous/rank',
      payload: all[i],
      headers: { 'content-type': 'application/json' },
    });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    if (res.statusCode !== 200) throw new Error(res.body);
    served = res.json().data.served.source;
  }
  return { times: times.sort((a, b) => a - b), cpu: cpu.sort((a, b) => a - b), served };
}

const E = '/api/nous/ab-testing/experiments';
const experiment = async (name: string, configuration: Record<string, unknown>) => {
  const id = (await t.app.inject({ method: 'POST', url: E, payload: { name, configuration } })).json().data.experimentId as string;
  const started = await t.app.inject({ method: 'POST', url: `${E}/${id}/start` });
  if (started.statusCode !== 200) throw new Error(started.body);
  return id;
};

const rows = [];
for (const explain of [false, true]) {
  const s = await measure(explain);
  rows.push([
    explain ? 'rank?explain=true' : 'rank',
    REQUESTS,
    percentile(s, 50).toFixed(2),
    percentile(s, 95).toFixed(2),
    percentile(s, 99).toFixed(2),
  ]);
}
await t.app.inject({ method: 'PUT', url: '/api/nous/learn/aliases/production', payload: { modelId: 'bench' } });
const searchRow = (label: string, r: { times: number[]; cpu: number[]; served: string }) => [
  label,
  REQUESTS,
  percentile(r.times, 50).toFixed(2),
  percentile(r.times, 95).toFixed(2),
  percentile(r.times, 99).toFixed(2),
  percentile(r.cpu, 50).toFixed(2),
  percentile(r.cpu, 95).toFixed(2),
];
rows.push(searchRow('/api/nous/rank (production alias)', await measureSearch('alias')));
const ab = await experiment('bench ab', { variants: [{ id: 'original' }, { id: 'ltr', model: { modelId: 'bench' } }] });
rows.push(searchRow('/api/nous/rank (A/B arm, exposure)', await measureSearch('ab')));
await t.app.inject({ method: 'POST', url: `${E}/${ab}/stop` });
await experiment('bench interleaving', {
  type: 'interleaving',
  variants: [
    { id: 'small', model: { modelId: 'bench2' } },
    { id: 'large', model: { modelId: 'bench' } },
  ],
});
rows.push(searchRow('/api/nous/rank (team draft of 2 rankers)', await measureSearch('il')));
console.log(
  `\nPOST …/rank, 100 results × ${FEATURES} features, ${model.metrics.trees} trees × 31 leaves, in-process (app.inject). ${machineLine()}\n`,
);
printTable(
  ['request', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU p50 ms', 'CPU p95 ms'],
  rows.map((r) => (r.length === 5 ? [...r, '', ''] : r)),
);
console.log(
  `load average at the end: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (2 cores)`,
);
await t.close();
