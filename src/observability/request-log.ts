import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served files (the dashboard's): their requests are logged at debug, unless they fail. */
    quietLog?: boolean;
  }
}

/** Polled by probes and scrapers every few seconds: logged at debug, unless they fail. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The search-time routes (route patterns): called once or more per search of the users' users, at
 * thousands per second, where a line per request costs more CPU than the answer. Their answered
 * requests log at debug (LOG_LEVEL=debug shows them); their errors log as every route's do. The
 * counts and latencies stay in /metrics.
 */
export const SEARCH_TIME_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/nous/rank',
  'POST /api/nous/ab-testing/assign',
  'POST /api/nous/ab-testing/experiments/:experimentId/assign',
  'POST /api/nous/ab-testing/experiments/:experimentId/interleave',
  // Ingestion only: reading feedback back (GET on the same path) is an operator's call, logged at info.
  'POST /api/cortex/feedback',
]);

// The envelope's error.code of each answered error, noted by the error handler for the request's line.
const errorCodes = new WeakMap<FastifyRequest, string>();

/** Called where the error envelope is sent, so the request's line carries its code. */
export function noteErrorCode(request: FastifyRequest, code: string): void {
  errorCodes.set(request, code);
}

export interface RequestLine {
  level: 'debug' | 'info' | 'error';
  fields: { method: string; url: string; statusCode: number; responseTime: number; errorCode?: string };
  message: string;
}

const roundMs = (ms: number) => (ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms));

/** The level of a finished request's line: errors always show; quiet and search-time answers at debug. */
export function lineLevel(
  request: Pick<FastifyRequest, 'method' | 'url'> & { routeOptions: { url?: string; config?: { quietLog?: boolean } } },
  statusCode: number,
): RequestLine['level'] {
  if (statusCode >= 500) return 'error';
  if (statusCode >= 400) return 'info';
  const quiet =
    request.routeOptions.config?.quietLog === true ||
    (request.routeOptions.url !== undefined && SEARCH_TIME_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) ||
    QUIET_PATHS.has(request.url.split('?')[0]!);
  return quiet ? 'debug' : 'info';
}

/** The one line a finished request gets: `POST /api/cortex/feedback 400 VALIDATION_ERROR 3.2 ms`. */
export function requestLine(
  request: Pick<FastifyRequest, 'id' | 'method' | 'url'> & { routeOptions: { url?: string; config?: { quietLog?: boolean } } },
  statusCode: number,
  responseTime: number,
  errorCode: string | undefined,
): RequestLine {
  const ms = roundMs(responseTime);
  const level = lineLevel(request, statusCode);
  return {
    level,
    fields: { method: request.method, url: request.url, statusCode, responseTime: ms, ...(errorCode ? { errorCode } : {}) },
    // A 5xx names its request id (the envelope's requestId, which a caller quotes), also in pretty lines.
    message: `${request.method} ${request.url} ${statusCode}${errorCode ? ` ${errorCode}` : ''} ${ms} ms${statusCode >= 500 ? ` (request ${request.id})` : ''}`,
  };
}

/**
 * Fastify's request logging, one line per request: none when it arrives (debug only: a request that
 * never finishes can still be traced), one when it is answered with method, URL, status, time and,
 * for errors, the envelope's code. Probes, /metrics and the dashboard's files log at debug.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug('incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // A line its level hides is not built (the search-time routes' answers, at thousands per second).
    const log = reply.log as FastifyReply['log'] & Partial<Pick<Logger, 'isLevelEnabled'>>;
    if (!error && log.isLevelEnabled?.(lineLevel(request, reply.statusCode)) === false) return;
    const line = requestLine(request, reply.statusCode, reply.elapsedTime, errorCodes.get(request));
    // An error here is the response stream failing after the handler (a client gone mid-body).
    if (error) reply.log.error({ ...line.fields, err: error }, `${line.message}: ${error.message}`);
    else reply.log[line.level](line.fields, line.message);
  }
}
