import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../storage/sql-errors.js';
import { AppError, ERROR_STATUS, type ErrorCode, type ErrorDetail } from '../common/errors.js';
import { noteErrorCode } from '../observability/request-log.js';

interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const PARTS = new Set(['body', 'querystring', 'params', 'headers']);

/** Turns Ajv's errors into details whose path names the offending field itself. */
export function detailsFromValidation(errors: AjvLikeError[], context: string | undefined): ErrorDetail[] {
  const where = (context && PARTS.has(context) ? context : 'body') as ErrorDetail['in'];
  return errors.map((e) => {
    const base = e.instancePath ?? '';
    if (e.keyword === 'required' && typeof e.params?.missingProperty === 'string') {
      return { path: `${base}/${e.params.missingProperty}`, message: 'is required', in: where };
    }
    if (e.keyword === 'additionalProperties' && typeof e.params?.additionalProperty === 'string') {
      return { path: `${base}/${e.params.additionalProperty}`, message: 'is not a known field', in: where };
    }
    if (e.keyword === 'enum' && Array.isArray(e.params?.allowedValues)) {
      return { path: base === '' ? '/' : base, message: `must be one of ${e.params.allowedValues.join(', ')}`, in: where };
    }
    return { path: base === '' ? '/' : base, message: e.message ?? 'is invalid', in: where };
  });
}

function codeForStatus(status: number): ErrorCode {
  const match = (Object.entries(ERROR_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status);
  if (match) return match[0];
  return status >= 500 ? 'INTERNAL' : 'VALIDATION_ERROR';
}

function send(reply: FastifyReply, request: FastifyRequest, code: ErrorCode, message: string, details: ErrorDetail[] = []) {
  noteErrorCode(request, code);
  return reply
    .status(ERROR_STATUS[code])
    .type('application/json')
    .send({
      success: false,
      error: { code, message, details, requestId: String(request.id) },
    });
}

const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'request body is larger than the configured limit'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['VALIDATION_ERROR', 'body must not be empty when Content-Type is application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['VALIDATION_ERROR', 'Content-Length does not match the body'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['VALIDATION_ERROR', 'body is not valid JSON'],
};

/**
 * Fastify's `frameworkErrors` option: errors its router raises before any hook or handler runs
 * (a path that is not valid percent-encoding, a path parameter above maxParamLength). Without
 * it Fastify answers them with its own JSON, outside the envelope and without X-Request-Id.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return send(reply, request, 'VALIDATION_ERROR', 'the path is not valid percent-encoded UTF-8', [
      { path: '/', message: 'is not valid percent-encoding', in: 'params' },
    ]);
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return send(reply, request, 'VALIDATION_ERROR', 'a path parameter is too long', [{ path: '/', message: 'is too long', in: 'params' }]);
  }
  request.log.error({ err: error }, 'router error');
  return send(reply, request, 'INTERNAL', 'internal error; quote the requestId when reporting it');
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return send(reply, request, error.code, error.message, error.details);
    }
    if (error.validation) {
      const details = detailsFromValidation(error.validation as AjvLikeError[], error.validationContext);
      const first = details[0];
      const message = first ? `${first.in ?? 'body'} ${first.path}: ${first.message}` : 'request is invalid';
      return send(reply, request, 'VALIDATION_ERROR', message, details);
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return send(reply, request, known[0], known[1]);
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return send(reply, request, 'VALIDATION_ERROR', `body is not valid JSON: ${error.message}`);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return send(reply, request, 'UNAVAILABLE', 'the database is unavailable; retry later');
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx (prototype poisoning, bad headers): its message is safe to show.
      return send(reply, request, codeForStatus(status), error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, request, 'INTERNAL', 'internal error; quote the requestId when reporting it');
  });

  app.setNotFoundHandler((request, reply) => send(reply, request, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
}
