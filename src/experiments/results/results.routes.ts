import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';
import { ResultsQuery, ResultsView } from './results.schemas.js';
import type { ResultsService } from './results.service.js';

export interface ResultsRoutesOptions {
  resultsService: Pick<ResultsService, 'results'>;
}

export const resultsRoutes: FastifyPluginAsyncTypebox<ResultsRoutesOptions> = async (app, { resultsService }) => {
  app.get(
    '/api/nous/ab-testing/experiments/:experimentId/results',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Results per target metric and variant: lifts, intervals, adjusted p-values, SRM, power, series',
        params: ExperimentIdParams,
        querystring: ResultsQuery,
        response: { 200: Envelope(ResultsView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await resultsService.results(request.params.experimentId, request.query)),
  );
};
