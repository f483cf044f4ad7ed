// Offline evaluation: the position-bias curve, evaluations of candidate rankers from logged feedback,
// and the track record of predictions against later online results (issue 26, contract §B).
// The shapes are written out here rather than taken from the generated OpenAPI types, so the page
// builds before and after the client types are regenerated; they follow the contract's names.
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type ErrorDetail } from './client';
import { getApiKey } from './key';

export type EvalMetric = 'mrr' | 'clicks_per_search' | 'abandonment_rate' | 'satisfied_clicks' | `ctr@${number}`;
export type Estimator = 'ips' | 'snips' | 'dm-pbm' | 'dm-dbn' | 'dr';
/** JSON has no NaN: an estimate the service could not compute may arrive as null. */
export interface Estimate {
  estimate: number | null;
  interval: [number | null, number | null] | null;
}

export type CandidateInput = { modelId: string; version?: number } | { alias: string } | { rankings: Record<string, string[]> };
export type CandidateView =
  | { kind: 'model'; modelId: string; version: number }
  | { kind: 'alias'; alias: string; modelId: string | null; version: number | null }
  | { kind: 'rankings'; queries: number };

export interface EvaluationCreate {
  name?: string;
  candidate: CandidateInput;
  baseline?: CandidateInput;
  from: string;
  to: string;
  metrics?: EvalMetric[];
  estimator?: Estimator;
  depth?: number;
}

export interface PositionPoint {
  position: number;
  estimate: number | null;
  interval: [number | null, number | null];
  support: number;
}

export interface MetricEvaluationView {
  metric: EvalMetric;
  candidate: Estimate;
  baseline: Estimate;
  difference: Estimate;
  relativeDifference: Estimate;
  effectiveSampleSize: number | null;
  coverage: number | null;
}

export interface Evaluation {
  evaluationId: string;
  name: string | null;
  status: 'running' | 'done' | 'failed';
  progress: number;
  error?: string | null;
  createdAt: string;
  finishedAt: string | null;
  candidate: CandidateView;
  baseline: { kind: 'logged' } | CandidateView;
  window: { from: string; to: string };
  estimator: Estimator;
  depth: number;
  searches: number | null;
  queries: number | null;
  coverage: number | null;
  enoughCoverage: boolean | null;
  propensities?: PositionPoint[];
  metrics: MetricEvaluationView[];
  interleaving?: { wins: number; losses: number; ties: number; shareWon: number | null } | null;
  intervalMethod?: string | null;
  summary: string | null;
  /** E.g. the candidate learned from clicks inside this window: its prediction is optimistic. */
  warnings?: string[];
}

export interface PositionBias {
  method: string;
  window: { from: string; to: string };
  searches: number;
  harvestedPairs: number;
  positions: PositionPoint[];
  pbm: { position: number; examination: number | null }[];
}

export interface TrackPair {
  evaluationId: string;
  experimentId: string;
  experimentName: string;
  variantKey: string;
  kind: 'ab' | 'interleaving';
  /** The online metric compared; `offlineMetric` the evaluation's metric that predicted it (ctr@10 for ctr). */
  metric: string;
  offlineMetric?: string;
  predicted: Estimate;
  observed: Estimate | null;
  inside: boolean | null;
  signAgrees: boolean | null;
  experimentStatus: string;
}

export interface TrackRecord {
  pairs: TrackPair[];
  summary: { pairs: number; insideShare: number | null; signAgreement: number | null; spearman: number | null };
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const BASE = '/api/nous/learn';

/** One call in the service's envelope, with the key of Settings; errors become ApiError as elsewhere. */
async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  const key = getApiKey();
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch (error) {
    throw new ApiError(0, 'NETWORK', `the service did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = (await response.json().catch(() => null)) as {
    data?: T;
    error?: { code?: string; message?: string; details?: ErrorDetail[]; requestId?: string };
  } | null;
  if (response.ok && parsed && 'data' in parsed) return parsed.data as T;
  const e = parsed?.error;
  throw new ApiError(
    response.status,
    e?.code ?? `HTTP_${response.status}`,
    e?.message ?? `the service answered ${response.status} ${response.statusText}`,
    e?.details ?? [],
    e?.requestId ?? response.headers.get('x-request-id'),
  );
}

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

export interface EvalWindow {
  from: string;
  to: string;
}

export function usePositionBias(window: EvalWindow) {
  return useQuery({
    queryKey: ['position-bias', window],
    queryFn: () => call<PositionBias>('GET', `${BASE}/position-bias${query({ from: window.from, to: window.to })}`),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useEvaluationList(params: { limit: number; cursor?: string; modelId?: string }, enabled = true) {
  return useQuery({
    queryKey: ['evaluations', params],
    enabled,
    queryFn: () => call<Page<Evaluation>>('GET', `${BASE}/evaluations${query(params)}`),
    placeholderData: keepPreviousData,
  });
}

/** How often a running evaluation is asked for its progress. */
const POLL_MS = 1_000;

/** Several evaluations at once (a run's candidates side by side), each polled while it runs. */
export function useEvaluationsById(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((evaluationId) => ({
      queryKey: ['evaluation', evaluationId],
      queryFn: () => call<Evaluation>('GET', `${BASE}/evaluations/${encodeURIComponent(evaluationId)}`),
      refetchInterval: (q: { state: { data?: Evaluation } }) => (q.state.data?.status === 'running' ? POLL_MS : false),
    })),
  });
}

/** 201 answers the finished evaluation; 202 (a large window) answers `{evaluationId, status: 'running', progress}`. */
export function useCreateEvaluation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EvaluationCreate) =>
      call<Pick<Evaluation, 'evaluationId' | 'status' | 'progress'> & Partial<Evaluation>>('POST', `${BASE}/evaluations`, body),
    onSuccess: (answer) => {
      if (answer.status !== 'running' && answer.metrics) client.setQueryData(['evaluation', answer.evaluationId], answer);
      void client.invalidateQueries({ queryKey: ['evaluations'] });
    },
  });
}

export function useTrackRecord() {
  return useQuery({
    queryKey: ['track-record'],
    queryFn: () => call<TrackRecord>('GET', `${BASE}/evaluations/track-record`),
  });
}

/** The model and version an evaluation's candidate stands for, when a ranker version backs it (an online test needs one). */
export function candidateModel(c: CandidateView): { modelId: string; version: number } | null {
  if (c.kind === 'model') return { modelId: c.modelId, version: c.version };
  if (c.kind === 'alias' && c.modelId !== null && c.version !== null) return { modelId: c.modelId, version: c.version };
  return null;
}

/** The candidate in words: "v2 of ranker-a", "alias production (v1 of ranker-a)", "uploaded rankings (40 queries)". */
export function describeCandidate(c: CandidateView): string {
  if (c.kind === 'model') return `v${c.version} of ${c.modelId}`;
  if (c.kind === 'alias') return c.modelId ? `alias ${c.alias} (v${c.version} of ${c.modelId})` : `alias ${c.alias} (original order)`;
  return `uploaded rankings (${c.queries} ${c.queries === 1 ? 'query' : 'queries'})`;
}
