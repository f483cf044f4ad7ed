import { worldOf } from './cell.ts';
import { featureMaps, feedbackColumns, settingsOf, trainService } from './service.ts';
import { simulateLog } from './simulate.ts';
import { makeLogger, ndcg10 } from './world.ts';
const { world, split, features } = worldOf(1, featureMaps);
for (const sd of ['weak','good'] as const) { const l = makeLogger(world, split, sd, 1); const s = new Float64Array(world.grade.length); l.ranking.forEach(list=>list.forEach((r,i)=>s[r]=-i)); console.log(sd, ndcg10(world, s, split.test)); }
const logger = makeLogger(world, split, 'good', 1);
const log = simulateLog(world, logger, { kind: 'pbm', eta: 2 }, 100000, 1);
const cols = feedbackColumns(world, log, features);
for (const cfg of [{}, { minImpressions: 1 }]) {
const run = trainService(world, cols, settingsOf({ trainingData: 'feedback', ...cfg }), features);
const o = run.output as any;
console.log(JSON.stringify(cfg), ndcg10(world, run.scores, split.test), JSON.stringify(o.counts), JSON.stringify(o.metrics.ndcg), JSON.stringify(o.metrics.featureImportance.slice(0,8)));
}
