import { Link, useParams } from 'react-router';
import { useModel, useVersions } from '../../api/queries';
import type { Model, ModelVersion } from '../../api/types';
import { StatusBadge, OutcomeBadge } from '../../components/badges';
import { ExaminationChart, FeatureImportanceChart, NdcgChart, VersionsChart } from '../../charts';
import { ErrorState, Loading } from '../../components/states';
import { Downloads, TrainButton } from './actions';
import { ModelAliases } from './aliases';
import { useTitle } from '../../components/title';
import { dateTime, integer, number, relativeTime, words } from '../../format';
import { TrainingMode } from './training-mode';
import { keyMetric, num, readTraining, type Metrics } from './training-read';
import './model-page.css';

export function ModelDetailPage() {
  const { modelId = '' } = useParams();
  const model = useModel(modelId);
  const versions = useVersions(modelId, model.data?.activeVersion);
  useTitle(model.data?.name ?? 'Model');
  if (model.isPending) return <Loading what="the model" />;
  if (model.error) {
    return (
      <>
        <p className="breadcrumb">
          <Link to="/models">← Models</Link>
        </p>
        <ErrorState error={model.error} />
      </>
    );
  }
  const m = model.data;
  const metrics = m.metrics as Metrics;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/models">← Models</Link>
      </p>
      <div className="page-head">
        <h1>
          {m.name} <StatusBadge status={m.status} />
        </h1>
        <TrainButton model={m} />
      </div>
      <section className="card" aria-labelledby="model-facts">
        <h2 id="model-facts" className="sr-only">
          Facts
        </h2>
        <dl className="facts">
          <dt>Id</dt>
          <dd>
            <code>{m.modelId}</code>
          </dd>
          <dt>Type</dt>
          <dd>
            {m.type.replace('_', ' ')}
            {typeof m.config.algorithm === 'string' && `, ${m.config.algorithm}`}
          </dd>
          <dt>Active version</dt>
          <dd data-testid="active-version">{m.activeVersion === null ? 'none yet' : `v${m.activeVersion}`}</dd>
          <dt>Last training</dt>
          <dd>
            {m.lastTraining ? (
              <>
                <OutcomeBadge outcome={m.lastTraining.outcome} /> {relativeTime(m.lastTraining.at)}
                {m.lastTraining.message && <div className="muted small">{m.lastTraining.message}</div>}
              </>
            ) : (
              'not yet'
            )}
          </dd>
          {m.nextTrainingAt && (
            <>
              <dt>Next training</dt>
              <dd>{dateTime(m.nextTrainingAt)}</dd>
            </>
          )}
          {m.error && (
            <>
              <dt>Error</dt>
              <dd className="text-error">{m.error}</dd>
            </>
          )}
        </dl>
        {m.activeVersion !== null && <Downloads model={m} />}
      </section>
      {m.activeVersion === null && m.status !== 'failed' && (
        <p className="callout callout-empty">
          No version is trained yet.{' '}
          {m.status === 'pending' || m.status === 'training'
            ? 'Training is queued or running; this page refreshes.'
            : 'Train it once there is feedback.'}
        </p>
      )}
      {m.type === 'click_model' && Array.isArray(metrics.examination) && metrics.examination.length > 0 && (
        <section className="card" aria-labelledby="exam-title">
          <h2 id="exam-title">Examination by rank</h2>
          <p className="muted small">
            How likely a user looks at each rank, as the click model estimated it: the position bias it removes. Ranks nobody was shown at
            keep the model's prior.
          </p>
          <ExaminationChart examination={(metrics.examination as unknown[]).map((v) => num(v) ?? 0)} />
          <ExaminationTable examination={metrics.examination as unknown[]} />
        </section>
      )}
      {m.type === 'ranker' && <TrainingMode model={m} versions={versions.data?.items} />}
      {m.type === 'ranker' && metrics.ndcg !== undefined && <RankerQuality metrics={metrics} />}
      {m.type === 'ranker' && <ModelAliases model={m} />}
      <section className="card" aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        {versions.error && <ErrorState error={versions.error} />}
        {versions.isPending && <Loading what="versions" />}
        {versions.data && <Versions model={m} items={versions.data.items} />}
      </section>
    </>
  );
}

function ExaminationTable({ examination }: { examination: unknown[] }) {
  return (
    <details>
      <summary>Examination values</summary>
      <table className="table compact" data-testid="examination-table">
        <thead>
          <tr>
            <th scope="col">Rank</th>
            <th scope="col">P(examined)</th>
          </tr>
        </thead>
        <tbody>
          {examination.map((v, i) => (
            <tr key={i}>
              <td>{i + 1}</td>
              <td>{number(num(v))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function RankerQuality({ metrics }: { metrics: Metrics }) {
  const systems: [string, unknown][] = [
    ['ranker', metrics.ndcg],
    ['original order', (metrics.baseline as Metrics | undefined)?.original],
    ['random order', (metrics.baseline as Metrics | undefined)?.random],
  ];
  const rows = systems.flatMap(([system, value]) => {
    const ndcg = (system === 'ranker' ? value : (value as Metrics | undefined)?.ndcg) as Metrics | undefined;
    return Object.entries(ndcg ?? {})
      .map(([k, v]) => ({ k, system, value: num(v) }))
      .filter((r): r is { k: string; system: string; value: number } => r.value !== null);
  });
  const importance = Array.isArray(metrics.featureImportance)
    ? (metrics.featureImportance as { feature: string; share: number }[]).slice(0, 15)
    : [];
  const ks = [...new Set(rows.map((r) => r.k))];
  return (
    <section className="card" aria-labelledby="ranker-title">
      <h2 id="ranker-title">Ranking quality on held-out queries</h2>
      {readTraining(metrics).data === 'clicks' && (
        <p className="muted small">Gains here are the held-out results’ click rates with the position bias taken out, not judgments.</p>
      )}
      {rows.length > 0 && <NdcgChart rows={rows} />}
      <div className="table-wrap">
        <table className="table compact stack-narrow" data-testid="ndcg-table">
          <caption className="sr-only">NDCG at k</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              {ks.map((k) => (
                <th key={k} scope="col">
                  NDCG@{k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {systems.map(([system]) => (
              <tr key={system}>
                <th scope="row">{system}</th>
                {ks.map((k) => (
                  <td key={k} data-label={`NDCG@${k}`}>
                    {number(rows.find((r) => r.system === system && r.k === k)?.value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {importance.length > 0 && (
        <>
          <h3>Feature importance</h3>
          <FeatureImportanceChart rows={importance} />
        </>
      )}
    </section>
  );
}

function Versions({ model, items }: { model: Model; items: ModelVersion[] }) {
  if (items.length === 0) return <p>No version yet: every training run that learns something adds one, with its held-out metrics.</p>;
  // Each version's figure is the one it competed on (a ranker on clicks: IPS-NDCG@10); the chart keeps the newest one's kind only.
  const keys = new Map(items.map((v) => [v.version, keyMetric(model.type, v.metrics as Metrics)]));
  const newest = keys.get(Math.max(...items.map((v) => v.version)))!;
  const mixed = [...keys.values()].some((k) => k.metric !== newest.metric);
  const chart = items
    .map((v) => ({ version: v.version, value: keys.get(v.version)!.value, metric: keys.get(v.version)!.metric, active: v.active }))
    .filter((r): r is { version: number; value: number; metric: string; active: boolean } => r.value !== null && r.metric === newest.metric)
    .sort((a, b) => a.version - b.version);
  return (
    <>
      {chart.length > 1 && <VersionsChart rows={chart} metric={newest.label} />}
      <div className="table-wrap">
        <table className="table versions-table" data-testid="versions-table">
          <caption className="sr-only">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Outcome</th>
              <th scope="col">{mixed ? 'held-out figure' : newest.label}</th>
              <th scope="col" className="hide-narrow">
                Data
              </th>
              <th scope="col" className="hide-narrow">
                Trained
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((v) => (
              <tr key={v.version} data-testid={`version-${v.version}`}>
                <th scope="row">
                  v{v.version} {v.active && <span className="badge status-ready">✓ active</span>}
                </th>
                <td>
                  <OutcomeBadge outcome={v.outcome} />
                  {v.message && <div className="muted small">{v.message}</div>}
                </td>
                <td>
                  <span data-field="key-metric">{number(keys.get(v.version)!.value)}</span>
                  {mixed && <div className="muted small">{keys.get(v.version)!.label}</div>}
                </td>
                <td className="hide-narrow small">
                  {Object.entries(v.counts)
                    .slice(0, 4)
                    .map(([name, n]) => `${integer(n)} ${words(name)}`)
                    .join(', ')}
                </td>
                <td className="hide-narrow small">
                  {dateTime(v.createdAt)} · {number(v.trainingSeconds)} s
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
