import type { paths } from './api-schema.js';

export type { paths } from './api-schema.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P][M & keyof paths[P]];
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON body an operation takes. */
export type RequestBody<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The query string an operation takes. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The envelope's `data` of an operation's success answer (200 or 201). */
export type ResponseData<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? JsonOf<R extends { 200: infer S } ? S : R extends { 201: infer S } ? S : never> extends { data: infer D }
      ? D
      : unknown
    : unknown;

/** POST /api/nous/rank (issue 10): its request as documented, until the service's OpenAPI has it. */
export interface RankRequestFallback {
  unitId: string;
  queryId: string;
  queryHash?: string;
  results: { resultId: string; features?: Record<string, number> }[];
  attributes?: Record<string, unknown>;
  context?: Record<string, unknown>;
}
export interface RankResponseFallback {
  queryId: string;
  results: { resultId: string; rank: number; score?: number; team?: string }[];
  served: {
    source: 'experiment' | 'alias' | 'original';
    experimentId?: string;
    variantId?: string;
    modelId?: string;
    version?: number;
    method?: string;
  };
}
type RankPath = '/api/nous/rank';
/** From the generated types when the service documents POST /api/nous/rank, else the shape. */
export type RankRequest = RankPath extends keyof paths ? RequestBody<RankPath & keyof paths, 'post'> : RankRequestFallback;
export type RankResponse = RankPath extends keyof paths ? ResponseData<RankPath & keyof paths, 'post'> : RankResponseFallback;
