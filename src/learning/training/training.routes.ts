import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { TrainBody, TrainingJobView, VersionListQuery, VersionPage } from './learning.schemas.js';
import { ModelIdParams } from './model.schemas.js';
import type { TrainingService } from './training.service.js';

export interface TrainingRoutesOptions {
  trainingService: Pick<TrainingService, 'requestTraining' | 'listVersions'>;
}

export const trainingRoutes: FastifyPluginAsyncTypebox<TrainingRoutesOptions> = async (app, { trainingService }) => {
  app.post(
    '/api/nous/learn/models/:modelId/train',
    {
      schema: {
        tags: ['models'],
        summary: 'Queue a training run (409 while one is queued or running)',
        params: ModelIdParams,
        body: TrainBody,
        response: { 202: Envelope(TrainingJobView), ...errorResponses(400, 404, 409, 415) },
      },
      // A bare `POST …/train` (no body at all) means the defaults.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request, reply) => reply.status(202).send(ok(await trainingService.requestTraining(request.params.modelId, request.body))),
  );

  app.get(
    '/api/nous/learn/models/:modelId/versions',
    {
      schema: {
        tags: ['models'],
        summary: "A model's trained versions, newest first, with metrics, window and counts",
        params: ModelIdParams,
        querystring: VersionListQuery,
        response: { 200: Envelope(VersionPage), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await trainingService.listVersions(request.params.modelId, request.query)),
  );
};
