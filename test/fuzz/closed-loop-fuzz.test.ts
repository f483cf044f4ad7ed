import { expect } from 'vitest';
import { postJson } from '../support/http.js';
import type { TestApp } from '../support/test-app.js';
import { experimentFixtures } from './support/fixtures.js';
import { closedLoopSpecs, type Fixtures } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

/** The experiment fixtures plus a running interleaving experiment, so rank and interleave reach the interleaving path. */
async function closedLoopFixtures(t: TestApp): Promise<Fixtures> {
  const base = await experimentFixtures(t);
  const EXP = '/api/nous/ab-testing/experiments';
  const res = await postJson(t.app, EXP, {
    name: 'fixture interleaving',
    configuration: { type: 'interleaving', variants: [{ id: 'a' }, { id: 'b' }], layer: { id: 'ranking', range: [0, 1] } },
  });
  expect(res.statusCode).toBe(201);
  const id = res.body.data.experimentId as string;
  expect((await postJson(t.app, `${EXP}/${id}/start`, {})).statusCode).toBe(200);
  return { ...base, experimentIds: [...base.experimentIds, id] };
}

// Issue 10: POST /api/nous/rank, external interleaving and the model aliases, fuzzed like every route.
describeFuzz('fuzzing rank, interleave and alias endpoints', closedLoopFixtures, closedLoopSpecs);
