import type { Experiment } from '../../api/types';
import { dateTime, metricLabel, percent } from '../../format';
import { dimensionLabel } from './results-views';

export function Configuration({ experiment: e }: { experiment: Experiment }) {
  const c = e.configuration;
  const control = c.controlVariantId ?? c.variants[0]?.id;
  return (
    <section aria-labelledby="config-title" className="card">
      <h2 id="config-title">Configuration</h2>
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">Variants</caption>
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col">Weight</th>
              <th scope="col">Config</th>
            </tr>
          </thead>
          <tbody>
            {c.variants.map((v) => (
              <tr key={v.id}>
                <td>
                  <span className="strong">{v.name}</span> {v.name !== v.id && <code className="muted">{v.id}</code>}
                  {v.id === control && <span className="badge">control</span>}
                </td>
                <td>{percent(v.weight, 1)}</td>
                <td>
                  <code className="json">{JSON.stringify(v.config)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="facts">
        <dt>Traffic allocation</dt>
        <dd>{percent(c.trafficAllocation, 0)} of sessions</dd>
        <dt>Target metrics</dt>
        <dd>{c.targetMetrics.map(metricLabel).join(', ')}</dd>
        <dt>Analysis</dt>
        <dd>
          {c.analysis.scale} scale, {c.analysis.method}, α = {c.analysis.alpha}, correction {c.analysis.correction}, MDE{' '}
          {percent(c.analysis.mde, 1)}, CUPED {c.analysis.cuped ? 'on' : 'off'}, prior {c.analysis.bayesianPrior}
          {c.analysis.dimensions.length > 0 && <>, slices by {c.analysis.dimensions.map(dimensionLabel).join(', ')}</>}
          {c.analysis.capping && Object.keys(c.analysis.capping).length > 0 && (
            <>
              , capped:{' '}
              {Object.entries(c.analysis.capping)
                .map(([m, cap]) => `${m} at ${cap.type === 'percentile' ? `p${Math.round(cap.value * 1000) / 10}` : cap.value}`)
                .join(', ')}
            </>
          )}
        </dd>
        {c.analysis.guardrails.length > 0 && (
          <>
            <dt>Guardrails</dt>
            <dd data-testid="guardrails-config">
              {c.analysis.guardrails
                .map(
                  (g) =>
                    `${metricLabel(g.metric)} within ${g.scale === 'absolute' ? g.margin : percent(g.margin, 1)}${g.autoPause ? ' (auto-pause)' : ''}`,
                )
                .join('; ')}
            </dd>
          </>
        )}
        <dt>Dates</dt>
        <dd>
          {e.startDate ? dateTime(e.startDate) : 'starts when started'} → {e.endDate ? dateTime(e.endDate) : 'runs until stopped'}
        </dd>
        <dt>Phase</dt>
        <dd>{e.phase}</dd>
        {c.layer && (
          <>
            <dt>Layer</dt>
            <dd>
              {c.layer.id}, range [{c.layer.range.join(', ')})
            </dd>
          </>
        )}
        {c.seed && (
          <>
            <dt>Seed</dt>
            <dd>
              <code>{c.seed}</code>
            </dd>
          </>
        )}
        {c.conditions !== undefined && (
          <>
            <dt>Targeting</dt>
            <dd>
              <code className="json">{JSON.stringify(c.conditions)}</code>
            </dd>
          </>
        )}
        {e.conclusion && (
          <>
            <dt>Conclusion</dt>
            <dd>
              {e.conclusion.decision}
              {e.conclusion.winnerVariantId && `, winner ${e.conclusion.winnerVariantId}`}
              {e.conclusion.forced && ' (forced over a failed sample-ratio check)'} · {dateTime(e.conclusion.concludedAt)}
              {e.conclusion.notes && <div className="muted">{e.conclusion.notes}</div>}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
