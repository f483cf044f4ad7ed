import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { actorOf } from '../../http/actor.js';
import { ConcludeBody, EventPage, EventsQuery, PatchBody } from './experiment-change.schemas.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';
import { ExperimentView } from '../model/schemas/experiment-view.schemas.js';
import type { ExperimentLifecycleService, ManualAction } from './experiment-lifecycle.service.js';
import type { Static } from 'typebox';

export interface ExperimentLifecycleRoutesOptions {
  lifecycleService: Pick<ExperimentLifecycleService, 'act' | 'conclude' | 'patch'>;
  /** The audit log read: definition's ExperimentService, wired by the module entry. */
  experimentService: { events(experimentId: string, query: Static<typeof EventsQuery>): Promise<Static<typeof EventPage>> };
}

const ACTIONS: Record<ManualAction, string> = {
  start: 'Start: running now, or scheduled until startDate',
  pause: 'Pause a running experiment (serves nobody; enrolled units keep their variant on resume)',
  resume: 'Resume a paused experiment',
  stop: 'Stop: no more enrollment or attribution; the phase closes',
  archive: 'Archive (terminal)',
};

export const experimentLifecycleRoutes: FastifyPluginAsyncTypebox<ExperimentLifecycleRoutesOptions> = async (
  app,
  { lifecycleService, experimentService },
) => {
  for (const [action, summary] of Object.entries(ACTIONS) as [ManualAction, string][]) {
    app.post(
      `/api/nous/ab-testing/experiments/:experimentId/${action}`,
      {
        schema: {
          tags: ['experiments'],
          summary,
          params: ExperimentIdParams,
          response: { 200: Envelope(ExperimentView), ...errorResponses(404, 409) },
        },
      },
      async (request) => ok(await lifecycleService.act(request.params.experimentId, action, actorOf(request))),
    );
  }

  app.post(
    '/api/nous/ab-testing/experiments/:experimentId/conclude',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Conclude with a decision; a winner is then served to every unit',
        params: ExperimentIdParams,
        body: ConcludeBody,
        response: { 200: Envelope(ExperimentView), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ok(await lifecycleService.conclude(request.params.experimentId, request.body, actorOf(request))),
  );

  app.patch(
    '/api/nous/ab-testing/experiments/:experimentId',
    {
      schema: {
        tags: ['experiments'],
        summary: 'Merge a partial change; re-randomizing changes while running need newPhase',
        params: ExperimentIdParams,
        body: PatchBody,
        response: { 200: Envelope(ExperimentView), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ok(await lifecycleService.patch(request.params.experimentId, request.body, actorOf(request))),
  );

  app.get(
    '/api/nous/ab-testing/experiments/:experimentId/events',
    {
      schema: {
        tags: ['experiments'],
        summary: 'The append-only audit log: what, when, by whom, before/after',
        params: ExperimentIdParams,
        querystring: EventsQuery,
        response: { 200: Envelope(EventPage), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await experimentService.events(request.params.experimentId, request.query)),
  );
};
