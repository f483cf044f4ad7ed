import { useState } from 'react';
import { candidateModel, useEvaluationsById, type Evaluation } from '../../api/evaluations';
import { PredictedLiftPlot } from '../../charts';
import { ErrorState } from '../../components/states';
import { capitalised, dateTime, integer, lowerIsBetter, metricLabel, metricShortLabel, number, percent } from '../../format';
import { COVERAGE_WARNING, forestRows, intervalText, labelsOf, liftText, verdictOf } from './derive';
import { TestOnlineDialog, type OnlineCandidate } from './test-online';

/** Coverage below 0.8 warns; without enough coverage the service gives no estimate, and the page says so. */
function CoverageNote({ e }: { e: Evaluation }) {
  if (e.enoughCoverage === false) {
    return (
      <div className="callout callout-error" role="alert" data-testid={`no-estimate-${e.evaluationId}`}>
        <p>
          <span aria-hidden="true">⚠ </span>
          <strong>No estimate.</strong> Only {percent(e.coverage, 1)} of the candidate’s top {e.depth} results were ever shown in this
          window, too little to say anything about how users would react to it. Widen the window, or test it online.
        </p>
      </div>
    );
  }
  if (e.coverage !== null && e.coverage < COVERAGE_WARNING) {
    return (
      <p className="callout callout-error" data-testid={`coverage-warning-${e.evaluationId}`}>
        <span aria-hidden="true">⚠ </span>
        <strong>Low coverage: {percent(e.coverage, 1)}</strong> of the candidate’s top {e.depth} results have logged evidence. The rest were
        never shown, so the prediction rests on fewer results than the candidate would show; read its interval with care.
      </p>
    );
  }
  return null;
}

function MetricsTable({ e, label }: { e: Evaluation; label: string }) {
  return (
    <div className="table-wrap">
      <table className="table results-table stack-narrow" data-testid={`evaluation-${e.evaluationId}`}>
        <caption className="sr-only">Predicted metrics of {label}</caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Baseline</th>
            <th scope="col">Candidate</th>
            <th scope="col">Predicted lift</th>
            <th scope="col">95 % interval</th>
            <th scope="col">Effective sample size</th>
            <th scope="col">Coverage</th>
          </tr>
        </thead>
        <tbody>
          {e.metrics.map((m) => {
            const [low, high] = m.relativeDifference.interval ?? [null, null];
            const verdict = low !== null && high !== null ? verdictOf(m.metric, low, high) : 'unclear';
            return (
              <tr key={m.metric} data-testid={`metric-${e.evaluationId}-${m.metric}`}>
                <th scope="row" title={m.metric}>
                  {capitalised(metricLabel(m.metric))}
                </th>
                <td data-label="Baseline">{number(m.baseline.estimate)}</td>
                <td data-label="Candidate">{number(m.candidate.estimate)}</td>
                <td data-label="Predicted lift" data-field="lift" className={`verdict-${verdict === 'unclear' ? 'ns' : verdict}`}>
                  {liftText(m.relativeDifference)}
                </td>
                <td data-label="95 % interval" data-field="interval">
                  {intervalText(m.relativeDifference)}
                </td>
                <td data-label="Effective sample size">{integer(m.effectiveSampleSize)}</td>
                <td data-label="Coverage">{percent(m.coverage, 1)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function CandidateCard({ e, label, onTest }: { e: Evaluation; label: string; onTest: (c: OnlineCandidate) => void }) {
  const model = candidateModel(e.candidate);
  return (
    <article className="card" data-testid={`candidate-${e.evaluationId}`} aria-label={label}>
      <h3>{label}</h3>
      <p className="headline" data-testid={`summary-${e.evaluationId}`}>
        {e.summary}
      </p>
      <p className="muted small">
        {e.estimator} · top {e.depth} · {integer(e.searches)} searches over {integer(e.queries)} queries · coverage {percent(e.coverage, 1)}{' '}
        · window {dateTime(e.window.from)} – {dateTime(e.window.to)}
        {e.interleaving?.shareWon != null && <> · expected interleaving: wins {percent(e.interleaving.shareWon, 1)} of queries</>}
        {e.intervalMethod && <> · intervals: {e.intervalMethod}</>}
      </p>
      <CoverageNote e={e} />
      {(e.warnings ?? []).map((w) => (
        <p key={w} className="callout callout-error" data-testid={`warning-${e.evaluationId}`}>
          <span aria-hidden="true">⚠ </span>
          {w}
        </p>
      ))}
      {e.metrics.length > 0 && <MetricsTable e={e} label={label} />}
      {model && (
        <div className="actions">
          <button
            type="button"
            data-testid={`test-online-${e.evaluationId}`}
            onClick={() => onTest({ ...model, label, evaluation: e })}
            aria-label={`Test ${label} online`}
          >
            Test online…
          </button>
        </div>
      )}
    </article>
  );
}

/** The evaluations of a run (or picked from the list), side by side: forest plot, then a card per candidate. */
export function EvaluationResults({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  const answers = useEvaluationsById(ids);
  const [testing, setTesting] = useState<OnlineCandidate | null>(null);
  const done = answers.flatMap((a) => (a.data?.status === 'done' ? [a.data] : []));
  const labels = labelsOf(answers.flatMap((a) => (a.data ? [a.data] : [])));
  const rows = forestRows(done, labels);
  const candidates = [...new Set(rows.map((r) => r.candidate))];
  const metrics = [...new Set(rows.map((r) => r.metric))];
  const first = done[0]?.metrics[0]?.metric ?? 'mrr';
  const direction = lowerIsBetter(first) ? -1 : 1;
  return (
    <section className="card" aria-labelledby="evaluated-title">
      <div className="page-head">
        <h2 id="evaluated-title">Predicted effect</h2>
        <button type="button" onClick={onClear}>
          Clear
        </button>
      </div>
      {answers.map((a, i) =>
        a.error ? (
          <ErrorState key={ids[i]} error={a.error} title="The evaluation could not be read" />
        ) : a.data?.status === 'running' ? (
          <p key={ids[i]} role="status" aria-live="polite" data-testid={`progress-${ids[i]}`}>
            {labels.get(ids[i]!)}: evaluating… <progress value={a.data.progress} max={1} aria-label="Progress" />{' '}
            {percent(a.data.progress, 0)}
          </p>
        ) : a.data?.status === 'failed' ? (
          <ErrorState key={ids[i]} error={new Error(a.data.error ?? 'the evaluation failed')} title={`${labels.get(ids[i]!)} failed`} />
        ) : null,
      )}
      {rows.length > 0 && (
        <figure className="figure" data-testid="forest-plot" data-rows={rows.length}>
          <figcaption>
            Predicted relative lift against what served, with 95 % intervals; green: better in the metric’s direction (abandonment: lower is
            better), red: worse, grey: the interval holds zero.
          </figcaption>
          <PredictedLiftPlot rows={rows} candidates={candidates} metrics={metrics} />
          <p className="sr-only">{rows.map((r) => `${r.candidate}, ${r.metric}: ${percent(r.lift, 2, true)}`).join('; ')}</p>
        </figure>
      )}
      {done.map((e) => (
        <CandidateCard key={e.evaluationId} e={e} label={labels.get(e.evaluationId)!} onTest={setTesting} />
      ))}
      {done.length > 1 && rows.length > 0 && (
        <p className="muted small" data-testid="ordering">
          Best first by predicted {metricShortLabel(first)}:{' '}
          {[...done]
            .filter((e) => e.metrics[0]?.relativeDifference.estimate != null)
            .sort((a, b) => (b.metrics[0]!.relativeDifference.estimate! - a.metrics[0]!.relativeDifference.estimate!) * direction)
            .map((e) => labels.get(e.evaluationId))
            .join(' › ')}
        </p>
      )}
      <TestOnlineDialog candidate={testing} onCancel={() => setTesting(null)} />
    </section>
  );
}
