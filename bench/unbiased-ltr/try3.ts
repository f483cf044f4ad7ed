import { worldOf } from './cell.ts';
import { featureMaps, feedbackColumns } from './service.ts';
import { simulateLog } from './simulate.ts';
import { makeLogger, ndcg10 } from './world.ts';
import { trainVariant, TODAY, type Variant } from './feedback-variants.ts';
const { world, split, features } = worldOf(1, featureMaps);
const V: [string, Variant][] = [
 ['today', TODAY],
 ['min1', { ...TODAY, minImpressions: 1 }],
 ['quantile', { ...TODAY, grades: 'quantile' }],
 ['linear', { ...TODAY, grades: 'linear' }],
 ['nobehav', { ...TODAY, behaviour: 'none' }],
 ['crossfit', { ...TODAY, behaviour: 'crossfit' }],
 ['nobehav+min1', { ...TODAY, behaviour: 'none', minImpressions: 1 }],
 ['nobehav+min1+linear', { minImpressions: 1, behaviour: 'none', grades: 'linear' }],
 ['crossfit+min1+linear', { minImpressions: 1, behaviour: 'crossfit', grades: 'linear' }],
];
for (const lg of ['good', 'weak'] as const) for (const n of [10000, 100000]) {
const logger = makeLogger(world, split, lg, 1);
const log = simulateLog(world, logger, { kind: 'pbm', eta: 1 }, n, 1);
const tail = split.test.filter(q => log.perQuery[q] < 20);
const cols = feedbackColumns(world, log, features);
for (const [name, v] of V) { const s = trainVariant(world, cols, v, features); console.log(lg, n, name.padEnd(22), ndcg10(world, s, split.test).toFixed(3), ndcg10(world, s, tail).toFixed(3), ndcg10(world, s, split.valid).toFixed(3)); }
}
