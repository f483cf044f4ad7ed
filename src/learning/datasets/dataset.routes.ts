import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../../common/errors.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import type { DatasetService } from './dataset.service.js';
import { DatasetView } from './dataset.schemas.js';
import { ModelIdParams } from '../model/learning.schemas.js';

export interface DatasetRoutesOptions {
  datasetService: Pick<DatasetService, 'upload'>;
  maxBytes: number;
}

/**
 * LETOR uploads are text/plain. The app refuses text/plain everywhere else, so the parser
 * lives in this plugin's scope only; it hands the raw stream on so the service can parse
 * and count bytes as they arrive instead of buffering the body first.
 */
export const datasetRoutes: FastifyPluginAsyncTypebox<DatasetRoutesOptions> = async (app, { datasetService, maxBytes }) => {
  app.addContentTypeParser('text/plain', (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      done(new AppError('PAYLOAD_TOO_LARGE', `dataset is larger than ${maxBytes} bytes`), undefined);
      return;
    }
    done(null, payload);
  });

  app.post(
    '/api/nous/learn/models/:modelId/dataset',
    {
      schema: {
        tags: ['models'],
        summary: `Upload a LETOR/SVMlight training set (text/plain, qid: on every line, at most ${maxBytes} bytes); queues training`,
        params: ModelIdParams,
        response: { 201: Envelope(DatasetView), ...errorResponses(400, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const stream = request.body as AsyncIterable<Buffer> | undefined;
      if (typeof stream?.[Symbol.asyncIterator] !== 'function') {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'a dataset is sent as text/plain (LETOR / SVMlight lines)');
      }
      return reply.status(201).send(ok(await datasetService.upload(request.params.modelId, stream)));
    },
  );
};
