import type { FastifyPluginAsync } from 'fastify';
import type { TaskSpec } from './periodic-task.js';

/**
 * What every domain module's public entry (`<domain>.module.ts`) returns: the composition root
 * and the app know modules only through this. Other modules use `services`, never a module's files.
 */
export interface DomainModule<Services> {
  services: Services;
  /** Every route of the domain, as one Fastify plugin (registered by app.ts). */
  routes: FastifyPluginAsync;
  /** Background jobs, run by the one scheduler (src/scheduler.ts). */
  tasks: TaskSpec[];
  /** Releases what the module holds (worker threads, queues); the database belongs to its opener. */
  close(): Promise<void>;
}

/** A domain without HTTP routes of its own yet. */
export const noRoutes: FastifyPluginAsync = async () => undefined;
