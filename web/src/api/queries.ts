import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type {
  ConcludeBody,
  Experiment,
  ExperimentCreate,
  ExperimentListQuery,
  FeedbackQuery,
  LifecycleAction,
  Model,
  PowerBody,
} from './types';

/** How often views of live things refresh: running experiments, models in training. */
export const LIVE_REFRESH_MS = 10_000;

const isLive = (status: Experiment['status'] | undefined) => status === 'running' || status === 'paused' || status === 'scheduled';
// Training runs this tab asked for, by model: the model page polls until a run has finished after it.
const requestedRuns = new Map<string, number>();
const isTraining = (model: Model | undefined) =>
  model?.status === 'pending' ||
  model?.status === 'training' ||
  (model !== undefined &&
    requestedRuns.has(model.modelId) &&
    Date.parse(model.lastTraining?.at ?? '1970-01-01T00:00:00Z') < requestedRuns.get(model.modelId)!);

export function useSystem() {
  return useQuery({ queryKey: ['system'], queryFn: () => unwrap(api.GET('/api/system')), staleTime: 60_000 });
}

export function useExperiments(query: ExperimentListQuery) {
  return useQuery({
    queryKey: ['experiments', query],
    queryFn: () => unwrap(api.GET('/api/nous/ab-testing/experiments', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useExperiment(experimentId: string) {
  return useQuery({
    queryKey: ['experiment', experimentId],
    queryFn: () => unwrap(api.GET('/api/nous/ab-testing/experiments/{experimentId}', { params: { path: { experimentId } } })),
    // allowedActions depend on the clock (start and end dates) as well as on the status.
    refetchInterval: (q) => (isLive(q.state.data?.status) ? LIVE_REFRESH_MS : false),
  });
}

/** How the results page reads: the scale of every verdict and an optional slice dimension. */
export interface ResultsRead {
  scale?: 'relative' | 'absolute';
  dimension?: 'deviceType' | 'searchType' | 'language' | 'category';
}

export function useResults(experimentId: string, live: boolean, enabled = true, read: ResultsRead = {}) {
  return useQuery({
    enabled,
    queryKey: ['results', experimentId, read],
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(api.GET('/api/nous/ab-testing/experiments/{experimentId}/results', { params: { path: { experimentId }, query: read } })),
    refetchInterval: live ? LIVE_REFRESH_MS : false,
  });
}

export function useEvents(experimentId: string) {
  return useQuery({
    queryKey: ['events', experimentId],
    queryFn: () =>
      unwrap(
        api.GET('/api/nous/ab-testing/experiments/{experimentId}/events', { params: { path: { experimentId }, query: { limit: 500 } } }),
      ),
  });
}

export function usePower(body: PowerBody | null) {
  return useQuery({
    queryKey: ['power', body],
    queryFn: () => unwrap(api.POST('/api/nous/ab-testing/power', { body: body! })),
    enabled: body !== null,
    retry: false,
  });
}

export function useLifecycle(experimentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, conclusion }: { action: LifecycleAction; conclusion?: ConcludeBody }) => {
      const params = { params: { path: { experimentId } } };
      switch (action) {
        case 'start':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/start', params));
        case 'pause':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/pause', params));
        case 'resume':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/resume', params));
        case 'stop':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/stop', params));
        case 'archive':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/archive', params));
        case 'conclude':
          return unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/conclude', { ...params, body: conclusion! }));
      }
    },
    onSuccess: (experiment) => {
      client.setQueryData(['experiment', experimentId], experiment);
      void client.invalidateQueries({ queryKey: ['events', experimentId] });
      void client.invalidateQueries({ queryKey: ['results', experimentId] });
      void client.invalidateQueries({ queryKey: ['experiments'] });
    },
  });
}

export function useCreateExperiment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExperimentCreate) => unwrap(api.POST('/api/nous/ab-testing/experiments', { body })),
    onSuccess: (experiment) => {
      client.setQueryData(['experiment', experiment.experimentId], experiment);
      void client.invalidateQueries({ queryKey: ['experiments'] });
    },
  });
}

export function useModels(query: { limit: number; cursor?: string }) {
  return useQuery({
    queryKey: ['models', query],
    queryFn: () => unwrap(api.GET('/api/nous/learn/models', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some(isTraining) ? LIVE_REFRESH_MS / 2 : false),
  });
}

export function useModel(modelId: string) {
  return useQuery({
    queryKey: ['model', modelId],
    queryFn: () => unwrap(api.GET('/api/nous/learn/models/{modelId}', { params: { path: { modelId } } })),
    refetchInterval: (q) => (isTraining(q.state.data) ? LIVE_REFRESH_MS / 5 : false),
  });
}

export function useVersions(modelId: string, activeVersion: number | null | undefined) {
  return useQuery({
    // A new active version means new rows: key on it so training completion refetches.
    queryKey: ['versions', modelId, activeVersion],
    queryFn: () => unwrap(api.GET('/api/nous/learn/models/{modelId}/versions', { params: { path: { modelId }, query: { limit: 200 } } })),
  });
}

export function useTrain(modelId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (force: boolean) =>
      unwrap(api.POST('/api/nous/learn/models/{modelId}/train', { params: { path: { modelId } }, body: force ? { force } : {} })),
    onSuccess: (job) => {
      requestedRuns.set(modelId, Date.parse(job.requestedAt));
      void client.invalidateQueries({ queryKey: ['model', modelId] });
      void client.invalidateQueries({ queryKey: ['versions', modelId] });
      void client.invalidateQueries({ queryKey: ['models'] });
    },
  });
}

export function useFeedback(query: FeedbackQuery) {
  return useQuery({
    queryKey: ['feedback', query],
    queryFn: () => unwrap(api.GET('/api/cortex/feedback', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useEraseSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (sessionId: string) => unwrap(api.DELETE('/api/cortex/feedback', { params: { query: { sessionId } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['feedback'] }),
  });
}

type AnalyticsWindow = { from?: string; to?: string; dimension?: 'deviceType' | 'searchType' | 'language' | 'category'; value?: string };

export function useAnalyticsOverview(query: AnalyticsWindow & { interval?: 'hour' | 'day' }) {
  return useQuery({
    queryKey: ['analytics-overview', query],
    queryFn: () => unwrap(api.GET('/api/cortex/analytics/overview', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export type AnalyticsSort = 'searches' | 'ctr' | 'abandonment' | 'firstClickPosition' | 'change' | 'zeroResults';

export function useAnalyticsQueries(
  query: AnalyticsWindow & { sort?: AnalyticsSort; order?: 'asc' | 'desc'; minSearches?: number; limit?: number; cursor?: string },
) {
  return useQuery({
    queryKey: ['analytics-queries', query],
    queryFn: () => unwrap(api.GET('/api/cortex/analytics/queries', { params: { query } })),
    placeholderData: keepPreviousData,
  });
}

export function useAnalyticsQuery(queryHash: string, query: AnalyticsWindow & { interval?: 'hour' | 'day'; model?: string }) {
  return useQuery({
    queryKey: ['analytics-query', queryHash, query],
    queryFn: () => unwrap(api.GET('/api/cortex/analytics/queries/{queryHash}', { params: { path: { queryHash }, query } })),
  });
}

/** The experiments whose attributed searches carried this query hash, most recently seen first. */
export function useQueryExperiments(queryHash: string, query: { limit: number; cursor?: string }) {
  return useQuery({
    queryKey: ['query-experiments', queryHash, query],
    queryFn: () => unwrap(api.GET('/api/nous/ab-testing/queries/{queryHash}/experiments', { params: { path: { queryHash }, query } })),
    placeholderData: keepPreviousData,
  });
}
