import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ModelCreateBody, ModelListQuery, ModelPage, ModelView, VersionListQuery, VersionPage } from './model.schemas.js';
import type { ModelService } from './model.service.js';
import { ModelIdParams } from '../model/learning.schemas.js';

export interface ModelRoutesOptions {
  modelService: Pick<ModelService, 'register' | 'get' | 'list' | 'listVersions'>;
}

export const modelRoutes: FastifyPluginAsyncTypebox<ModelRoutesOptions> = async (app, { modelService }) => {
  app.post(
    '/api/nous/learn/models',
    {
      schema: {
        tags: ['models'],
        summary: 'Register a model',
        body: ModelCreateBody,
        response: { 201: Envelope(ModelView), ...errorResponses(400, 409, 415) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await modelService.register(request.body))),
  );

  app.get(
    '/api/nous/learn/models/:modelId',
    {
      schema: {
        tags: ['models'],
        summary: "A model's record: status, metrics, last update",
        params: ModelIdParams,
        response: { 200: Envelope(ModelView), ...errorResponses(404) },
      },
    },
    async (request) => ok(await modelService.get(request.params.modelId)),
  );

  app.get(
    '/api/nous/learn/models',
    {
      schema: {
        tags: ['models'],
        summary: 'List models, newest first',
        querystring: ModelListQuery,
        response: { 200: Envelope(ModelPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await modelService.list(request.query)),
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
    async (request) => ok(await modelService.listVersions(request.params.modelId, request.query)),
  );
};
