import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExportQuery, JudgmentsQuery, RankBody, RankQuery, RankResponse } from './serving.schemas.js';
import type { FileAnswer, ServingService } from './serving.service.js';
import { ModelIdParams } from '../model/learning.schemas.js';

export interface ServingRoutesOptions {
  servingService: Pick<ServingService, 'rank' | 'judgments' | 'export'>;
}

function sendFile(reply: FastifyReply, file: FileAnswer) {
  return reply.type(file.contentType).header('content-disposition', `attachment; filename="${file.filename}"`).send(file.body);
}

const FileResponse = Type.String({ description: 'The file itself (not in the envelope), ready to import.' });

export const servingRoutes: FastifyPluginAsyncTypebox<ServingRoutesOptions> = async (app, { servingService }) => {
  app.post(
    '/api/nous/learn/models/:modelId/rank',
    {
      // Ranking reads a model; a search backend holding a read key may call it.
      config: { scope: 'read' },
      schema: {
        tags: ['models'],
        summary: 'Rerank results with the active version; ?explain=true adds each score’s parts',
        params: ModelIdParams,
        querystring: RankQuery,
        body: RankBody,
        response: { 200: Envelope(RankResponse), ...errorResponses(400, 404, 409, 415) },
      },
    },
    async (request) => ok(await servingService.rank(request.params.modelId, request.body, request.query.explain)),
  );

  app.get(
    '/api/nous/learn/models/:modelId/judgments',
    {
      schema: {
        tags: ['models'],
        summary: "A click model's judgments: OpenSearch SRW import JSON, RankLib lines or CSV",
        params: ModelIdParams,
        querystring: JudgmentsQuery,
        response: { 200: FileResponse, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => sendFile(reply, await servingService.judgments(request.params.modelId, request.query)),
  );

  app.get(
    '/api/nous/learn/models/:modelId/export',
    {
      schema: {
        tags: ['models'],
        summary: 'Export the active trees: XGBoost JSON dump (model/xgboost+json), the LTR plugin body, or native JSON',
        params: ModelIdParams,
        querystring: ExportQuery,
        response: { 200: FileResponse, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => sendFile(reply, await servingService.export(request.params.modelId, request.query)),
  );
};
