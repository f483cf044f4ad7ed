/**
 * The service-time floor of POST /api/nous/rank: the whole app (routing, parse, validation,
 * envelope, serving) in process with app.inject, sequential requests, no network and no
 * concurrency, on SQLite. Not the latency a client sees (bench/rank/run.ts measures that over
 * HTTP); what one request costs when nothing else runs. Run by bench/rank/run.ts in a child process.
 *
 *   node --import tsx bench/rank/floor.ts [--requests 500]
 */
import { numberOption } from '../support/args.js';
import { benchApp, percentile } from '../learning/support.js';
import { letorDataset, rankBody } from './bodies.js';

const REQUESTS = numberOption('requests', 500);
const M = '/api/nous/learn/models';
const E = '/api/nous/ab-testing/experiments';
const t = await benchApp();
const json = { 'content-type': 'application/json' };

async function ranker(modelId: string, numTrees: number, numLeaves: number): Promise<void> {
  const config = { trainingData: 'dataset', numTrees, numLeaves, learningRate: 0.1, minDataInLeaf: 5 };
  await t.app.inject({ method: 'POST', url: M, payload: { modelId, name: modelId, type: 'ranker', config } });
  await t.app.inject({
    method: 'POST',
    url: `${M}/${modelId}/dataset`,
    payload: letorDataset(),
    headers: { 'content-type': 'text/plain' },
  });
  await t.container.learning.services.trainingService.runUntilIdle();
}
async function experiment(name: string, configuration: Record<string, unknown>): Promise<string> {
  const id = (await t.app.inject({ method: 'POST', url: E, payload: { name, configuration } })).json().data.experimentId as string;
  await t.app.inject({ method: 'POST', url: `${E}/${id}/start` });
  return id;
}

/** Wall-clock and CPU time per request, sequential, after 100 warm-up requests; every request a new unit. */
async function measure(prefix: string): Promise<string> {
  const times: number[] = [];
  const cpu: number[] = [];
  let served = '';
  for (let i = 0; i < REQUESTS + 100; i += 1) {
    const payload = rankBody(`${prefix}-${i}`);
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    const res = await t.app.inject({ method: 'POST', url: '/api/nous/rank', payload, headers: json });
    if (res.statusCode !== 200) throw new Error(res.body);
    if (i < 100) continue;
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
    served = res.json().data.served.source;
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(2);
  return `${served} | ${REQUESTS} | ${f(percentile(times, 50))} | ${f(percentile(times, 99))} | ${f(percentile(cpu, 50))} |`;
}

await ranker('bench', 100, 31);
await ranker('bench2', 50, 15);
await t.app.inject({ method: 'PUT', url: '/api/nous/learn/aliases/production', payload: { modelId: 'bench' } });
const rows = [`| rank, production alias | ${await measure('alias')}`];
const ab = await experiment('bench ab', {
  variants: [
    { id: 'a', model: { modelId: 'bench' } },
    { id: 'b', model: { modelId: 'bench' } },
  ],
});
rows.push(`| rank, A/B arm | ${await measure('ab')}`);
await t.app.inject({ method: 'POST', url: `${E}/${ab}/stop` });
await experiment('bench draft', {
  type: 'interleaving',
  variants: [
    { id: 'small', model: { modelId: 'bench2' } },
    { id: 'large', model: { modelId: 'bench' } },
  ],
});
rows.push(`| rank, team draft of 2 rankers | ${await measure('draft')}`);
console.log('| case | served by | requests | p50 ms | p99 ms | CPU p50 ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
await t.close();
