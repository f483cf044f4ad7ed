import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { StringEnum } from '../../http/string-enum.js';
import { LineParser } from './import-lines.js';
import type { FeedbackImportService } from './import.service.js';

export interface ImportRoutesOptions {
  importService: Pick<FeedbackImportService, 'importBatch'>;
}

const ImportBody = Type.Object(
  {
    format: Type.Optional(StringEnum(['auto', 'feedback', 'ubi', 'csv'] as const, { description: 'Default auto.' })),
    csvHeader: Type.Optional(
      Type.Array(Type.String({ maxLength: 256 }), { minItems: 2, maxItems: 200, description: 'The CSV file’s header.' }),
    ),
    lines: Type.Array(
      Type.Object(
        { line: Type.Integer({ minimum: 1, description: 'Line number in the file.' }), text: Type.String({ maxLength: 1_000_000 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 5000 },
    ),
  },
  { additionalProperties: false },
);

const ImportReport = Type.Object({
  lines: Type.Integer(),
  imported: Type.Integer({ description: 'Items stored by this batch.' }),
  duplicates: Type.Integer({ description: 'Items already imported before (or twice in the batch): nothing stored.' }),
  rejected: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() })),
});

/** What `searchloop import --url` sends: a batch of a file's lines, imported in one transaction. */
export const importRoutes: FastifyPluginAsyncTypebox<ImportRoutesOptions> = async (app, { importService }) => {
  app.post(
    '/api/cortex/feedback/import',
    {
      schema: {
        tags: ['feedback'],
        summary: 'Bulk import: a batch of lines of an NDJSON (feedback or UBI) or CSV file, idempotent on re-import',
        body: ImportBody,
        response: { 200: Envelope(ImportReport), ...errorResponses(400, 413, 415) },
      },
    },
    async (request) => {
      const parser = new LineParser(request.body.format ?? 'auto');
      if (request.body.csvHeader) parser.useHeader(request.body.csvHeader);
      const parsed = request.body.lines.flatMap(({ line, text }) => parser.parse(text, line) ?? []);
      return ok(await importService.importBatch(parsed));
    },
  );
};
