import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served files (the dashboard's): their requests are logged at debug, unless they fail. */
    quietLog?: boolean;
  }
}

/** Polled by probes and scrapers every few seconds: logged at debug, unless they fail. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

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

/** The one line a finished request gets: `POST /api/cortex/feedback 400 VALIDATION_ERROR 3.2 ms`. */
export function requestLine(
  request: Pick<FastifyRequest, 'id' | 'method' | 'url'> & { routeOptions: { config?: { quietLog?: boolean } } },
  statusCode: number,
  responseTime: number,
  errorCode: string | undefined,
): RequestLine {
  const ms = roundMs(responseTime);
  const quiet = request.routeOptions.config?.quietLog === true || QUIET_PATHS.has(request.url.split('?')[0]!);
  const level = statusCode >= 500 ? 'error' : quiet && statusCode < 400 ? 'debug' : 'info';
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
    const line = requestLine(request, reply.statusCode, reply.elapsedTime, errorCodes.get(request));
    // An error here is the response stream failing after the handler (a client gone mid-body).
    if (error) reply.log.error({ ...line.fields, err: error }, `${line.message}: ${error.message}`);
    else reply.log[line.level](line.fields, line.message);
  }
}
