import type { FastifyRequest } from 'fastify';
import './auth.js';

/** Who made a change, for the audit log: the API key's name, or anonymous when the service runs open. */
export function actorOf(request: FastifyRequest): string {
  return request.actor ?? 'anonymous';
}
