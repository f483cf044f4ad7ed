import fc from 'fast-check';
import { it } from 'vitest';
import { hostileQueryValue, hostileSegment, routerRejectedSegment } from './support/hostile.js';
import { sendAndCheck, type FuzzRequest } from './support/harness.js';
import { allSpecs, NO_FIXTURES, platformSpecs } from './support/routes.js';
import { describeFuzz } from './support/suite.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_601);
const templates = allSpecs(NO_FIXTURES).map((s) => s.path);
const withParams = allSpecs(NO_FIXTURES).filter((s) => s.path.includes('{'));

// Issue #6: health and OpenAPI endpoints, what the router refuses before any route runs, and
// paths or methods no route serves.
describeFuzz(
  'fuzzing platform endpoints and the router',
  async () => NO_FIXTURES,
  () => platformSpecs(),
  (get) => {
    it('a path parameter the router refuses (bad percent-encoding, over maxParamLength) is an enveloped 400 on every route', async () => {
      const request = fc
        .tuple(fc.constantFrom(...withParams), routerRejectedSegment, fc.constantFrom('', '?limit=5', `?x=${'%zz'}`))
        .map(([spec, segment, query]): FuzzRequest & { key: string } => ({
          key: `${spec.method} ${spec.path} (router)`,
          method: spec.method,
          url: `${spec.path.replace(/\{\w+\}/, segment).replace(/\{\w+\}/g, 'x')}${query}`,
          headers: spec.body ? { 'content-type': 'application/json' } : {},
          ...(spec.body ? { payload: '{}' } : {}),
        }));
      await fc.assert(
        fc.asyncProperty(request, async ({ key, ...req }) => sendAndCheck(get(), key, {}, req)),
        { seed: SEED, numRuns: 150, endOnFailure: true },
      );
    }, 120_000);

    it('an unknown path or method is an enveloped 404 (or a known route answering normally)', async () => {
      const twisted = fc
        .tuple(fc.constantFrom(...templates), fc.constantFrom('trailing', 'double', 'upper', 'extra', 'prefix', 'dots'))
        .map(([tpl, how]) => {
          const path = tpl.replace(/\{\w+\}/g, 'x');
          if (how === 'trailing') return `${path}/`;
          if (how === 'double') return path.replace('/api/', '/api//');
          if (how === 'upper') return path.toUpperCase();
          if (how === 'extra') return `${path}/extra`;
          if (how === 'prefix') return `/v1${path}`;
          return path.replace('/api/', '/api/./../api/');
        });
      const random = fc.array(hostileSegment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`);
      const request = fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
          fc.oneof(twisted, random),
          fc.option(hostileQueryValue, { nil: undefined }),
          fc.boolean(),
        )
        .filter(([, path]) => !path.toLowerCase().startsWith('/docs'))
        .map(([method, path, query, body]): FuzzRequest => ({
          method,
          url: query === undefined ? path : `${path}?q=${query}`,
          headers: body ? { 'content-type': 'application/json' } : {},
          ...(body ? { payload: '{"a":1}' } : {}),
        }));
      await fc.assert(
        fc.asyncProperty(request, async (req) =>
          sendAndCheck(get(), `${req.method} (unknown route)`, { rawSuccess: req.url.startsWith('/openapi.json') }, req),
        ),
        { seed: SEED, numRuns: 200, endOnFailure: true },
      );
    }, 120_000);
  },
);
