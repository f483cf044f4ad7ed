import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build:web` writes the dashboard (web/dist); src/ and dist/ sit at the same depth. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

export interface DashboardOptions {
  /** The built dashboard; a folder without index.html (not built yet) serves a 404 that says so. */
  root: string;
}

// Paths the single-page app never owns: an unknown one among them is the API's 404 envelope.
const NOT_THE_APP = /^\/(api|docs|openapi\.json|metrics|healthz|readyz|assets)(\/|$|\?)/;

// The app loads only its own files; Plot writes <style> into its SVGs, hence 'unsafe-inline' for styles.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A browser navigating to a page of the app (deep links and reloads): GET or HEAD that accepts HTML. */
export function isAppNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || !accept.includes('text/html')) return false;
  return !NOT_THE_APP.test(request.url);
}

function htmlHeaders(reply: FastifyReply): void {
  // index.html names the hashed bundles of this build: always revalidate it.
  reply.header('cache-control', 'no-cache');
  reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'same-origin');
}

/**
 * Serves the dashboard at / from the same origin as the API. Its files hold no data, so they are
 * public even when API keys are configured (the app asks for a key and sends it to /api). Any
 * other GET that accepts HTML and is not an API, docs or system path gets index.html, so deep
 * links work; everything else still falls through to the 404 envelope.
 */
export async function dashboardRoutes(app: FastifyInstance, { root }: DashboardOptions): Promise<void> {
  app.addHook('onRoute', (route) => {
    // The dashboard's files: public, and logged at debug (a page load is a dozen of them).
    route.config = { ...route.config, public: route.config?.public ?? true, quietLog: true };
  });
  const built = fs.existsSync(path.join(root, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      // One route per file present at start (a build is immutable), so unknown paths stay 404s.
      wildcard: false,
      // The build writes .gz and .br next to each file; browsers get the compressed bytes.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        const file = filePath.replace(/\.(gz|br)$/, '');
        // Hashed names: a changed file has a new name, so browsers may keep these forever.
        if (file.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
        else if (file.endsWith('.html')) htmlHeaders(reply);
      },
    });
  }
  app.get('/*', { schema: { hide: true }, config: { public: isAppNavigation } }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isAppNavigation(request)) return reply.callNotFound();
    if (!built) {
      htmlHeaders(reply);
      return reply
        .status(404)
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Searchloop</title><p>The dashboard is not built. Run <code>npm run build:web</code> (npm install does it) and restart; the API is at <a href="/docs">/docs</a>.</p>',
        );
    }
    htmlHeaders(reply);
    return reply.sendFile('index.html');
  });
}
