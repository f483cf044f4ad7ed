import type { FastifyRequest } from 'fastify';

/** Who made a change, for the audit log: the API key's name once keys exist, else anonymous. */
export function actorOf(request: FastifyRequest): string {
  const actor = (request as FastifyRequest & { actor?: string }).actor;
  return actor ?? 'anonymous';
}
