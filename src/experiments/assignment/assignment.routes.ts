import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, errorResponses, ok } from '../../http/envelope.js';
import { AssignAllView, AssignmentView, AssignOneBody } from './assignment.schemas.js';
import type { AssignInput } from '../ports/assignments.js';
import { EXPOSURE_COMMIT_DELAY_MS, type AssignmentService } from './assignment.service.js';
import { ExperimentIdParams } from '../model/schemas/experiment.schemas.js';

export interface AssignmentRoutesOptions {
  assignmentService: Pick<AssignmentService, 'assignOne' | 'assignAll'>;
}

const EXPOSURE_GUARANTEE =
  'The answer comes from memory and does not wait for the disk: the first exposure is queued and is durable once the group ' +
  `commit that follows the answer commits (under steady traffic a group first waits ${EXPOSURE_COMMIT_DELAY_MS} ms for others to join it). A kill -9 ` +
  'loses at most the exposures answered since the last commit began (the latest answers, at most 20 000); lost exposures are ' +
  'not re-derived from feedback. See docs/api/experiments.md.';

export const assignmentRoutes: FastifyPluginAsyncTypebox<AssignmentRoutesOptions> = async (app, { assignmentService }) => {
  app.post(
    '/api/nous/ab-testing/experiments/:experimentId/assign',
    {
      config: { scope: 'ingest' },
      schema: {
        tags: ['assignment'],
        summary: "A unit's variant in one experiment (records its first exposure)",
        description: EXPOSURE_GUARANTEE,
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
        description: EXPOSURE_GUARANTEE,
        body: AssignOneBody,
        response: { 200: Envelope(AssignAllView), ...errorResponses(400) },
      },
    },
    async (request) => ok(await assignmentService.assignAll(request.body as AssignInput)),
  );
};
