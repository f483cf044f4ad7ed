// Reads the new-experiment form and the experiment list need: rankers to back variants, their versions,
// and each listed experiment's results (fetched per row, lazily).
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';
import { LIVE_REFRESH_MS } from './queries';
import type { Experiment, ModelVersion } from './types';

/** Rankers of the registry (at most 200: the form lists them in one select). */
export function useRankers() {
  return useQuery({
    queryKey: ['models', { type: 'ranker', limit: 200 }],
    queryFn: () => unwrap(api.GET('/api/nous/learn/models', { params: { query: { type: 'ranker', limit: 200 } } })),
  });
}

/** The versions of each chosen ranker, newest first, keyed by model id (one request per distinct model). */
export function useRankerVersions(modelIds: string[]): Map<string, { versions: ModelVersion[] | undefined; error: unknown }> {
  const distinct = [...new Set(modelIds.filter(Boolean))];
  const answers = useQueries({
    queries: distinct.map((modelId) => ({
      queryKey: ['ranker-versions', modelId],
      queryFn: () => unwrap(api.GET('/api/nous/learn/models/{modelId}/versions', { params: { path: { modelId }, query: { limit: 200 } } })),
    })),
  });
  return new Map(distinct.map((id, i) => [id, { versions: answers[i]?.data?.items, error: answers[i]?.error ?? null }]));
}

const hasData = (status: Experiment['status']) => status !== 'created' && status !== 'scheduled';
const isLive = (status: Experiment['status']) => status === 'running' || status === 'paused';

/**
 * One experiment's results for its row of the list. The list endpoint carries no results, and a page
 * shows at most 50 rows, so each row asks for its own; the cache key is the results page's, so opening
 * the experiment reuses the answer. Experiments that never ran have nothing to read and are not asked.
 */
export function useRowResults(experiment: Experiment) {
  return useQuery({
    enabled: hasData(experiment.status),
    queryKey: ['results', experiment.experimentId, {}],
    queryFn: () =>
      unwrap(
        api.GET('/api/nous/ab-testing/experiments/{experimentId}/results', {
          params: { path: { experimentId: experiment.experimentId }, query: {} },
        }),
      ),
    refetchInterval: isLive(experiment.status) ? LIVE_REFRESH_MS : false,
    staleTime: 30_000,
  });
}

/**
 * When an experiment without a start date was started: its first `start` (or the scheduler's `activate`)
 * in the audit log, which lists oldest first. Asked only for rows that need it; null when not in the first page.
 */
export function useStartedAt(experiment: Experiment) {
  return useQuery({
    enabled: experiment.startDate === null && hasData(experiment.status),
    queryKey: ['started-at', experiment.experimentId],
    queryFn: async () => {
      const page = await unwrap(
        api.GET('/api/nous/ab-testing/experiments/{experimentId}/events', {
          params: { path: { experimentId: experiment.experimentId }, query: { limit: 50 } },
        }),
      );
      return page.items.find((e) => e.action === 'start' || e.action === 'activate')?.at ?? null;
    },
    staleTime: Infinity,
  });
}
