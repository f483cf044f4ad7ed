import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.js';
import { registerSchemaBoundJsonParser } from '../../http/json-parser.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { ExplorationBody, ExplorationView } from './exploration.schemas.js';
import type { ExplorationService } from './exploration.service.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';
import { InterleaveBody, InterleaveResponse, SearchRankBody, SearchRankResponse } from './rank.schemas.js';
import type { RankService } from './rank.service.js';

export interface RankRoutesOptions {
  rankService: Pick<RankService, 'rank' | 'interleave'>;
  explorationService: Pick<ExplorationService, 'view' | 'update'>;
}

/** POST /api/nous/rank in its own plugin context: its body parser is the schema-bound one (see json-parser.ts). */
const searchRankRoute: FastifyPluginAsyncTypebox<Pick<RankRoutesOptions, 'rankService'>> = async (app, { rankService }) => {
  registerSchemaBoundJsonParser(app);
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
};

export const rankRoutes: FastifyPluginAsyncTypebox<RankRoutesOptions> = async (app, { rankService, explorationService }) => {
  await app.register(searchRankRoute, { rankService });

  app.get(
    '/api/nous/rank/exploration',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['assignment'],
        summary: 'Light exploration on rank: the share of units explored, the lists shown since, and the expected NDCG@10 cost',
        description:
          'Off by default. An explored unit (its unitId hashed with a fixed salt falls below `share`) sees, on searches outside every ranking experiment, the production alias’s or the original order with one adjacent pair of the top `depth` swapped (RandPair, Joachims et al. 2017). Every shown list is recorded with its propensity.',
        response: { 200: Envelope(ExplorationView), ...errorResponses() },
      },
    },
    async () => ok(await explorationService.view()),
  );

  app.put(
    '/api/nous/rank/exploration',
    {
      config: { scope: 'admin' },
      schema: {
        tags: ['assignment'],
        summary: 'Set light exploration on rank: share 0..0.2 of units (0 = off), swaps within the top depth 2..20',
        body: ExplorationBody,
        response: { 200: Envelope(ExplorationView), ...errorResponses(400, 415) },
      },
    },
    async (request) => ok(await explorationService.update(request.body, actorOf(request))),
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
