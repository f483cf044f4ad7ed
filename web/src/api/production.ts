// What serves production: the aliases, their history, moving them (ship, roll back, clear), and recent decisions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client';
import { LIVE_REFRESH_MS } from './queries';
import type { paths } from '../../../packages/client/src/api-schema';
import type { Experiment } from './types';

/** A ranker version an alias can point at; `version: null` follows the model's active version. */
export interface AliasTarget {
  modelId: string;
  version: number | null;
}

type Json<R> = R extends { content: { 'application/json': { data: infer D } } } ? D : never;

/** Where an alias points: `modelId: null` means it was cleared and serves the engine's original order. */
export type AliasView = Json<paths['/api/nous/learn/aliases/{alias}']['get']['responses'][200]>;

/** One move of an alias; `null` on either side is the engine's original order. */
export type AliasEvent = Json<paths['/api/nous/learn/aliases/{alias}/events']['get']['responses'][200]>['items'][number];

/** The service's rule for alias names (learning and experiments share it). */
export const ALIAS_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** An alias's current target, or null when it serves the original order. */
export const currentTarget = (a: Pick<AliasView, 'modelId' | 'version'>): AliasTarget | null =>
  a.modelId === null ? null : { modelId: a.modelId, version: a.version };

export const sameTarget = (a: AliasTarget | null, b: AliasTarget | null) =>
  a === null || b === null ? a === b : a.modelId === b.modelId && a.version === b.version;

export function useAliasList() {
  return useQuery({
    queryKey: ['aliases'],
    queryFn: async () => {
      const page = await unwrap(api.GET('/api/nous/learn/aliases', { params: { query: { limit: 200 } } }));
      return page;
    },
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/**
 * One alias, or null when no alias of that name exists yet. Read from the list (one request, and
 * no 404 while a new name is typed); only past the list's first page is the alias asked for alone.
 */
export function useAlias(alias: string | null) {
  const list = useAliasList();
  const inList = alias === null ? undefined : list.data?.items.find((a) => a.alias === alias);
  const askAlone = alias !== null && ALIAS_NAME.test(alias) && list.data?.nextCursor != null && inList === undefined;
  const alone = useQuery({
    queryKey: ['alias', alias],
    enabled: askAlone,
    retry: false,
    queryFn: async (): Promise<AliasView | null> => {
      try {
        return await unwrap(api.GET('/api/nous/learn/aliases/{alias}', { params: { path: { alias: alias! } } }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
  return {
    isPending: list.isPending || (askAlone && alone.isPending),
    error: list.error ?? alone.error,
    data: askAlone ? (alone.data ?? null) : (inList ?? null),
  };
}

/** The whole history of an alias, newest first (the API pages it oldest first). */
export function useAliasHistory(alias: string) {
  return useQuery({
    queryKey: ['alias-events', alias],
    queryFn: async () => {
      const items: AliasEvent[] = [];
      let cursor: string | undefined;
      // Ten pages of 200 moves is more history than a person reads; the newest are what rollback needs.
      for (let page = 0; page < 10; page += 1) {
        const got = await unwrap(
          api.GET('/api/nous/learn/aliases/{alias}/events', {
            params: { path: { alias }, query: { limit: 200, ...(cursor ? { cursor } : {}) } },
          }),
        );
        items.push(...got.items);
        if (!got.nextCursor) break;
        cursor = got.nextCursor;
      }
      return items.reverse();
    },
  });
}

export interface AliasMove {
  alias: string;
  /** null: clear the alias, so it serves the engine's original order. */
  target: AliasTarget | null;
  reason: string;
}

/** Points an alias at a version (or clears it), with the reason the history keeps. */
export function useMoveAlias() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ alias, target, reason }: AliasMove) => {
      const body = target === null ? { modelId: null, reason } : { modelId: target.modelId, ...versionOf(target), reason };
      return unwrap(api.PUT('/api/nous/learn/aliases/{alias}', { params: { path: { alias } }, body }));
    },
    onSuccess: (view) => {
      client.setQueryData(['alias', view.alias], view);
      void client.invalidateQueries({ queryKey: ['aliases'] });
      void client.invalidateQueries({ queryKey: ['alias-events', view.alias] });
    },
  });
}

const versionOf = (t: AliasTarget) => (t.version === null ? {} : { version: t.version });

/** The latest concluded experiments, most recently decided first. */
export function useRecentDecisions(limit: number) {
  return useQuery({
    queryKey: ['experiments', 'decisions', limit],
    queryFn: async () => {
      const page = await unwrap(api.GET('/api/nous/ab-testing/experiments', { params: { query: { status: 'concluded', limit: 50 } } }));
      return page.items
        .filter((e): e is Experiment & { conclusion: NonNullable<Experiment['conclusion']> } => e.conclusion !== null)
        .sort((a, b) => Date.parse(b.conclusion.concludedAt) - Date.parse(a.conclusion.concludedAt))
        .slice(0, limit);
    },
  });
}

/**
 * The latest experiments (up to 100) with a variant backed by this model: the online evidence a
 * version has, found with one list call (older experiments are not searched).
 */
export function useExperimentsTestingModel(modelId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['experiments', 'testing-model', modelId],
    enabled,
    queryFn: async () => {
      const page = await unwrap(api.GET('/api/nous/ab-testing/experiments', { params: { query: { limit: 100 } } }));
      return page.items.flatMap((e) =>
        e.variants
          .filter((v) => v.model?.modelId === modelId)
          .map((v) => ({ experiment: e, variant: v, version: v.model?.pinnedVersion ?? v.model?.version ?? null })),
      );
    },
  });
}
