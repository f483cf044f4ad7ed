import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { AssignAllView, AssignmentView, AssignOneBody } from './assignment.schemas.js';
import type { AssignInput } from '../ports/assignments.js';
import type { AssignmentService } from './assignment.service.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';

export interface AssignmentRoutesOptions {
  assignmentService: Pick<AssignmentService, 'assignOne' | 'assignAll'>;
}

export const assignmentRoutes: FastifyPluginAsyncTypebox<AssignmentRoutesOptions> = async (app, { assignmentService }) => {
  app.post(
    '/api/nous/ab-testing/experiments/:experimentId/assign',
    {
      config: { scope: 'ingest' },
      schema: {
        tags: ['assignment'],
        summary: "A unit's variant in one experiment (records its first exposure)",
        params: ExperimentIdParams,
        body: AssignOneBody,
        response: { 200: Envelope(AssignmentView), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await assignmentService.assignOne(request.params.experimentId, request.body as AssignInput)),
  );

  app.post(
    '/api/nous/ab-testing/assign',
    {
      config: { scope: 'ingest' },
      schema: {
        tags: ['assignment'],
        summary: "A unit's variants in every running experiment (call once per session)",
        body: AssignOneBody,
        response: { 200: Envelope(AssignAllView), ...errorResponses(400) },
      },
    },
    async (request) => ok(await assignmentService.assignAll(request.body as AssignInput)),
  );
};
