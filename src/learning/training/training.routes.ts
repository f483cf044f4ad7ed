import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { TrainBody } from './training.schemas.js';
import type { TrainingService } from './training.service.js';
import { ModelIdParams, TrainingJobView } from '../model/learning.schemas.js';

export interface TrainingRoutesOptions {
  trainingService: Pick<TrainingService, 'requestTraining'>;
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
};
