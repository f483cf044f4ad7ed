import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExperimentIdParams } from '../model/experiment.schemas.js';
import type { PowerService } from '../planning/power.service.js';
import { PowerBody, PowerView, ResultsQuery, ResultsView } from './results.schemas.js';
import type { ResultsService } from './results.service.js';

export interface ResultsRoutesOptions {
  resultsService: Pick<ResultsService, 'results'>;
  powerService: Pick<PowerService, 'plan'>;
}

export const resultsRoutes: FastifyPluginAsyncTypebox<ResultsRoutesOptions> = async (app, { resultsService, powerService }) => {
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

  app.post(
    '/api/nous/ab-testing/power',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['experiments'],
        summary: 'Sessions per variant and days needed to detect a relative effect',
        body: PowerBody,
        response: { 200: Envelope(PowerView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await powerService.plan(request.body)),
  );
};
