import Fastify from 'fastify';

/**
 * The rank ceiling: a bare Fastify route that parses the same rank body (Fastify's own JSON
 * parser, no schema) and answers its list in the order given, in the envelope and shape
 * Searchloop's rank answers: what the framework costs for this body with no ranking at all.
 */
interface Body {
  queryId: string;
  results: { resultId: string }[];
}
const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.get('/healthz', async () => ({ ok: true }));
app.post<{ Body: Body }>('/api/nous/rank', async (request) => ({
  success: true,
  data: {
    queryId: request.body.queryId,
    results: request.body.results.map((r, i) => ({ resultId: r.resultId, rank: i + 1 })),
    served: { source: 'original' },
  },
}));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
