import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExperimentCreateBody, ExperimentIdParams, ExperimentListQuery } from '../model/schemas/experiment.schemas.js';
import { ExperimentPage, ExperimentView } from '../model/schemas/experiment-view.schemas.js';
import type { ExperimentService } from './experiment.service.js';

export interface ExperimentRoutesOptions {
  experimentService: Pick<ExperimentService, 'create' | 'get' | 'list'>;
}

export const experimentRoutes: FastifyPluginAsyncTypebox<ExperimentRoutesOptions> = async (app, { experimentService }) => {
  app.post(
    '/api/nous/ab-testing/experiments',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Create an A/B experiment (status created)',
        body: ExperimentCreateBody,
        response: { 201: Envelope(ExperimentView), ...errorResponses(400, 409, 415) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await experimentService.create(request.body, actorOf(request)))),
  );

  app.get(
    '/api/nous/ab-testing/experiments/:experimentId',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Read one experiment',
        params: ExperimentIdParams,
        response: { 200: Envelope(ExperimentView), ...errorResponses(404) },
      },
    },
    async (request) => ok(await experimentService.get(request.params.experimentId)),
  );

  app.get(
    '/api/nous/ab-testing/experiments',
    {
      schema: {
        tags: ['experiments'],
        summary: 'List experiments, newest first',
        querystring: ExperimentListQuery,
        response: { 200: Envelope(ExperimentPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await experimentService.list(request.query)),
  );
};
