import { useQueries } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { ResultsRead } from '../../api/queries';
import { GuardrailsTable, ReadControls, SlicesTable } from './results-views';
import type { Comparison, Experiment, MetricResult, Results } from '../../api/types';
import { Verdict } from '../../components/badges';
import { ErrorState } from '../../components/states';
import { ForestPlot, LiftSeriesChart, type ForestRow, type LiftPoint } from '../../charts';
import { chance, dateTime, days, integer, interval, number, pValue, percent, scaled } from '../../format';

export function SrmBanner({ results }: { results: Results }) {
  const { srm } = results;
  const counts = Object.entries(srm.observed)
    .map(([id, n]) => `${id} ${integer(n)} (expected ${integer(srm.expected[id])})`)
    .join(', ');
  if (srm.passed) {
    return (
      <p className="callout callout-ok" data-testid="srm-banner">
        <span aria-hidden="true">✓ </span>
        <strong>Sample ratio check passed</strong>
        {srm.pValue !== null && <> (p = {pValue(srm.pValue)})</>}. {srm.note}
        {counts && <span className="muted small"> Sessions: {counts}.</span>}
      </p>
    );
  }
  return (
    <div className="callout callout-error" role="alert" data-testid="srm-banner">
      <p>
        <span aria-hidden="true">⚠ </span>
        <strong>Sample ratio mismatch (p = {pValue(srm.pValue)}): these results are untrustworthy.</strong> The variants received sessions
        in other proportions than their weights, so something other than the variants differs between them (assignment, tracking, bots).
        Shipping is blocked unless forced.
      </p>
      <p className="small">Sessions: {counts}.</p>
    </div>
  );
}

function ComparisonCells({ c, scale }: { c: Comparison | undefined; scale: string }) {
  if (!c) {
    return (
      <td colSpan={7} className="muted">
        control
      </td>
    );
  }
  const other = c.otherScale;
  return (
    <>
      <td data-field="estimate">{scaled(scale, c.estimate, true)}</td>
      <td data-field="interval">{interval(c.interval, (v) => scaled(scale, v))}</td>
      <td data-field="pValue">{pValue(c.pValue)}</td>
      <td data-field="adjustedPValue">
        {pValue(c.adjustedPValue)}
        <div className="muted small" data-field="adjustedInterval">
          {interval(c.adjustedInterval, (v) => scaled(scale, v))}
        </div>
      </td>
      <td data-field="otherScale" className="muted">
        {other.scale}: {scaled(other.scale, other.estimate, true)}
      </td>
      <td data-field="chanceToBeatControl">{chance(c.chanceToBeatControl)}</td>
      <td data-field="verdict">
        <Verdict comparison={c} />
      </td>
    </>
  );
}

function MetricTable({ metric, names, scale }: { metric: MetricResult; names: Map<string, string>; scale: string }) {
  return (
    <div className="table-wrap">
      <table className="table results-table" data-testid={`results-${metric.metric}`}>
        <caption>
          <span className="strong">{metric.metric}</span> <span className="muted small">({metric.direction} is better)</span>
          {metric.capping && (
            <span className="muted small" data-testid={`capping-${metric.metric}`}>
              {' '}
              · capped at {number(metric.capping.cap)} per unit ({metric.capping.type} {metric.capping.value};{' '}
              {integer(Object.values(metric.capping.cappedUnits).reduce((a, b) => a + b, 0))} units capped)
            </span>
          )}
        </caption>
        <thead>
          <tr>
            <th scope="col">Variant</th>
            <th scope="col">Sessions</th>
            <th scope="col">Value</th>
            <th scope="col">Lift ({scale})</th>
            <th scope="col">CI ({scale})</th>
            <th scope="col">p</th>
            <th scope="col">Adj. p (adj. CI)</th>
            <th scope="col">Other scale, estimate only</th>
            <th scope="col">Chance to beat control</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {metric.variants.map((v) => (
            <tr key={v.variantId} data-testid={`row-${metric.metric}-${v.variantId}`}>
              <th scope="row">{names.get(v.variantId) ?? v.variantId}</th>
              <td data-field="units">{integer(v.units)}</td>
              <td data-field="value">{number(v.value)}</td>
              <ComparisonCells c={metric.comparisons.find((c) => c.variantId === v.variantId)} scale={scale} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function forestRows(results: Results, names: Map<string, string>): ForestRow[] {
  return results.metrics.flatMap((m) =>
    m.comparisons
      .filter((c) => c.estimate !== null && c.adjustedInterval !== null)
      .map((c) => ({
        label: results.metrics.length > 1 || m.comparisons.length > 1 ? `${m.metric} · ${names.get(c.variantId) ?? c.variantId}` : m.metric,
        lift: c.estimate!,
        low: c.adjustedInterval![0]!,
        high: c.adjustedInterval![1]!,
        verdict: !c.significant ? ('not significant' as const) : c.improved ? ('better' as const) : ('worse' as const),
      })),
  );
}

function liftPoints(results: Results, metric: string, names: Map<string, string>): LiftPoint[] {
  const series = results.series.find((s) => s.metric === metric);
  return (series?.points ?? [])
    .filter((p) => p.estimate !== null && p.interval !== null)
    .map((p) => ({
      date: new Date(`${p.date}T00:00:00Z`),
      variant: names.get(p.variantId) ?? p.variantId,
      lift: p.estimate!,
      low: p.interval![0]!,
      high: p.interval![1]!,
    }));
}

export function ResultsSection({
  experiment,
  results,
  read = {},
  onRead = () => undefined,
}: {
  experiment: Experiment;
  results: Results;
  read?: ResultsRead;
  onRead?: (r: ResultsRead) => void;
}) {
  const names = new Map(experiment.variants.map((v) => [v.id, v.name]));
  const units = results.metrics[0]?.variants.reduce((s, v) => s + v.units, 0) ?? 0;
  const rows = forestRows(results, names);
  return (
    <section aria-labelledby="results-title" className="card">
      <h2 id="results-title">Results</h2>
      <p className="muted small">
        <span data-testid="results-scale">
          Every p-value, interval and verdict is on the <strong>{results.scale}</strong> scale
          {results.scale === 'relative' ? ' ((B − A)/|A|)' : ' (B − A, in the metric’s units)'}
        </span>{' '}
        ·{' '}
        {results.method === 'sequential'
          ? 'sequential (always-valid) intervals'
          : 'fixed-horizon tests (Welch; score test for proportions of sessions)'}
        , α = {results.alpha}, {results.correction} correction · phase {results.phase} · computed {dateTime(results.computedAt)}
        {results.dataFreshAsOf && <>, feedback up to {dateTime(results.dataFreshAsOf)}</>}
      </p>
      <ReadControls experiment={experiment} read={read} onRead={onRead} />
      <SrmBanner results={results} />
      <p className="headline" data-testid="summary">
        {results.summary}
      </p>
      {units === 0 ? (
        <p>
          No session has been exposed yet. Results appear once your front end asks <code>POST …/experiments/{'{id}'}/assign</code> for a
          session and sends its feedback with the same <code>sessionId</code>.
        </p>
      ) : (
        <>
          {results.metrics.map((m) => (
            <MetricTable key={m.metric} metric={m} names={names} scale={results.scale} />
          ))}
          <GuardrailsTable results={results} names={names} />
          {results.slices && <SlicesTable slices={results.slices} scale={results.scale} names={names} />}
          {rows.length > 0 && (
            <figure className="figure">
              <figcaption>
                Lift against control ({results.scale}) with its interval adjusted for multiple testing ({results.correction})
              </figcaption>
              <ForestPlot rows={rows} scale={results.scale} />
            </figure>
          )}
          {results.metrics.map((m) => {
            const points = liftPoints(results, m.metric, names);
            return points.length > 0 ? (
              <figure className="figure" key={`series-${m.metric}`}>
                <figcaption>
                  {m.metric}: cumulative {results.scale} lift by exposure day, with its interval
                  {results.method === 'fixed' && ' (fixed-horizon intervals are valid only at the planned end, not at every look)'}
                </figcaption>
                <LiftSeriesChart points={points} metric={m.metric} scale={results.scale} />
              </figure>
            ) : null;
          })}
          <PowerTable experiment={experiment} results={results} />
        </>
      )}
    </section>
  );
}

/** Power reached so far, and what the planned MDE needs: the service's power calculator on this experiment's data. */
function PowerTable({ experiment, results }: { experiment: Experiment; results: Results }) {
  const mde = experiment.configuration.analysis.mde;
  const plans = useQueries({
    queries: results.metrics.map((m) => ({
      queryKey: ['power', experiment.experimentId, m.metric, mde, results.computedAt],
      queryFn: () =>
        unwrap(
          api.POST('/api/nous/ab-testing/power', {
            body: { metric: m.metric, mde, alpha: results.alpha, experimentId: experiment.experimentId },
          }),
        ),
      retry: false,
    })),
  });
  const live = experiment.status === 'running' || experiment.status === 'paused';
  return (
    <div className="table-wrap">
      <table className="table" data-testid="power-table">
        <caption>
          Power against a true relative effect of {percent(mde, 1)} (the experiment's MDE), planned for the analysis the results apply
          {plans[0]?.data?.bound ? ` (${plans[0].data.bound})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Power reached</th>
            <th scope="col">Sessions needed per variant</th>
            <th scope="col">Smallest arm so far</th>
            <th scope="col">Units still needed (as analysed)</th>
            {live && <th scope="col">Estimated time to go</th>}
          </tr>
        </thead>
        <tbody>
          {results.metrics.map((m, i) => {
            const plan = plans[i];
            const reached = m.comparisons.map((c) => c.power).filter((p): p is number => p !== null);
            const smallest = Math.min(...m.variants.map((v) => v.units));
            const needed = plan?.data?.sessionsPerVariant ?? null;
            // Sessions enter at dailySessions × allocation a day, split by weight; the smallest weight sets the pace.
            const minWeight = Math.min(...experiment.variants.map((v) => v.weight));
            const perDay = plan?.data?.dailySessions
              ? plan.data.dailySessions * experiment.configuration.trafficAllocation * minWeight
              : null;
            const toGo = needed !== null && perDay ? Math.max(0, needed - smallest) / perDay : null;
            return (
              <tr key={m.metric} data-testid={`power-${m.metric}`}>
                <th scope="row">{m.metric}</th>
                <td data-field="power">{reached.length ? reached.map((p) => percent(p, 0)).join(', ') : '—'}</td>
                <td data-field="sessionsPerVariant">
                  {plan?.error ? <span className="muted small">{(plan.error as Error).message}</span> : integer(needed)}
                </td>
                <td>{integer(smallest)}</td>
                <td data-field="unitsStillNeeded">
                  {m.comparisons.map((c) => integer(c.unitsStillNeeded?.additionalUnits ?? null)).join(', ') || '—'}
                </td>
                {live && <td data-field="daysToGo">{toGo === null ? '—' : toGo === 0 ? 'reached' : days(toGo)}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function ResultsError({ error }: { error: unknown }) {
  return <ErrorState error={error} title="Results could not be computed" />;
}
