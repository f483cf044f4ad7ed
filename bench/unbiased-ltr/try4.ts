import { worldOf } from './cell.ts';
import { featureMaps, feedbackColumns } from './service.ts';
import { simulateLog } from './simulate.ts';
import { makeLogger, ndcg10 } from './world.ts';
import { fitClickModel } from '../../src/click-models/index.ts';
import { buildSessions } from '../../src/learning/training/runs/sessions.ts';
const { world, split, features } = worldOf(1, featureMaps);
for (const lg of ['good','weak'] as const) for (const eta of [1, 2]) {
const logger = makeLogger(world, split, lg, 1);
const log = simulateLog(world, logger, { kind: 'pbm', eta }, 100000, 1);
const cols = feedbackColumns(world, log, features);
const { sessions } = buildSessions(cols, 10);
const m = fitClickModel(sessions, { algorithm: 'pbm' }) as any;
const alpha = new Map<string, number>(); const ctr = new Map<string, number>();
for (const e of m.estimates()) { alpha.set(e.resultId, e.relevance); ctr.set(e.resultId, e.clicks / e.impressions); }
// only shown docs
const qs = split.test; let err = 0, n = 0;
const sA = new Float64Array(world.grade.length).fill(-1e9), sC = new Float64Array(world.grade.length).fill(-1e9);
for (let r = 0; r < world.grade.length; r++) { const d = world.docIds[r]; if (alpha.has(d)) { sA[r] = alpha.get(d)!; sC[r] = ctr.get(d)!; err += (alpha.get(d)! - world.attract[r])**2; n++; } }
console.log(lg, eta, 'ndcg alpha', ndcg10(world, sA, qs).toFixed(3), 'ndcg ctr', ndcg10(world, sC, qs).toFixed(3), 'rmse alpha', Math.sqrt(err/n).toFixed(3), 'pos curve', JSON.stringify(m.toJSON().examination?.slice?.(0,10) ?? Object.keys(m.toJSON())));
}
