import { Link } from 'react-router';
import { useTrackRecord } from '../../api/evaluations';
import { TrackRecordChart } from '../../charts';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { integer, metricShortLabel, number, percent } from '../../format';
import { intervalText, liftText, trackOutcome, trackPoints } from './derive';

const OUTCOME_CLASS = { inside: 'verdict-better', 'outside, same sign': 'verdict-ns', contradicted: 'verdict-worse' } as const;

/**
 * How often offline predictions were right once the candidate was tested online: every pair, the
 * contradicted ones in their own colour (never filtered out), and the summary figures.
 */
export function TrackRecordSection() {
  const record = useTrackRecord();
  const s = record.data?.summary;
  return (
    <section className="card" aria-labelledby="track-title" data-testid="track-record">
      <h2 id="track-title">Track record</h2>
      <p className="muted small">
        Each evaluated candidate that later served in an experiment: its predicted lift against the lift the experiment measured for the
        same metric (relative, against the control; interleaving: share of queries won). On the dashed line the prediction was exact.
      </p>
      {record.isPending && <Loading what="the track record" />}
      {record.error && <ErrorState error={record.error} />}
      {record.data && record.data.pairs.length === 0 && (
        <EmptyState title="No prediction has met an online test yet">
          <p>Evaluate a ranker version here, then test it online: once the experiment has results, the pair appears here.</p>
        </EmptyState>
      )}
      {record.data && s && record.data.pairs.length > 0 && (
        <>
          <dl className="facts" data-testid="track-summary">
            <dt>Pairs</dt>
            <dd data-field="pairs">{integer(s.pairs)}</dd>
            <dt>Online lift inside the predicted interval</dt>
            <dd data-field="insideShare">{percent(s.insideShare, 1)}</dd>
            <dt>Sign agreement</dt>
            <dd data-field="signAgreement">{percent(s.signAgreement, 1)}</dd>
            <dt>Spearman rank correlation</dt>
            <dd data-field="spearman">{number(s.spearman)}</dd>
          </dl>
          <figure className="figure">
            <figcaption>
              Predicted against observed lift with both intervals; green inside, amber outside with the same sign, red contradicted
            </figcaption>
            <TrackRecordChart points={trackPoints(record.data.pairs)} />
          </figure>
          <div className="table-wrap">
            <table className="table results-table stack-narrow" data-testid="track-pairs">
              <caption className="sr-only">Every prediction and its online outcome</caption>
              <thead>
                <tr>
                  <th scope="col">Experiment</th>
                  <th scope="col">Metric</th>
                  <th scope="col">Predicted</th>
                  <th scope="col">Observed</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {record.data.pairs.map((p) => {
                  const outcome = trackOutcome(p);
                  return (
                    <tr key={`${p.evaluationId}-${p.experimentId}-${p.variantKey}-${p.offlineMetric ?? p.metric}`}>
                      <th scope="row">
                        <Link to={`/experiments/${p.experimentId}`}>{p.experimentName}</Link>{' '}
                        <span className="muted small">
                          {p.variantKey} · {p.kind} · {p.experimentStatus}
                        </span>
                      </th>
                      <td data-label="Metric">
                        {metricShortLabel(p.offlineMetric ?? p.metric)}
                        {p.offlineMetric && p.offlineMetric !== p.metric && <> → {metricShortLabel(p.metric)}</>}
                      </td>
                      <td data-label="Predicted">
                        {liftText(p.predicted)} <span className="muted small">{intervalText(p.predicted)}</span>
                      </td>
                      <td data-label="Observed">
                        {p.observed ? (
                          <>
                            {liftText(p.observed)} <span className="muted small">{intervalText(p.observed)}</span>
                          </>
                        ) : (
                          'no result yet'
                        )}
                      </td>
                      <td data-label="Outcome" className={OUTCOME_CLASS[outcome]}>
                        {p.observed ? outcome : 'waiting'}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
