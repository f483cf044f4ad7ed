import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { PowerBody, PowerView } from './planning.schemas.js';
import type { PowerService } from './power.service.js';

export interface PlanningRoutesOptions {
  powerService: Pick<PowerService, 'plan'>;
}

export const planningRoutes: FastifyPluginAsyncTypebox<PlanningRoutesOptions> = async (app, { powerService }) => {
  app.post(
    '/api/nous/ab-testing/power',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['experiments'],
        summary: 'Sessions per variant and days needed to detect a relative effect',
        body: PowerBody,
        response: { 200: Envelope(PowerView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await powerService.plan(request.body)),
  );
};
