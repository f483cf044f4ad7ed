import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api/client';
import { LIVE_REFRESH_MS, useAnalyticsOverview, useExperiments, useFeedback, useModels } from '../api/queries';
import type { Experiment, Model } from '../api/types';
import { StatusBadge, OutcomeBadge } from '../components/badges';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { useTitle } from '../components/title';
import { dateTime, integer, relativeTime } from '../format';
import { ExperimentCurl, FeedbackCurl, KeyNote, ModelCurl } from './getting-started';
import { VolumeBars } from '../charts/volume-bars';
import { ProductionPanel, RecentDecisions } from './production/production-panel';

export function OverviewPage() {
  useTitle('Overview');
  const running = useExperiments({ status: 'running', limit: 10 });
  const models = useModels({ limit: 10 });
  const anyFeedback = useFeedback({ limit: 1 });
  const error = running.error ?? models.error ?? anyFeedback.error;
  return (
    <>
      <h1>Overview</h1>
      {error && <ErrorState error={error} />}
      {anyFeedback.data && anyFeedback.data.items.length === 0 && (
        <EmptyState title="No feedback yet">
          <p>
            Searchloop learns from the feedback your search front end sends: impressions, clicks, ratings, dwell time. To see every page
            filled, run <code>npx searchloop demo</code> in a second terminal: a simulated search site sends traffic to this service, trains
            a click model and a ranker, and A/B-tests the ranker. Or send the first items yourself:
          </p>
          <FeedbackCurl />
          <KeyNote />
        </EmptyState>
      )}
      {anyFeedback.data && anyFeedback.data.items.length > 0 && <FeedbackVolume />}
      <div className="grid-2">
        <section aria-labelledby="running-title" className="card">
          <h2 id="running-title">Running experiments</h2>
          {running.isPending ? <Loading what="experiments" /> : running.data && <RunningExperiments items={running.data.items} />}
        </section>
        <section aria-labelledby="models-title" className="card">
          <h2 id="models-title">Models</h2>
          {models.isPending ? <Loading what="models" /> : models.data && <ModelSummary items={models.data.items} />}
        </section>
      </div>
      <div className="grid-2">
        <ProductionPanel />
        <RecentDecisions />
      </div>
    </>
  );
}

function RunningExperiments({ items }: { items: Experiment[] }) {
  const results = useQueries({
    queries: items.map((e) => ({
      queryKey: ['results', e.experimentId],
      queryFn: () =>
        unwrap(
          api.GET('/api/nous/ab-testing/experiments/{experimentId}/results', {
            params: { path: { experimentId: e.experimentId }, query: {} },
          }),
        ),
      refetchInterval: LIVE_REFRESH_MS,
    })),
  });
  if (items.length === 0) {
    return (
      <>
        <p>
          No experiment is running. <Link to="/experiments/new">Create one</Link> and start it, or with curl:
        </p>
        <ExperimentCurl />
      </>
    );
  }
  return (
    <ul className="list">
      {items.map((e, i) => {
        const r = results[i];
        return (
          <li key={e.experimentId} data-testid={`running-${e.experimentId}`}>
            <Link to={`/experiments/${e.experimentId}`} className="strong">
              {e.name}
            </Link>{' '}
            <span className="muted small">since {dateTime(e.startDate ?? e.updatedAt)}</span>
            {r?.data ? (
              <p className="headline">
                {!r.data.trustworthy && (
                  <span className="badge badge-warn">
                    <span aria-hidden="true">⚠ </span>untrustworthy
                  </span>
                )}{' '}
                {r.data.summary}
              </p>
            ) : r?.error ? (
              <ErrorState error={r.error} title="Results failed" />
            ) : (
              <Loading what="results" />
            )}
          </li>
        );
      })}
    </ul>
  );
}

function ModelSummary({ items }: { items: Model[] }) {
  if (items.length === 0) {
    return (
      <>
        <p>
          No models yet. On its first start the server registers the click model <code>default</code>; register another with:
        </p>
        <ModelCurl />
      </>
    );
  }
  return (
    <table className="table">
      <caption className="sr-only">Models with status and last training</caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Status</th>
          <th scope="col">Last training</th>
        </tr>
      </thead>
      <tbody>
        {items.map((m) => (
          <tr key={m.modelId}>
            <td>
              <Link to={`/models/${encodeURIComponent(m.modelId)}`}>{m.name}</Link>
              <div className="muted small">{m.type.replace('_', ' ')}</div>
            </td>
            <td>
              <StatusBadge status={m.status} />
            </td>
            <td>
              {m.lastTraining ? (
                <>
                  <OutcomeBadge outcome={m.lastTraining.outcome} /> <span className="muted small">{relativeTime(m.lastTraining.at)}</span>
                </>
              ) : (
                <span className="muted">not yet</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The last 7 days of feedback (search analytics' overview): searches, sessions, and items per day by action. */
function FeedbackVolume() {
  const overview = useAnalyticsOverview({ interval: 'day' });
  const days = useMemo(
    () =>
      (overview.data?.series ?? []).map((p) => ({
        day: p.start.slice(5, 10),
        impressions: p.impressions,
        clicks: p.clicks,
        conversions: p.conversions,
      })),
    [overview.data],
  );
  if (overview.error) return <ErrorState error={overview.error} />;
  if (!overview.data) return <Loading what="feedback volume" />;
  const t = overview.data.totals;
  return (
    <section aria-labelledby="volume-title" className="card">
      <h2 id="volume-title">Feedback, last 7 days</h2>
      <p data-testid="volume-totals">
        <strong data-testid="volume-searches">{integer(t.searches)}</strong> searches ·{' '}
        <strong data-testid="volume-sessions">{integer(t.sessions)}</strong> sessions · {integer(t.impressions)} impressions ·{' '}
        {integer(t.clicks)} clicks · {integer(t.conversions)} conversions
      </p>
      <figure className="figure">
        <figcaption>Feedback per day by action</figcaption>
        <VolumeBars days={days} />
      </figure>
    </section>
  );
}
