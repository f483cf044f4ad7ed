import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../../http/page.js';
import { StringEnum } from '../../http/string-enum.js';
import { EXPERIMENT_STATES } from '../model/lifecycle.js';

export const QueryHashParams = Type.Object({
  queryHash: Type.String({ minLength: 1, maxLength: 256, description: 'The queryHash feedback items carry (1–256 characters).' }),
});

export const QueryCoverageQuery = PageQuery({}, { max: 100, default: 50 });
export type QueryCoverageQuery = Static<typeof QueryCoverageQuery>;

export const VariantCoverageView = Type.Object({
  variantId: Type.String(),
  searches: Type.Integer({ description: 'Searches of the query attributed to the variant (distinct queryId per session).' }),
  clickedSearches: Type.Integer({ description: 'Of those, the searches with a click.' }),
  abandonmentRate: Type.Union([Type.Number(), Type.Null()], {
    description: '1 − clickedSearches / searches (at least 0); null without searches.',
  }),
  lastSeen: Type.String({ format: 'date-time', description: 'Received time of the latest item that opened or first clicked one of them.' }),
});

export const QueryCoverageView = Type.Object({
  experimentId: Type.String(),
  name: Type.String(),
  status: StringEnum(EXPERIMENT_STATES),
  type: StringEnum(['ab', 'interleaving'] as const, { description: 'A/B test or interleaving (configuration.type).' }),
  phase: Type.Integer(),
  lastSeen: Type.String({
    format: 'date-time',
    description: 'The latest lastSeen of its variants: the list is ordered by it, newest first.',
  }),
  variants: Type.Array(VariantCoverageView, { description: "In the experiment's variant order." }),
});
export type QueryCoverageView = Static<typeof QueryCoverageView>;

export const QueryCoveragePage = Page(QueryCoverageView);
