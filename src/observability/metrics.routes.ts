import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

const normalisePath = (path: string) => path.replace(/\/\d+(?=\/|$)/g, '/*');

/**
 * Request counts and latency by route (the route pattern, never the raw URL, so ids do not
 * explode the label space), rejected feedback by reason, and the /metrics endpoint.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });

  app.addHook('onError', async (request, _reply, error) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/api/cortex/feedback') return;
    const body = request.body as { feedback?: unknown } | undefined;
    const items = Array.isArray(body?.feedback) ? body.feedback.length : 1;
    const detail =
      (error as { details?: { path: string }[]; validation?: { instancePath?: string }[] }).details?.[0]?.path ??
      (error as { validation?: { instancePath?: string }[] }).validation?.[0]?.instancePath;
    const code = (error as { code?: string }).code ?? 'ERROR';
    metrics.feedbackItems.inc({ outcome: 'rejected', reason: detail ? `${code} ${normalisePath(detail)}` : code }, items);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
