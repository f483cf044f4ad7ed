import { runCell, xgbMethods, feedbackMethod } from './cell.ts';
import { featureMaps } from './service.ts';
for (const sessions of [10000, 100000]) {
const t = performance.now();
const r = runCell({ users: { kind: 'pbm', eta: 2 }, logger: 'good', sessions, seed: 1 }, { ...xgbMethods(), feedback: feedbackMethod() }, featureMaps);
console.log(r.label, r.tailQueries, r.testQueries, r.harvested.map(x=>x.toFixed(2)).join(' '));
for (const [k, v] of Object.entries(r.scores)) console.log(k.padEnd(25), v.test.toFixed(3), v.tail.toFixed(3), v.valid.toFixed(3), v.seconds?.toFixed(1), v.note ?? '');
console.log('total', ((performance.now()-t)/1000).toFixed(1));
}
