import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import {
  EvaluationAccepted,
  EvaluationCreateBody,
  EvaluationListQuery,
  EvaluationPage,
  EvaluationParams,
  EvaluationView,
  PositionBiasQuery,
  PositionBiasView,
  TrackRecordView,
} from './evaluation.schemas.js';
import type { EvaluationService } from './evaluation.service.js';

export interface EvaluationRoutesOptions {
  evaluationService: Pick<EvaluationService, 'create' | 'get' | 'list' | 'positionBias' | 'trackRecord'>;
}

// POST needs the admin scope (the guard's default for writes: an evaluation reads every logged
// search of the window and scores it with a model); GETs need read.
export const evaluationRoutes: FastifyPluginAsyncTypebox<EvaluationRoutesOptions> = async (app, { evaluationService }) => {
  app.post(
    '/api/nous/learn/evaluations',
    {
      schema: {
        tags: ['evaluations'],
        summary:
          "Predict a candidate ranking's online effect from logged feedback (offline evaluation): 201 with the answer, or 202 when the window holds more than 50 000 searches (then GET it for progress)",
        body: EvaluationCreateBody,
        response: { 201: Envelope(EvaluationView), 202: Envelope(EvaluationAccepted), ...errorResponses(400, 404, 415) },
      },
    },
    async (request, reply) => {
      const answer = await evaluationService.create(request.body, actorOf(request));
      return answer.status === 201 ? reply.code(201).send(ok(answer.view)) : reply.code(202).send(ok(answer.accepted));
    },
  );

  app.get(
    '/api/nous/learn/evaluations/track-record',
    {
      schema: {
        tags: ['evaluations'],
        summary:
          'How good the offline predictions were: every evaluated model version later tested online, predicted beside observed lift, with the share inside the interval, sign agreement and rank correlation',
        response: { 200: Envelope(TrackRecordView) },
      },
    },
    async () => ok(await evaluationService.trackRecord()),
  );

  app.get(
    '/api/nous/learn/evaluations/:evaluationId',
    {
      schema: {
        tags: ['evaluations'],
        summary:
          'One offline evaluation: its status and progress, then per metric the candidate, baseline, difference and relative difference with 95 % intervals',
        params: EvaluationParams,
        response: { 200: Envelope(EvaluationView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await evaluationService.get(request.params.evaluationId)),
  );

  app.get(
    '/api/nous/learn/evaluations',
    {
      schema: {
        tags: ['evaluations'],
        summary: 'Offline evaluations, newest first',
        querystring: EvaluationListQuery,
        response: { 200: Envelope(EvaluationPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await evaluationService.list(request.query)),
  );

  app.get(
    '/api/nous/learn/position-bias',
    {
      schema: {
        tags: ['evaluations'],
        summary:
          "Position bias measured from the service's own traffic: examination by position relative to position 1 harvested from natural interventions (AllPairs), beside the PBM click model's curve on the same window",
        querystring: PositionBiasQuery,
        response: { 200: Envelope(PositionBiasView), ...errorResponses(400) },
      },
    },
    async (request) => ok(await evaluationService.positionBias(request.query)),
  );
};
