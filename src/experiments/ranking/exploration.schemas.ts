import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/string-enum.js';
import { EXPLORATION_LIMITS } from './exploration.service.js';

export const ExplorationBody = Type.Object(
  {
    share: Type.Number({
      minimum: 0,
      maximum: EXPLORATION_LIMITS.maxShare,
      description:
        'Share of units (the rank request’s unitId, hashed with a fixed salt) whose searches outside every ranking experiment are explored; 0 turns exploration off (the default).',
    }),
    depth: Type.Optional(
      Type.Integer({
        minimum: EXPLORATION_LIMITS.minDepth,
        maximum: EXPLORATION_LIMITS.maxDepth,
        default: 10,
        description: 'The swapped pair lies within the top `depth` results (default 10).',
      }),
    ),
    method: Type.Optional(StringEnum(['randpair'] as const, { description: 'RandPair: swap one uniformly drawn adjacent pair.' })),
  },
  { additionalProperties: false },
);
export type ExplorationBody = Static<typeof ExplorationBody>;

export const ExplorationView = Type.Object({
  share: Type.Number(),
  depth: Type.Integer(),
  method: StringEnum(['randpair'] as const),
  enabled: Type.Boolean({ description: 'share > 0' }),
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null: never set (off).' }),
  updatedBy: Type.Union([Type.String(), Type.Null()]),
  shownLists: Type.Integer({ description: 'Explored lists recorded since exploration was last turned on (0 while off).' }),
  expectedCost: Type.Union(
    [
      Type.Object({
        ndcgAt10Loss: Type.Number({ description: 'Expected NDCG@10 given up per search at this share: share × perExploredSearch.' }),
        perExploredSearch: Type.Number({
          description: 'Mean NDCG@10 an explored search loses to its swap (the served order minus the mean over the k − 1 swaps).',
        }),
        basis: Type.String({ description: 'Which click model and version, over how many logged searches and queries.' }),
      }),
      Type.Null(),
    ],
    { description: 'null when no click model has a trained version, or no search with impressions was logged in the last 7 days.' },
  ),
});
