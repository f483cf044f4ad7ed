import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { AppConfig } from './config.js';
import type { Container } from './container.js';
import { ErrorEnvelope } from './http/envelope.js';
import cors from '@fastify/cors';
import { registerAuth } from './http/auth.js';
import { DASHBOARD_DIR, dashboardRoutes } from './http/dashboard.js';
import { handleFrameworkError, registerErrorHandlers } from './http/error-handler.js';
import { UnavailableError } from './common/errors.js';
import { registerJsonParser } from './http/json-parser.js';
import { registerIpRateLimits, registerKeyRateLimits } from './http/rate-limit.js';
import { registerMetrics } from './observability/metrics.routes.js';
import { RequestLogController } from './observability/request-log.js';
import { healthRoutes } from './http/health.routes.js';
import { registerOpenApi } from './http/openapi.js';
import { systemRoutes } from './http/system.routes.js';
import { registerValidation } from './http/validation.js';
import { VERSION } from './common/version.js';

export type AppOptions = Pick<AppConfig, 'bodyLimitBytes' | 'logLevel'> &
  Partial<
    Pick<
      AppConfig,
      'corsOrigins' | 'rateLimitPerKey' | 'rateLimitPerIp' | 'rateLimitAuthFailuresPerIp' | 'rateLimitWindowMs' | 'maxJsonDepth'
    >
  > & {
    /** Overrides Fastify's logger (tests pass false). */
    logger?: FastifyServerOptions['logger'];
    /** The process's logger (main.ts makes it with createLogger, in LOG_FORMAT); wins over `logger`. */
    loggerInstance?: FastifyBaseLogger;
    /** The built dashboard served at / (default web/dist). */
    dashboardDir?: string;
  };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The longest path parameter the router passes to a route (Fastify's default is 100): a query hash
 * may be 256 characters, each up to 4 UTF-8 bytes sent as %XX, and the analytics and query-coverage
 * pages take it as a path segment. Longer parameters are a 400 in the envelope (handleFrameworkError);
 * within it, each route's schema names the field.
 */
export const MAX_PATH_PARAMETER_LENGTH = 256 * 4 * 3;

export async function buildApp(options: AppOptions, container: Container): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: options.logger ?? { level: options.logLevel } }),
    // One line per answered request, with its status, time and error code (observability/request-log.ts).
    logController: new RequestLogController(),
    bodyLimit: options.bodyLimitBytes,
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // Echo a sane client X-Request-Id; otherwise make one. It appears in every log line.
    genReqId: (req) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false } },
    // Router errors (bad percent-encoding, over-long path parameters) answer in the envelope too.
    frameworkErrors: handleFrameworkError,
    // During shutdown we answer 503 ourselves, in the envelope (Fastify's own 503 is a bare body).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new UnavailableError('the service is shutting down; retry on another instance');
  });

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // JSON only: a text/plain body is a 415, not a string that fails validation. Routes that
  // take text (dataset uploads) register their own parser in their own scope.
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app, options.maxJsonDepth ?? 32);
  registerValidation(app);
  registerErrorHandlers(app);
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: options.corsOrigins.includes('*') ? '*' : options.corsOrigins,
      methods: ['GET', 'POST', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization', 'x-api-key', 'idempotency-key', 'x-request-id'],
      exposedHeaders: ['x-request-id', 'retry-after'],
      maxAge: 600,
    });
  }
  registerMetrics(app, container.metrics);
  const limits = {
    perKey: options.rateLimitPerKey ?? 0,
    perIp: options.rateLimitPerIp ?? 0,
    authFailuresPerIp: options.rateLimitAuthFailuresPerIp ?? 0,
    windowMs: options.rateLimitWindowMs ?? 60_000,
    now: () => container.clock.now(),
  };
  registerIpRateLimits(app, limits, container.auth.services.apiKeys);
  registerAuth(app, container.auth.services.apiKeys);
  registerKeyRateLimits(app, limits);
  app.addSchema(ErrorEnvelope);
  await registerOpenApi(app, VERSION);

  await app.register(healthRoutes, { ping: () => container.database.ping() });
  await app.register(systemRoutes, {
    version: VERSION,
    database: container.database.dialect,
    secured: () => container.auth.services.apiKeys.secured,
  });
  // Each module's routes, as one plugin; the dashboard last, so its fallback never shadows an API route.
  for (const module of container.modules) await app.register(module.routes);
  await app.register(dashboardRoutes, { root: options.dashboardDir ?? DASHBOARD_DIR });
  return app;
}
