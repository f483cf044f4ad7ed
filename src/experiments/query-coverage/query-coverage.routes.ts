import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { QueryCoveragePage, QueryCoverageQuery, QueryHashParams } from './query-coverage.schemas.js';
import type { QueryCoverageService } from './query-coverage.service.js';

export interface QueryCoverageRoutesOptions {
  coverageService: Pick<QueryCoverageService, 'experimentsCovering'>;
}

export const queryCoverageRoutes: FastifyPluginAsyncTypebox<QueryCoverageRoutesOptions> = async (app, { coverageService }) => {
  app.get(
    '/api/nous/ab-testing/queries/:queryHash/experiments',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Experiments covering a query: per phase and variant its searches and abandonment, most recently seen first',
        params: QueryHashParams,
        querystring: QueryCoverageQuery,
        response: { 200: Envelope(QueryCoveragePage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await coverageService.experimentsCovering(request.params.queryHash, request.query)),
  );
};
