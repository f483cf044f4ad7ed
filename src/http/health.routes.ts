import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from './envelope.js';
import { UnavailableError } from '../common/errors.js';

export interface HealthRoutesOptions {
  ping: () => Promise<void>;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthRoutesOptions> = async (app, { ping }) => {
  app.get(
    '/healthz',
    {
      schema: { tags: ['health'], summary: 'The process is up', response: { 200: Envelope(Type.Object({ status: Type.Literal('ok') })) } },
    },
    async () => ok({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database answers',
        response: { 200: Envelope(Type.Object({ status: Type.Literal('ready'), database: Type.String() })), ...errorResponses(503) },
      },
    },
    async () => {
      try {
        await ping();
      } catch {
        throw new UnavailableError('the database does not answer');
      }
      return ok({ status: 'ready' as const, database: 'up' });
    },
  );
};
