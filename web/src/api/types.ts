// Names for the shapes the dashboard uses, all taken from the generated OpenAPI types (packages/client/src/api-schema.ts).
import type { paths } from '../../../packages/client/src/api-schema';

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Data<R> = Json<R> extends { data: infer D } ? D : never;
type Ok<Op> = Op extends { responses: infer Rs }
  ? 200 extends keyof Rs
    ? Data<Rs[200]>
    : 201 extends keyof Rs
      ? Data<Rs[201]>
      : 202 extends keyof Rs
        ? Data<Rs[202]>
        : never
  : never;
type Query<Op> = Op extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Body<Op> = Op extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** Path prefixes, as types only (the file declares types, no values). */
type EXP = '/api/nous/ab-testing/experiments';
type MODEL = '/api/nous/learn/models/{modelId}';

export type Experiment = Ok<paths[`${EXP}/{experimentId}`]['get']>;
export type ExperimentPage = Ok<paths[EXP]['get']>;
export type ExperimentStatus = Experiment['status'];
export type ExperimentListQuery = Query<paths[EXP]['get']>;
export type ExperimentCreate = Body<paths[EXP]['post']>;
export type LifecycleAction = Experiment['allowedActions'][number];
export type ConcludeBody = Body<paths[`${EXP}/{experimentId}/conclude`]['post']>;
export type Results = Ok<paths[`${EXP}/{experimentId}/results`]['get']>;
export type MetricResult = Results['metrics'][number];
export type Comparison = MetricResult['comparisons'][number];
export type SeriesPoint = Results['series'][number]['points'][number];
export type AuditEvent = Ok<paths[`${EXP}/{experimentId}/events`]['get']>['items'][number];
export type Power = Ok<paths['/api/nous/ab-testing/power']['post']>;
export type PowerBody = Body<paths['/api/nous/ab-testing/power']['post']>;

export type Model = Ok<paths[MODEL]['get']>;
export type ModelPage = Ok<paths['/api/nous/learn/models']['get']>;
export type ModelVersion = Ok<paths[`${MODEL}/versions`]['get']>['items'][number];
export type TrainingJob = Ok<paths[`${MODEL}/train`]['post']>;

export type FeedbackPage = Ok<paths['/api/cortex/feedback']['get']>;
export type FeedbackItem = FeedbackPage['items'][number];
export type FeedbackQuery = Query<paths['/api/cortex/feedback']['get']>;
export type Erasure = Ok<paths['/api/cortex/feedback']['delete']>;

export type SystemInfo = Ok<paths['/api/system']['get']>;
