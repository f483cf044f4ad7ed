import { runCell, type CellSpec, type Method } from './cell.ts';
import { featureMaps } from './service.ts';
import { trainVariant, TODAY, type Variant } from './feedback-variants.ts';
import { methodTable } from './table.ts';
const V: [string, Variant][] = [
  ['no behaviour, min 1', { ...TODAY, behaviour: 'none', minImpressions: 1 }],
  ['impressions only, min 1', { ...TODAY, behaviour: 'impressions', minImpressions: 1 }],
  ['impressions only', { ...TODAY, behaviour: 'impressions' }],
  ['no behaviour, min 3', { ...TODAY, behaviour: 'none', minImpressions: 3 }],
];
const methods = Object.fromEntries(V.map(([n, v]) => [n, ((ctx) => ctx.evaluate(trainVariant(ctx.world, ctx.cols(), v, ctx.features))) as Method]));
const specs: CellSpec[] = [];
for (const sessions of [10000, 100000]) for (const eta of [1, 2]) for (const logger of ['weak', 'good'] as const) for (const seed of [1, 2, 3]) specs.push({ users: { kind: 'pbm', eta }, logger, sessions, seed });
const rs = specs.map((s) => runCell(s, methods, featureMaps));
const names = V.map((v) => v[0]);
console.log('valid'); console.log(methodTable(rs, names, (s) => s.valid));
console.log('test'); console.log(methodTable(rs, names, (s) => s.test));
console.log('tail'); console.log(methodTable(rs, names, (s) => s.tail));
