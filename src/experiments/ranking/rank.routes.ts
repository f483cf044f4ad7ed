import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';
import { InterleaveBody, InterleaveResponse, SearchRankBody, SearchRankResponse } from './rank.schemas.js';
import type { RankService } from './rank.service.js';

export interface RankRoutesOptions {
  rankService: Pick<RankService, 'rank' | 'interleave'>;
}

export const rankRoutes: FastifyPluginAsyncTypebox<RankRoutesOptions> = async (app, { rankService }) => {
  app.post(
    '/api/nous/rank',
    {
      // Called by the search back end that also sends feedback.
      config: { scope: 'ingest' },
      schema: {
        tags: ['assignment'],
        summary: 'One call per query: the order to show (ranking experiment, else the production alias, else the original order)',
        body: SearchRankBody,
        response: { 200: Envelope(SearchRankResponse), ...errorResponses(400, 409, 415) },
      },
    },
    async (request) => ok(await rankService.rank(request.body)),
  );

  app.post(
    '/api/nous/ab-testing/experiments/:experimentId/interleave',
    {
      config: { scope: 'ingest' },
      schema: {
        tags: ['assignment'],
        summary: 'Interleave the lists of external rankers (one per variant) and record the list shown for crediting',
        params: ExperimentIdParams,
        body: InterleaveBody,
        response: { 200: Envelope(InterleaveResponse), ...errorResponses(400, 404, 409, 415) },
      },
    },
    async (request) => ok(await rankService.interleave(request.params.experimentId, request.body)),
  );
};
