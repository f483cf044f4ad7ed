import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.js';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { AliasDeleteQuery, AliasEventPage, AliasListQuery, AliasPage, AliasParams, AliasPutBody, AliasView } from './alias.schemas.js';
import type { AliasService } from './alias.service.js';

export interface AliasRoutesOptions {
  aliasService: Pick<AliasService, 'put' | 'clear' | 'get' | 'list' | 'events'>;
}

export const aliasRoutes: FastifyPluginAsyncTypebox<AliasRoutesOptions> = async (app, { aliasService }) => {
  app.put(
    '/api/nous/learn/aliases/:alias',
    {
      schema: {
        tags: ['models'],
        summary:
          "Point an alias at a ranker (a fixed version, or its active version), or clear it (modelId null: the engine's original order); the move is kept in the history",
        params: AliasParams,
        body: AliasPutBody,
        response: { 200: Envelope(AliasView), ...errorResponses(400, 415) },
      },
    },
    async (request) => ok(await aliasService.put(request.params.alias, request.body, actorOf(request))),
  );

  app.delete(
    '/api/nous/learn/aliases/:alias',
    {
      schema: {
        tags: ['models'],
        summary:
          "Clear an alias: it then serves the search engine's original order (the same as PUT with modelId null); the history keeps the move",
        params: AliasParams,
        querystring: AliasDeleteQuery,
        response: { 200: Envelope(AliasView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await aliasService.clear(request.params.alias, { ...request.query }, actorOf(request))),
  );

  app.get(
    '/api/nous/learn/aliases/:alias',
    {
      schema: {
        tags: ['models'],
        summary: 'Where an alias points, and the version it serves now',
        params: AliasParams,
        response: { 200: Envelope(AliasView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await aliasService.get(request.params.alias)),
  );

  app.get(
    '/api/nous/learn/aliases',
    {
      schema: {
        tags: ['models'],
        summary: 'Every alias, alphabetical',
        querystring: AliasListQuery,
        response: { 200: Envelope(AliasPage), ...errorResponses(400) },
      },
    },
    async (request) => ok(await aliasService.list(request.query)),
  );

  app.get(
    '/api/nous/learn/aliases/:alias/events',
    {
      schema: {
        tags: ['models'],
        summary: "An alias's append-only history: who, when, from, to, why",
        params: AliasParams,
        querystring: AliasListQuery,
        response: { 200: Envelope(AliasEventPage), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await aliasService.events(request.params.alias, request.query)),
  );
};
