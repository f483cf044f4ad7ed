import { Link, useSearchParams } from 'react-router';
import { useRowResults, useStartedAt } from '../../api/experiment-form';
import { useExperiments } from '../../api/queries';
import type { Comparison, Experiment, ExperimentStatus, Results } from '../../api/types';
import { StatusBadge, Verdict } from '../../components/badges';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { dateTime, integer, metricShortLabel, number, percent } from '../../format';
import { ExperimentCurl, KeyNote } from '../getting-started';

export const EXPERIMENT_STATUSES: ExperimentStatus[] = ['created', 'scheduled', 'running', 'paused', 'stopped', 'concluded', 'archived'];
const PAGE_SIZE = 20;

/** "3 days ago", "5 hours ago", "in 2 days": an age a person reads at a glance (the exact time is in the title). */
export function ago(iso: string, now = Date.now()): string {
  const seconds = (now - Date.parse(iso)) / 1000;
  const s = Math.abs(seconds);
  const [value, unit] = s < 60 ? [0, ''] : s < 3600 ? [s / 60, 'minute'] : s < 86_400 ? [s / 3600, 'hour'] : [s / 86_400, 'day'];
  if (!unit) return 'just now';
  const n = Math.round(value);
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return seconds < 0 ? `in ${text}` : `${text} ago`;
}

/** The moment the row's age counts from, in words: the start (date, else the audit log's start), else the first exposure day, else creation. */
function age(e: Experiment, startedAt: string | null | undefined, results: Results | undefined): { text: string; at: string } {
  if (e.status === 'concluded' || e.status === 'archived') {
    if (e.conclusion) return { text: `concluded ${ago(e.conclusion.concludedAt)}`, at: e.conclusion.concludedAt };
  }
  if (e.status === 'scheduled' && e.startDate) return { text: `starts ${ago(e.startDate)}`, at: e.startDate };
  if (e.status !== 'created') {
    const started = e.startDate ?? startedAt;
    if (started) return { text: `started ${ago(started)}`, at: started };
    const first = results?.series.flatMap((s) => s.points.map((p) => p.date)).sort()[0];
    if (first) return { text: `first session ${ago(`${first}T00:00:00Z`)}`, at: `${first}T00:00:00Z` };
  }
  return { text: `created ${ago(e.createdAt)}`, at: e.createdAt };
}

/** Exposed sessions: the sample-ratio check counts them per variant; interleaving counts its own. */
function size(results: Results): string {
  if (results.interleaving) return `${integer(results.interleaving.units)} sessions · ${integer(results.interleaving.queries)} queries`;
  const units = Object.values(results.srm.observed).reduce((a, b) => a + b, 0);
  return `${integer(units)} sessions`;
}

/**
 * The best lift among the target metrics (significant ones first, then the largest move in each metric's
 * good direction), with its verdict in words: "MRR +12.4 % ▲ significant, better".
 */
function bestLift(results: Results): { metric: string; comparison: Comparison } | null {
  let best: { metric: string; comparison: Comparison; score: [number, number] } | null = null;
  for (const m of results.metrics) {
    const sign = m.direction === 'lower' ? -1 : 1;
    for (const c of m.comparisons) {
      if (c.estimate === null) continue;
      const score: [number, number] = [c.significant ? 1 : 0, sign * c.estimate];
      if (!best || score[0] > best.score[0] || (score[0] === best.score[0] && score[1] > best.score[1]))
        best = { metric: m.metric, comparison: c, score };
    }
  }
  return best && { metric: best.metric, comparison: best.comparison };
}

function Headline({ experiment: e, results }: { experiment: Experiment; results: Results }) {
  const name = (id: string) => e.variants.find((v) => v.id === id)?.name ?? id;
  const warning = !results.trustworthy && (
    <span className="badge badge-warn" title={results.srm.note ?? undefined}>
      <span aria-hidden="true">⚠ </span>
      {results.interleaving ? 'team balance failed' : 'sample ratio mismatch'}
    </span>
  );
  if (results.interleaving) {
    // From the side of the ranker that is ahead, so the one that wins reads as better.
    const pair = [...results.interleaving.pairs]
      .filter((p) => p.preference !== null)
      .sort((a, b) => Number(b.significant) - Number(a.significant) || Math.abs(b.preference!) - Math.abs(a.preference!))[0];
    if (!pair) return <span className="muted">no decided query yet {warning}</span>;
    const ahead = pair.preference! >= 0;
    const [winner, loser] = ahead ? [pair.variantId, pair.opponentVariantId] : [pair.opponentVariantId, pair.variantId];
    return (
      <>
        <span className="strong">{name(winner)}</span> preferred to {name(loser)} in {percent(Math.abs(pair.preference!) + 0.5, 1)} of
        queries{' '}
        {pair.significant ? (
          <span className="verdict verdict-better">
            <span aria-hidden="true">▲ </span>significant
          </span>
        ) : (
          <span className="verdict verdict-ns">
            <span aria-hidden="true">≈ </span>not significant
          </span>
        )}{' '}
        {warning}
      </>
    );
  }
  const best = bestLift(results);
  if (!best) return <span className="muted">no lift to read yet {warning}</span>;
  const c = best.comparison;
  const treatments = e.variants.length - 1;
  return (
    <>
      <span className="strong">{metricShortLabel(best.metric)}</span>{' '}
      {results.scale === 'relative' ? percent(c.estimate, 1, true) : number(c.estimate, true)}
      {treatments > 1 && <span className="muted"> ({name(c.variantId)})</span>} <Verdict comparison={c} /> {warning}
    </>
  );
}

function ExperimentRow({ experiment: e }: { experiment: Experiment }) {
  const results = useRowResults(e);
  const startedAt = useStartedAt(e);
  const { text, at } = age(e, startedAt.data, results.data);
  const id = e.experimentId;
  return (
    <tr>
      <td>
        <Link to={`/experiments/${id}`}>{e.name}</Link>
        <div className="small" data-testid={`headline-${id}`}>
          {e.status === 'created' || e.status === 'scheduled' ? (
            <span className="muted">not started: no results yet</span>
          ) : results.data ? (
            <Headline experiment={e} results={results.data} />
          ) : results.error ? (
            <span className="muted" title={results.error.message}>
              results could not be read
            </span>
          ) : (
            <span className="muted">reading results…</span>
          )}
        </div>
      </td>
      <td>
        <StatusBadge status={e.status} />
        <div className="muted small" data-testid={`age-${id}`} title={dateTime(at)}>
          {text}
        </div>
        {results.data && (
          <div className="small" data-testid={`size-${id}`}>
            {size(results.data)}
          </div>
        )}
      </td>
      <td className="hide-narrow">{e.variants.map((v) => v.name).join(', ')}</td>
      <td className="hide-narrow">
        {e.configuration.type === 'interleaving' ? 'interleaving' : e.configuration.targetMetrics.map(metricShortLabel).join(', ')}
      </td>
    </tr>
  );
}

export function ExperimentsPage() {
  useTitle('Experiments');
  const [params, setParams] = useSearchParams();
  const raw = params.get('status');
  const status = EXPERIMENT_STATUSES.find((s) => s === raw);
  const pager = useCursorPager(status ?? 'all');
  const list = useExperiments({ limit: PAGE_SIZE, ...(status ? { status } : {}), ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  return (
    <>
      <div className="page-head">
        <h1>Experiments</h1>
        <Link to="/experiments/new" className="button primary">
          New experiment
        </Link>
      </div>
      <div className="filters">
        <label>
          Status{' '}
          <select value={status ?? ''} onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}>
            <option value="">any</option>
            {EXPERIMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.error && <ErrorState error={list.error} />}
      {list.isPending && <Loading what="experiments" />}
      {list.data && list.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title={status ? `No ${status} experiments` : 'No experiments yet'}>
          {status ? (
            <p>Choose another status, or “any”.</p>
          ) : (
            <>
              <p>
                An experiment splits sessions between variants and measures the difference on metrics such as CTR and MRR.{' '}
                <Link to="/experiments/new">Create one here</Link>, or with curl:
              </p>
              <ExperimentCurl />
              <KeyNote />
            </>
          )}
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="experiments-table">
            <caption className="sr-only">Experiments, newest first, each with its best lift, size and age</caption>
            <thead>
              <tr>
                <th scope="col">Name and headline</th>
                <th scope="col">Status, age and size</th>
                <th scope="col" className="hide-narrow">
                  Variants
                </th>
                <th scope="col" className="hide-narrow">
                  Metrics
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((e) => (
                <ExperimentRow key={e.experimentId} experiment={e} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={pager.page} nextCursor={list.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Experiments" />
    </>
  );
}
