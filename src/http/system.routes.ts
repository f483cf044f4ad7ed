import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope, errorResponses, ok } from './envelope.js';
import { StringEnum } from './string-enum.js';

export interface SystemRoutesOptions {
  version: string;
  database: 'sqlite' | 'postgres';
  /** Whether at least one API key is configured (then every data route needs one). */
  secured: () => boolean;
}

const SystemView = Type.Object({
  version: Type.String({ description: 'The package version of this server.' }),
  database: StringEnum(['sqlite', 'postgres'] as const, { description: 'The database kind this instance stores into.' }),
  authentication: StringEnum(['keys', 'open'] as const, {
    description: 'keys: every data route needs an API key; open: no key is configured (loopback only, or SEARCHLOOP_ALLOW_OPEN).',
  }),
});

/** What the dashboard's Settings page shows about the server it talks to. */
export const systemRoutes: FastifyPluginAsyncTypebox<SystemRoutesOptions> = async (app, { version, database, secured }) => {
  app.get(
    '/api/system',
    {
      schema: {
        tags: ['health'],
        summary: "The server's version, database kind and whether API keys are required",
        response: { 200: Envelope(SystemView), ...errorResponses(401, 403) },
      },
    },
    async () => ok({ version, database, authentication: secured() ? ('keys' as const) : ('open' as const) }),
  );
};
