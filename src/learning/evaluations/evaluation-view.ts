import { toIso } from '../../common/clock.js';
import type { EvaluationView } from './evaluation.schemas.js';
import type { EvaluationRecord } from './evaluation.store.js';
import type { EstimationOutput } from './estimate.js';
import type { SourceView } from './ranking-sources.js';

/** What is stored in `request`: the evaluation as resolved at creation. */
export interface StoredRequest {
  candidate: SourceView;
  baseline: SourceView;
  window: { start: number; end: number };
  estimator: EvaluationView['estimator'];
  depth: number;
  metrics: string[];
  /** What the reader should know before trusting the numbers (absent in rows stored before it existed). */
  warnings?: string[];
}

/**
 * A running row whose heartbeat (every 15 s while it runs) is older than this was left by a process
 * that stopped: it reads as failed. Read-side, so no instance has to decide another's runs are dead.
 */
export const STALE_AFTER_MS = 120_000;

/** What is stored in `result` once done. */
export type StoredResult = Pick<
  EvaluationView,
  | 'searches'
  | 'queries'
  | 'coverage'
  | 'enoughCoverage'
  | 'propensities'
  | 'metrics'
  | 'observedBaseline'
  | 'interleaving'
  | 'intervalMethod'
  | 'summary'
>;

export function toStoredResult(out: EstimationOutput): StoredResult {
  const e = out.evaluation;
  return {
    searches: e.searches,
    queries: e.queries,
    coverage: e.coverage,
    enoughCoverage: e.enoughCoverage,
    propensities: out.propensities.positions,
    metrics: e.metrics,
    observedBaseline: e.observedBaseline,
    interleaving: e.interleaving,
    intervalMethod: e.intervalMethod,
    summary: out.summary,
  };
}

const PENDING: StoredResult = {
  searches: null,
  queries: null,
  coverage: null,
  enoughCoverage: null,
  propensities: [],
  metrics: [],
  observedBaseline: {},
  interleaving: null,
  intervalMethod: null,
  summary: '',
};

export function toEvaluationView(stored: EvaluationRecord, now: number): EvaluationView {
  const r: EvaluationRecord =
    stored.status === 'running' && now - stored.heartbeatAt > STALE_AFTER_MS
      ? {
          ...stored,
          status: 'failed',
          error: `stopped: the service running it stopped (no sign of life since ${toIso(stored.heartbeatAt)}); create it again`,
        }
      : stored;
  const request = JSON.parse(r.request) as StoredRequest;
  const result = r.result === null ? PENDING : (JSON.parse(r.result) as StoredResult);
  const summary =
    r.status === 'running'
      ? `running: ${Math.round(r.progress * 100)} % done`
      : r.status === 'failed'
        ? `failed: ${r.error ?? 'unknown error'}`
        : result.summary;
  return {
    evaluationId: r.id,
    name: r.name,
    status: r.status,
    progress: r.progress,
    ...(r.error !== null ? { error: r.error } : {}),
    createdAt: toIso(r.createdAt),
    createdBy: r.createdBy,
    finishedAt: r.finishedAt === null ? null : toIso(r.finishedAt),
    candidate: request.candidate,
    baseline: request.baseline,
    window: { from: toIso(request.window.start), to: toIso(request.window.end) },
    estimator: request.estimator,
    depth: request.depth,
    metricsRequested: request.metrics,
    warnings: request.warnings ?? [],
    ...result,
    summary,
  };
}

export function describeSource(s: SourceView): string {
  if (s.kind === 'model') return `${s.modelId} v${s.version}`;
  if (s.kind === 'alias') return s.modelId === null ? `${s.alias} (original order)` : `${s.alias} (${s.modelId} v${s.version})`;
  if (s.kind === 'rankings') return `uploaded rankings (${s.queries} queries)`;
  return 'logged';
}
