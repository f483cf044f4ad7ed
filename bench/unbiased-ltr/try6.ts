import { worldOf } from './cell.ts';
import { featureMaps, feedbackColumns, settingsOf, trainService } from './service.ts';
import { simulateLog } from './simulate.ts';
import { makeLogger, ndcg10 } from './world.ts';
import { trainVariant, TODAY } from './feedback-variants.ts';
const { world, split, features } = worldOf(1, featureMaps);
for (const lg of ['good','weak'] as const) {
const logger = makeLogger(world, split, lg, 1);
const log = simulateLog(world, logger, { kind: 'pbm', eta: 2 }, 100000, 1);
const cols = feedbackColumns(world, log, features);
const a = trainVariant(world, cols, TODAY, features);
const b = trainService(world, cols, settingsOf({ trainingData: 'feedback' }), features).scores;
console.log(lg, ndcg10(world, a, split.test).toFixed(3), ndcg10(world, b, split.test).toFixed(3));
}
