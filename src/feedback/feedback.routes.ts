import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import {
  FeedbackDeleteQuery,
  FeedbackDeleteResult,
  FeedbackIdParams,
  FeedbackListQuery,
  FeedbackPage,
  FeedbackResult,
  FeedbackSubmissionBody,
  FeedbackSubmissionView,
  IdempotencyHeaders,
} from './feedback.schemas.js';
import type { FeedbackService } from './feedback.service.js';

export interface FeedbackRoutesOptions {
  feedbackService: Pick<FeedbackService, 'submit' | 'get' | 'list' | 'deleteSession'>;
}

export const feedbackRoutes: FastifyPluginAsyncTypebox<FeedbackRoutesOptions> = async (app, { feedbackService }) => {
  app.post(
    '/api/cortex/feedback',
    {
      config: { scope: 'ingest' },
      schema: {
        tags: ['feedback'],
        summary: 'Submit feedback on search results (stored before the answer is sent)',
        headers: IdempotencyHeaders,
        body: FeedbackSubmissionBody,
        response: { 201: Envelope(FeedbackResult), ...errorResponses(400, 409, 413, 415, 503) },
      },
    },
    async (request, reply) => {
      const result = await feedbackService.submit(request.body, request.headers['idempotency-key']);
      return reply.status(201).send(ok(result));
    },
  );

  app.get(
    '/api/cortex/feedback/:feedbackId',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Read one submission back with its items',
        params: FeedbackIdParams,
        response: { 200: Envelope(FeedbackSubmissionView), ...errorResponses(404) },
      },
    },
    async (request) => ok(await feedbackService.get(request.params.feedbackId)),
  );

  app.get(
    '/api/cortex/feedback',
    {
      schema: {
        tags: ['feedback'],
        summary: 'List feedback items, oldest first, with cursor pagination',
        querystring: FeedbackListQuery,
        response: { 200: Envelope(FeedbackPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await feedbackService.list(request.query)),
  );

  app.delete(
    '/api/cortex/feedback',
    {
      schema: {
        tags: ['feedback'],
        summary: "Erase a session's feedback (privacy requests)",
        querystring: FeedbackDeleteQuery,
        response: { 200: Envelope(FeedbackDeleteResult), ...errorResponses(400) },
      },
    },
    async (request) => ok(await feedbackService.deleteSession(request.query.sessionId)),
  );
};
