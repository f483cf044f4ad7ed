import { Type, type Static } from 'typebox';
import { Page, PageQuery } from '../http/page.js';
import { StringEnum } from '../http/string-enum.js';
import { FEEDBACK_LIMITS } from './feedback-limits.js';

const Id = (description: string) => Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.maxIdLength, description });
const Short = (description: string) => Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.maxShortText, description });
const Duration = (description: string) =>
  Type.Number({ minimum: 0, maximum: FEEDBACK_LIMITS.maxDurationMs, description: `${description} (milliseconds, 0…86 400 000)` });

export const Viewport = Type.Object(
  {
    width: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
    height: Type.Number({ exclusiveMinimum: 0, maximum: 100_000 }),
  },
  { additionalProperties: false },
);

export const CustomMetadata = Type.Object(
  {
    searchType: Type.Optional(Short('Kind of search, e.g. keyword, semantic, autocomplete.')),
    position: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, description: '1-based rank at which the result was shown.' })),
    timeToClick: Type.Optional(Duration('Time from showing the results to the click')),
    deviceType: Type.Optional(Short('desktop, mobile, tablet, …')),
    viewport: Type.Optional(Viewport),
    scrollDepth: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Fraction of the result page scrolled, 0…1.' })),
    dwellTime: Type.Optional(Duration('Time spent on the clicked result')),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.maxIdLength })),
    language: Type.Optional(Short('Language tag, e.g. en or en-GB.')),
  },
  {
    additionalProperties: true,
    description:
      'Known fields are typed; `features` ({name: number}, up to 256, names ≤ 128 characters) feeds rankers; any other key is kept as client metadata, bounded to 32 keys, 4 KiB serialized and nesting depth 3. Keys named __proto__, constructor or prototype are refused.',
  },
);

export const FeedbackMetadata = Type.Object(
  {
    userAction: Type.Optional(
      Short('What the user did: impression, click, add_to_cart, purchase, conversion, rate, skip, or your own verb.'),
    ),
    timestamp: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 64,
        description: 'When it happened: ISO 8601 with a zone, at most 5 minutes in the future. Absent: the server receive time.',
      }),
    ),
    resultId: Type.Optional(Id('The result (document) the action was on.')),
    queryHash: Type.Optional(Id('The normalized query, shared by every execution of the same query.')),
    engagementType: Type.Optional(Short('Free classification of the engagement.')),
    customMetadata: Type.Optional(CustomMetadata),
  },
  { additionalProperties: false },
);

export const FeedbackItemInput = Type.Object(
  {
    queryId: Id('One execution of a search.'),
    rating: Type.Optional(
      Type.Number({ minimum: -1, maximum: 5, description: 'Explicit rating in [-1, 5]: thumbs (-1/1), 0–4 grades or 1–5 stars.' }),
    ),
    metadata: Type.Optional(FeedbackMetadata),
  },
  { additionalProperties: false, description: 'Needs rating or metadata.userAction (or both).' },
);

export const FeedbackSubmissionBody = Type.Object(
  {
    sessionId: Id('The session (the unit of experiments).'),
    feedback: Type.Array(FeedbackItemInput, { minItems: 1, maxItems: FEEDBACK_LIMITS.maxItems }),
  },
  { additionalProperties: false },
);
export type FeedbackSubmissionBody = Static<typeof FeedbackSubmissionBody>;
export type FeedbackItemInput = Static<typeof FeedbackItemInput>;

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Retries with the same key return the first answer and store nothing twice (kept 24 h).',
    }),
  ),
});

export const FeedbackResult = Type.Object({
  feedbackId: Type.String(),
  processed: Type.Boolean(),
  timestamp: Type.String({ format: 'date-time' }),
  items: Type.Integer({ description: 'How many items were stored.' }),
});

export const FeedbackItemView = Type.Object({
  itemId: Type.String(),
  feedbackId: Type.String(),
  sessionId: Type.String(),
  queryId: Type.String(),
  rating: Type.Union([Type.Number(), Type.Null()]),
  metadata: Type.Object({
    userAction: Type.Union([Type.String(), Type.Null()]),
    timestamp: Type.String({ format: 'date-time' }),
    resultId: Type.Union([Type.String(), Type.Null()]),
    queryHash: Type.Union([Type.String(), Type.Null()]),
    engagementType: Type.Union([Type.String(), Type.Null()]),
    customMetadata: Type.Record(Type.String(), Type.Unknown()),
  }),
  receivedAt: Type.String({ format: 'date-time' }),
});

export const FeedbackSubmissionView = Type.Object({
  feedbackId: Type.String(),
  sessionId: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  items: Type.Array(FeedbackItemView),
});

export const FeedbackListQuery = PageQuery(
  {
    sessionId: Type.Optional(Id('Only this session.')),
    queryId: Type.Optional(Id('Only this query execution.')),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Event time ≥ since.' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Event time < until.' })),
    order: Type.Optional(
      StringEnum(['oldest', 'newest'] as const, {
        description: 'oldest (default): in the order received; newest: the most recently received first.',
      }),
    ),
  },
  { max: 1000, default: 100 },
);
export type FeedbackListQuery = Static<typeof FeedbackListQuery>;

export const FeedbackPage = Page(FeedbackItemView);

export const FeedbackDeleteQuery = Type.Object({ sessionId: Id('Erase every item of this session.') }, { additionalProperties: false });

export const FeedbackDeleteResult = Type.Object({
  sessionId: Type.String(),
  deletedItems: Type.Integer(),
  deletedSubmissions: Type.Integer(),
  removed: Type.Record(Type.String(), Type.Integer(), {
    description:
      'Rows removed per kind, from every table keyed by the session: feedbackItems, feedbackSubmissions, experimentUnits, experimentSearches, experimentCovariates, and the kinds later modules declare.',
  }),
});

export const FeedbackIdParams = Type.Object({ feedbackId: Type.String({ minLength: 1, maxLength: 64 }) });
