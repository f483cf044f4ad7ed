import type { FastifyInstance } from 'fastify';
import { scopeAllows, type ApiScope, type Authenticator } from '../common/scopes.js';
import { AppError } from '../common/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated key's name (audit actor); undefined when the service runs open. */
    actor?: string;
  }
  interface FastifyContextConfig {
    /** The scope a route needs; default read for GET/HEAD, admin otherwise. */
    scope?: ApiScope;
    /** Serves no data (the dashboard's files): reachable without a key; a function decides per request. */
    public?: boolean | ((request: FastifyRequest) => boolean);
  }
}

/** Reachable without a key: probes and metrics scrapers. */
export const PUBLIC_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The key a request presents (Bearer token or X-API-Key), if any. */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+/i.test(authorization)) return authorization.replace(/^Bearer\s+/i, '').trim();
  const apiKey = headers['x-api-key'];
  return typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : undefined;
}

/**
 * With at least one key configured, every route but PUBLIC_PATHS needs a key with the right
 * scope: 401 without a valid key, 403 with the wrong scope. Runs before the body is read.
 */
export function registerAuth(app: FastifyInstance, apiKeys: Authenticator): void {
  app.addHook('onRequest', async (request) => {
    if (!apiKeys.secured || request.method === 'OPTIONS') return;
    if (PUBLIC_PATHS.has(request.url.split('?')[0]!)) return;
    const open = request.routeOptions.config?.public;
    if (open === true || (typeof open === 'function' && open(request))) return;
    const key = presentedKey(request.headers);
    if (!key) throw new AppError('UNAUTHORIZED', 'an API key is required: send Authorization: Bearer <key> or X-API-Key');
    const principal = apiKeys.authenticate(key);
    if (!principal) throw new AppError('UNAUTHORIZED', 'the API key is not valid (unknown or revoked)');
    const required: ApiScope =
      request.routeOptions.config?.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'admin');
    if (!scopeAllows(principal.scope, required)) {
      throw new AppError(
        'FORBIDDEN',
        `this key has scope "${principal.scope}"; ${request.method} ${request.routeOptions.url ?? request.url} needs "${required}"`,
      );
    }
    request.actor = principal.name;
  });
}
