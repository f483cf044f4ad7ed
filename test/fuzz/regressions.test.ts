import { describe, expect, it } from 'vitest';
import { moduleWorker } from '../../src/common/worker-threads.js';
import { expectError, getJson } from '../support/http.js';
import { useTestApp } from '../support/test-app.js';
import { describeOnEveryDatabase } from '../support/test-database.js';

/** Runs src/stats/planning/power.ts's sampleSize in a worker thread, so a call that never returns can be stopped. */
function sampleSizeWithin(input: object, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = moduleWorker(import.meta.url, './support/power-probe.worker', input);
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('no answer');
    }, ms);
    worker.once('message', (answer) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(answer);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

// Found by the fuzz suite (issue #6). The fuzzer skips these inputs (RouteSpec.knownHang) because
// they freeze the event loop; these tests fail instead of hanging until the code is fixed.
describe('regressions found by fuzzing', () => {
  it('POST /api/nous/ab-testing/power {"metric":"ctr","baseline":1e-300,"stdDev":1,"mde":0.01} answers instead of freezing the process', async () => {
    // Control: an ordinary input answers, so a "no answer" below is the loop, not a slow worker.
    expect(await sampleSizeWithin({ baselineMean: 0.1, stdDev: 1, mde: 0.05 }, 20_000)).toMatchObject({ reason: null });
    // (mde·baseline/stdDev)² underflows to 0, so the bisection starts at hi = Infinity and
    // `while (powerAt(lo) > power) lo /= 2` never ends (src/stats/planning/power.ts, solveNormalSampleSize).
    expect(await sampleSizeWithin({ baselineMean: 1e-300, stdDev: 1, mde: 0.01 }, 5_000)).not.toBe('no answer');
  }, 40_000);
});

describeOnEveryDatabase('regressions found by fuzzing', (kind) => {
  const t = useTestApp(kind);

  // decodeCursor (src/common/pagination.ts) accepts any 1–128 character key, U+0000 included,
  // and PostgreSQL refuses it in a text parameter: a 500 there (SQLite answers a page).
  it.each([
    ['/api/cortex/feedback', { k: 'a\u0000' }],
    ['/api/nous/learn/models', { k: '1.a\u0000' }],
    ['/api/nous/ab-testing/experiments', { k: '1.a\u0000' }],
  ])('GET %s with a cursor whose key holds U+0000 is not a 500', async (url, key) => {
    const cursor = Buffer.from(JSON.stringify(key)).toString('base64url');
    const res = await getJson(t.app, `${url}?cursor=${cursor}`);
    expect(res.statusCode, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.statusCode >= 400) expectError(res, 400, 'VALIDATION_ERROR', '/cursor');
  });
});
