import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ValidationError } from '../../common/errors.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { StringEnum } from '../../http/string-enum.js';
import { IdempotencyHeaders } from '../feedback.schemas.js';
import type { FeedbackService } from '../feedback.service.js';
import { exportFeedback, type ExportFormat } from '../export/feedback-export.js';
import type { UbiKind, UbiService } from './ubi.service.js';

export interface UbiRoutesOptions {
  ubiService: Pick<UbiService, 'ingest'>;
  feedbackService: Pick<FeedbackService, 'list'>;
}

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl'];

const UbiResult = Type.Object({
  documents: Type.Integer({ description: 'UBI documents accepted.' }),
  items: Type.Integer({ description: 'Feedback items they became.' }),
  feedbackIds: Type.Array(Type.String(), { description: 'The feedback submissions stored (one per session and 1000 items).' }),
});

const ExportQuery = Type.Object(
  {
    format: Type.Optional(
      StringEnum(['ubi', 'ndjson', 'csv'] as const, {
        description: 'ubi: NDJSON of UBI 1.3.0 events and queries; ndjson: our items; csv: our items with a header. Default ndjson.',
      }),
    ),
    sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Only this session.' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Event time ≥ since.' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Event time < until.' })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'Resume after the line that carried this cursor (`cursor` / `searchloop_cursor`).',
      }),
    ),
  },
  { additionalProperties: false },
);

const CONTENT_TYPES: Record<ExportFormat, string> = {
  ubi: 'application/x-ndjson; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export const ubiRoutes: FastifyPluginAsyncTypebox<UbiRoutesOptions> = async (app, { ubiService, feedbackService }) => {
  // NDJSON: one document a line; blank lines skipped; a line that is not JSON names its index.
  app.addContentTypeParser(NDJSON_TYPES, { parseAs: 'string' }, (_request, body, done) => {
    const docs: unknown[] = [];
    const lines = (body as string).split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      try {
        docs.push(JSON.parse(line));
      } catch {
        done(ValidationError.field(`/${docs.length}`, `line ${i + 1} is not JSON`), undefined);
        return;
      }
    }
    done(null, docs);
  });

  for (const kind of ['queries', 'events'] as const satisfies readonly UbiKind[]) {
    app.post(
      `/api/cortex/ubi/${kind}`,
      {
        config: { scope: 'ingest' },
        schema: {
          tags: ['feedback'],
          summary: `OpenSearch UBI 1.3.0 ${kind === 'queries' ? 'query' : 'event'} documents in (one, an array, or NDJSON), stored as feedback`,
          headers: IdempotencyHeaders,
          body: Type.Unknown({ description: `A UBI ${kind === 'queries' ? 'query' : 'event'} document, an array of them, or NDJSON.` }),
          response: { 201: Envelope(UbiResult), ...errorResponses(400, 409, 413, 415) },
        },
      },
      async (request, reply) => {
        const result = await ubiService.ingest(kind, request.body, request.headers['idempotency-key']);
        return reply.status(201).send(ok(result));
      },
    );
  }

  app.get(
    '/api/cortex/feedback/export',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Export feedback, oldest first, streamed: UBI 1.3.0 NDJSON, our NDJSON, or CSV',
        querystring: ExportQuery,
        response: { 200: Type.String({ description: 'The file, streamed (not in the envelope).' }), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const format = request.query.format ?? 'ndjson';
      const lines = exportFeedback((query) => feedbackService.list(query), format, request.query);
      // The first page is read before the answer starts, so a bad filter is still a 400.
      const first = await lines.next();
      async function* all() {
        if (!first.done) yield first.value;
        yield* lines;
      }
      const extension = format === 'csv' ? 'csv' : 'ndjson';
      return reply
        .type(CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="feedback-${format}.${extension}"`)
        .send(Readable.from(all()) as unknown as string);
    },
  );
};
