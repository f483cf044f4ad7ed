import { describe, expect, it } from 'vitest';
import { evaluate, splitByTime } from './evaluation/evaluate.js';
import { fitClickModel } from './fit.js';
import { restoreClickModel } from './model.js';
import { simulateClickLog } from './sessions/simulate.js';
import { CLICK_MODEL_ALGORITHMS, type SerializedClickModel } from './types.js';

const sim = simulateClickLog({ model: 'dbn', seed: 5, queries: 20, docsPerQuery: 12, sessions: 4000 });
const { train, heldOut } = splitByTime(sim.sessions, 0.25);
// include a pair and a query never seen in training
const probes = [...heldOut.slice(0, 50), { queryHash: 'q0', resultIds: ['new-doc', 'q0-d1'], clicks: [true, false] }];

describe.each(CLICK_MODEL_ALGORITHMS)('%s JSON round trip', (algorithm) => {
  const model = fitClickModel(train, { algorithm });
  const json = JSON.stringify(model);
  const restored = restoreClickModel(JSON.parse(json) as SerializedClickModel);

  it('gives identical predictions, estimates and evaluation', () => {
    for (const session of probes) {
      expect(restored.clickProbabilities(session)).toEqual(model.clickProbabilities(session));
    }
    expect(restored.estimates()).toEqual(model.estimates());
    expect(restored.examination).toEqual(model.examination);
    expect(evaluate(restored, heldOut)).toEqual(evaluate(model, heldOut));
  });

  it('is plain data (survives structuredClone, as across a worker boundary)', () => {
    const cloned = restoreClickModel(structuredClone(model.toJSON()));
    expect(cloned.clickProbabilities(probes[0] as (typeof probes)[number])).toEqual(
      model.clickProbabilities(probes[0] as (typeof probes)[number]),
    );
    expect(JSON.parse(json)).toMatchObject({ format: 'searchloop.click-model', version: 1, algorithm });
  });
});

describe('restoreClickModel', () => {
  it('rejects data that is not a click model', () => {
    expect(() => restoreClickModel({} as SerializedClickModel)).toThrow(TypeError);
    const good = fitClickModel(train, { algorithm: 'pbm' }).toJSON();
    expect(() => restoreClickModel({ ...good, algorithm: 'nope' } as unknown as SerializedClickModel)).toThrow(TypeError);
    expect(() => restoreClickModel({ ...good, pairs: { ...good.pairs, relevance: [] } } as SerializedClickModel)).toThrow(TypeError);
  });
});
