import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../common/errors.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import {
  OverviewQuery,
  OverviewView,
  QueriesQuery,
  QueryDetailQuery,
  QueryDetailView,
  QueryHashParams,
  QueryPageView,
} from './analytics.schemas.js';
import type { AnalyticsService } from './analytics.service.js';

export interface AnalyticsRoutesOptions {
  analyticsService: Pick<AnalyticsService, 'overview' | 'queries' | 'query'>;
}

/** A dimension and its value come together. */
function checkDimension(q: { dimension?: string; value?: string }): void {
  if (q.dimension !== undefined && q.value === undefined)
    throw ValidationError.field('/value', 'is required with dimension', 'querystring');
  if (q.dimension === undefined && q.value !== undefined)
    throw ValidationError.field('/dimension', 'is required with value', 'querystring');
}

export const analyticsRoutes: FastifyPluginAsyncTypebox<AnalyticsRoutesOptions> = async (app, { analyticsService }) => {
  app.get(
    '/api/cortex/analytics/overview',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Searches, sessions, CTR, abandonment, first clicks, conversions and zero results over a window, as a time series',
        querystring: OverviewQuery,
        response: { 200: Envelope(OverviewView), ...errorResponses(400) },
      },
    },
    async (request) => {
      checkDimension(request.query);
      return ok(await analyticsService.overview(request.query));
    },
  );

  app.get(
    '/api/cortex/analytics/queries',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Queries with their figures, share and change against the previous window (Holm-corrected across the page)',
        querystring: QueriesQuery,
        response: { 200: Envelope(QueryPageView), ...errorResponses(400) },
      },
    },
    async (request) => {
      checkDimension(request.query);
      return ok(await analyticsService.queries(request.query));
    },
  );

  app.get(
    '/api/cortex/analytics/queries/:queryHash',
    {
      schema: {
        tags: ['analytics'],
        summary: "One query: figures, time series, click positions, and its results with CTR by position and a click model's relevance",
        params: QueryHashParams,
        querystring: QueryDetailQuery,
        response: { 200: Envelope(QueryDetailView), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      checkDimension(request.query);
      return ok(await analyticsService.query(request.params.queryHash, request.query));
    },
  );
};
