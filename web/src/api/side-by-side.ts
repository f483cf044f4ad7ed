import { useQuery } from '@tanstack/react-query';
import type { paths } from '../../../packages/client/src/api-schema';
import { api, unwrap } from './client';

type Operation = paths['/api/cortex/analytics/queries/{queryHash}/side-by-side']['get'];
export type SideBySideQuery = NonNullable<Operation['parameters']['query']>;
export type SideBySide = Operation['responses'][200]['content']['application/json']['data'];
export type Side = SideBySide['left'];
export type SideRow = Side['results'][number];

/** One query's top k under two rankers (GET …/queries/{queryHash}/side-by-side). */
export function useSideBySide(queryHash: string, query: SideBySideQuery | null) {
  return useQuery({
    enabled: query !== null,
    queryKey: ['side-by-side', queryHash, query],
    queryFn: () =>
      unwrap(api.GET('/api/cortex/analytics/queries/{queryHash}/side-by-side', { params: { path: { queryHash }, query: query! } })),
    // A 4xx (unknown ranker, features never logged) will not change on a retry.
    retry: false,
  });
}
