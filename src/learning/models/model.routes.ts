import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import {
  ImportedVersionView,
  MODEL_IMPORT_MAX_BYTES,
  ModelCreateBody,
  ModelImportBody,
  ModelListQuery,
  ModelPage,
  ModelView,
  VersionListQuery,
  VersionPage,
} from './model.schemas.js';
import type { ModelService } from './model.service.js';
import { ModelIdParams } from '../model/learning.schemas.js';

export interface ModelRoutesOptions {
  modelService: Pick<ModelService, 'register' | 'get' | 'list' | 'listVersions' | 'importVersion'>;
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
  app.post(
    '/api/nous/learn/models/:modelId/versions/import',
    {
      config: { scope: 'admin' },
      // A model file of thousands of trees is larger than the app's default body limit.
      bodyLimit: MODEL_IMPORT_MAX_BYTES,
      schema: {
        tags: ['models'],
        summary: `Import a ranker version trained elsewhere: XGBoost JSON model or LightGBM text model (body ≤ ${MODEL_IMPORT_MAX_BYTES / 1024 / 1024} MiB)`,
        description:
          "The file's trees become a version of this ranker (type ranker, else 409) that scores each result's customMetadata.features by name: the file's feature_names, or featureNames[i] for its feature i. " +
          'A file that cannot be read is a 400 naming /model with the line or tree; a featureNames count that differs from the model is a 400 naming /featureNames. ' +
          'With activate: true it serves rank, aliases and experiments at once; the version carries no held-out metrics (it was trained elsewhere).',
        params: ModelIdParams,
        body: ModelImportBody,
        response: { 201: Envelope(ImportedVersionView), ...errorResponses(400, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await modelService.importVersion(request.params.modelId, request.body))),
  );
};
