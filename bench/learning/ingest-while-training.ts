/**
 * Feedback ingestion throughput while a training job runs, against the same ingestion idle.
 * Training runs in a piscina worker thread; ingestion goes through the whole app in-process
 * (app.inject, 4 requests in flight, 100 items each). Goal (issue #5): within 25 %.
 * Run: npx tsx bench/learning/ingest-while-training.ts [--seconds 8]
 */
import { mulberry32 } from '../../src/random/index.js';
import { printTable } from '../ranker/common.js';
import { machineLine } from '../support/processes.js';
import { benchApp } from './support.js';

const arg = process.argv.indexOf('--seconds');
const SECONDS = arg > 0 ? Number(process.argv[arg + 1]) : 8;
const M = '/api/nous/learn/models';
const t = await benchApp();
const rnd = mulberry32(7);

let searches = 0;
function batch(): string {
  const feedback = [];
  for (let s = 0; s < 10; s += 1) {
    searches += 1;
    for (let r = 1; r <= 10; r += 1) {
      feedback.push({
        queryId: `s-${searches}`,
        metadata: {
          userAction: r === 3 && rnd() < 0.5 ? 'click' : 'impression',
          resultId: `doc-${Math.floor(rnd() * 500)}`,
          queryHash: `q-${searches % 200}`,
          customMetadata: { position: r },
        },
      });
    }
  }
  return JSON.stringify({ sessionId: `bench-${searches % 1000}`, feedback });
}

async function ingestFor(seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let items = 0;
  const start = Date.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (Date.now() < end) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/cortex/feedback',
          payload: batch(),
          headers: { 'content-type': 'application/json' },
        });
        if (res.statusCode !== 201) throw new Error(res.body);
        items += 100;
      }
    }),
  );
  return items / ((Date.now() - start) / 1000);
}

// A ranker on 60 000 rows × 60 features with 400 trees: long enough to outlast the measurement.
const lines: string[] = [];
for (let q = 1; q <= 2000; q += 1) {
  for (let d = 0; d < 30; d += 1) {
    const x = Array.from({ length: 60 }, () => Math.round(rnd() * 1000) / 1000);
    lines.push(`${Math.min(4, Math.floor((x[0]! + x[1]! * x[2]! + rnd()) * 2))} qid:${q} ${x.map((v, j) => `${j + 1}:${v}`).join(' ')}`);
  }
}
await t.app.inject({
  method: 'POST',
  url: M,
  payload: {
    modelId: 'busy',
    name: 'busy',
    type: 'ranker',
    config: { trainingData: 'dataset', numTrees: 400, numLeaves: 63, minDataInLeaf: 10 },
  },
});
await ingestFor(2); // warm-up
const idle = await ingestFor(SECONDS);

await t.app.inject({
  method: 'POST',
  url: `${M}/busy/dataset`,
  payload: `${lines.join('\n')}\n`,
  headers: { 'content-type': 'text/plain' },
});
const training = t.container.learning.services.trainingService.runUntilIdle();
const status = async () => (await t.app.inject({ method: 'GET', url: `${M}/busy` })).json().data.status as string;
while ((await status()) !== 'training') await new Promise((r) => setTimeout(r, 20));
await new Promise((r) => setTimeout(r, 1500)); // past reading the dataset, into the fit
const busy = await ingestFor(SECONDS);
const stillTraining = (await status()) === 'training';
const trainStarted = Date.now();
await training;
const model = (await t.app.inject({ method: 'GET', url: `${M}/busy` })).json().data;

console.log(
  `\nFeedback ingestion (items/s, 100 items per request, 4 in flight, ${SECONDS} s each), SQLite, in-process. ${machineLine()}\n`,
);
printTable(
  ['phase', 'items/s', 'vs idle'],
  [
    ['idle', Math.round(idle), '1.00'],
    [
      `while training (${stillTraining ? 'still training at the end' : 'TRAINING ENDED EARLY'})`,
      Math.round(busy),
      (busy / idle).toFixed(2),
    ],
  ],
);
console.log(
  `\nTraining job: ${model.status}, ${model.metrics.trees} trees, trainingSeconds ${Number(model.metrics.trainingSeconds).toFixed(1)} (finished ${((Date.now() - trainStarted) / 1000).toFixed(1)} s after the measurement).`,
);
await t.close();
