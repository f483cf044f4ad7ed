import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../../common/errors.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { QueryHashParams } from '../analytics.schemas.js';
import { SideBySideQuery, SideBySideView } from './side-by-side.schemas.js';
import type { SideBySideService } from './side-by-side.service.js';

export interface SideBySideRoutesOptions {
  sideBySideService: Pick<SideBySideService, 'compare'>;
}

export const sideBySideRoutes: FastifyPluginAsyncTypebox<SideBySideRoutesOptions> = async (app, { sideBySideService }) => {
  app.get(
    '/api/cortex/analytics/queries/:queryHash/side-by-side',
    {
      schema: {
        tags: ['analytics'],
        summary:
          "One query's top k under two rankers (the engine's order, an alias, a model version) with the click model's relevance and what moved",
        params: QueryHashParams,
        querystring: SideBySideQuery,
        response: { 200: Envelope(SideBySideView), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const q = request.query;
      if (q.dimension !== undefined && q.value === undefined)
        throw ValidationError.field('/value', 'is required with dimension', 'querystring');
      if (q.dimension === undefined && q.value !== undefined)
        throw ValidationError.field('/dimension', 'is required with value', 'querystring');
      return ok(await sideBySideService.compare(request.params.queryHash, q));
    },
  );
};
