import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useExperiment, useResults, type ResultsRead } from '../../api/queries';
import { StatusBadge } from '../../components/badges';
import { ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { AuditTimeline } from './audit';
import { Configuration } from './configuration';
import { LifecycleButtons } from './lifecycle';
import { ResultsError, ResultsSection } from './results';
import { InterleavingSection } from './interleaving';
import { PredictedOffline } from './predicted-offline';

export function ExperimentDetailPage() {
  const { experimentId = '' } = useParams();
  const experiment = useExperiment(experimentId);
  const live = experiment.data?.status === 'running' || experiment.data?.status === 'paused';
  const started = experiment.data !== undefined && experiment.data.status !== 'created' && experiment.data.status !== 'scheduled';
  const [read, setRead] = useState<ResultsRead>({});
  const results = useResults(experimentId, live, started, read);
  useTitle(experiment.data?.name ?? 'Experiment');
  if (experiment.isPending) return <Loading what="the experiment" />;
  if (experiment.error) {
    return (
      <>
        <p>
          <Link to="/experiments">← Experiments</Link>
        </p>
        <ErrorState error={experiment.error} />
      </>
    );
  }
  const e = experiment.data;
  return (
    <>
      <p className="breadcrumb">
        <Link to="/experiments">← Experiments</Link>
      </p>
      <div className="page-head">
        <h1>
          {e.name} <StatusBadge status={e.status} />
        </h1>
        <LifecycleButtons experiment={e} untrustworthy={results.data ? !results.data.trustworthy : false} />
      </div>
      {e.description && <p>{e.description}</p>}
      {live && (
        <p className="muted small" aria-live="polite">
          Results refresh every 10 seconds while the experiment runs.
        </p>
      )}
      {started ? (
        results.error ? (
          <ResultsError error={results.error} />
        ) : results.data?.interleaving ? (
          <InterleavingSection experiment={e} results={results.data} />
        ) : results.data ? (
          <ResultsSection experiment={e} results={results.data} read={read} onRead={setRead} />
        ) : (
          <Loading what="results" />
        )
      ) : (
        <section className="card">
          <h2>Results</h2>
          <p>
            {e.status === 'scheduled'
              ? 'The experiment starts at its start date; results appear once sessions are assigned.'
              : 'Start the experiment to assign sessions to its variants; results appear as their feedback arrives.'}
          </p>
        </section>
      )}
      <PredictedOffline experiment={e} />
      <div className="grid-2">
        <Configuration experiment={e} />
        <AuditTimeline experimentId={e.experimentId} />
      </div>
    </>
  );
}
