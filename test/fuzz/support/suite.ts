import { afterAll, beforeAll, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/test-app.js';
import { type DatabaseKind, describeOnEveryDatabase } from '../../support/test-database.js';
import { createFuzzContext, fuzzRoute, resync, statusSummary, type FuzzContext, type RouteSpec } from './harness.js';
import { NO_FIXTURES, type Fixtures } from './routes.js';

const TIMEOUT_MS = 120_000;

/**
 * One `it` per endpoint, on every database: a fresh app, fixtures so path parameters often name
 * real rows, then the fuzzer (test/fuzz/support/harness.ts says what it checks). FUZZ_VERBOSE=1
 * prints the statuses each endpoint answered.
 */
export function describeFuzz(
  title: string,
  setup: (t: TestApp) => Promise<Fixtures>,
  specs: (fx: Fixtures) => RouteSpec[],
  extra?: (get: () => FuzzContext, kind: DatabaseKind) => void,
): void {
  describeOnEveryDatabase(title, (kind) => {
    let t: TestApp | undefined;
    let ctx: FuzzContext | undefined;
    let live: RouteSpec[] = [];
    beforeAll(async () => {
      t = await buildTestApp(kind);
      ctx = await createFuzzContext(t);
      live = specs(await setup(t));
      await resync(ctx);
    }, TIMEOUT_MS);
    afterAll(async () => {
      if (process.env.FUZZ_VERBOSE && ctx) console.log(`[${title} on ${kind}]\n${statusSummary(ctx)}`);
      await t?.close();
    });
    const get = () => {
      if (!ctx) throw new Error('setup failed');
      return ctx;
    };

    for (const { method, path } of specs(NO_FIXTURES)) {
      it(
        `${method} ${path}`,
        async () => {
          const spec = live.find((s) => s.method === method && s.path === path);
          if (!spec) throw new Error(`no live spec for ${method} ${path}`);
          await fuzzRoute(get(), spec);
        },
        TIMEOUT_MS,
      );
    }
    extra?.(get, kind);
  });
}
