import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/** OpenAPI 3 generated from the routes' TypeBox schemas, served at /openapi.json and /docs. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Searchloop',
        version,
        description:
          'Search feedback ingestion, learned click models and rankers, and A/B experiments. Every success is {"success": true, "data": …}; every failure is {"success": false, "error": {code, message, details, requestId}} with the matching HTTP status.',
      },
      tags: [
        { name: 'feedback', description: 'Search feedback: impressions, clicks, ratings, dwell time' },
        { name: 'models', description: 'Learned models registry' },
        { name: 'experiments', description: 'A/B experiments' },
        { name: 'health', description: 'Liveness and readiness' },
      ],
    },
    // Name shared schemas after their $id so the document reads #/components/schemas/ErrorEnvelope.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
