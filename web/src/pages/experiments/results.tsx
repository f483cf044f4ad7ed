import type { ResultsRead } from '../../api/queries';
import { GuardrailsTable, ReadControls, SlicesTable } from './results-views';
import type { Comparison, Experiment, MetricResult, Results } from '../../api/types';
import { Verdict } from '../../components/badges';
import { ErrorState } from '../../components/states';
import { ForestPlot, type ForestRow } from '../../charts';
import { capitalised, chance, dateTime, integer, interval, metricLabel, number, pValue, readableSummary, scaled } from '../../format';
import { PowerTable } from './results-power';
import { LiftSeries } from './results-series';

export function SrmBanner({ results, names = new Map() }: { results: Results; names?: Map<string, string> }) {
  const { srm } = results;
  const counts = Object.entries(srm.observed)
    .map(([id, n]) => `${names.get(id) ?? id} ${integer(n)} (expected ${integer(srm.expected[id])})`)
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
      <td colSpan={7} className="muted" data-label="Role">
        control: the baseline every lift compares against
      </td>
    );
  }
  const other = c.otherScale;
  return (
    <>
      <td data-field="estimate" data-label={`Lift (${scale})`}>
        {scaled(scale, c.estimate, true)}
      </td>
      <td data-field="interval" data-label={`Interval (${scale})`}>
        {interval(c.interval, (v) => scaled(scale, v))}
      </td>
      <td data-field="pValue" data-label="p">
        {pValue(c.pValue)}
      </td>
      <td data-field="adjustedPValue" data-label="Adjusted p (interval)">
        {pValue(c.adjustedPValue)}
        <div className="muted small" data-field="adjustedInterval">
          {interval(c.adjustedInterval, (v) => scaled(scale, v))}
        </div>
      </td>
      <td data-field="otherScale" className="muted" data-label="Other scale, estimate only">
        {other.scale}: {scaled(other.scale, other.estimate, true)}
      </td>
      <td data-field="chanceToBeatControl" data-label="Chance to beat control">
        {chance(c.chanceToBeatControl)}
      </td>
      <td data-field="verdict" data-label="Verdict">
        <Verdict comparison={c} />
      </td>
    </>
  );
}

/** One metric's arms; on a phone each arm becomes a card of labelled lines (styles.css, .stack-narrow), so no number is cut. */
function MetricTable({ metric, names, scale }: { metric: MetricResult; names: Map<string, string>; scale: string }) {
  return (
    <div className="table-wrap">
      <table className="table results-table stack-narrow" data-testid={`results-${metric.metric}`}>
        <caption>
          <span className="strong" title={metric.metric}>
            {capitalised(metricLabel(metric.metric))}
          </span>{' '}
          <span className="muted small">({metric.direction} is better)</span>
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
              <td data-field="units" data-label="Sessions">
                {integer(v.units)}
              </td>
              <td data-field="value" data-label="Value">
                {number(v.value)}
              </td>
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
        label: m.comparisons.length > 1 ? `${metricLabel(m.metric)} · ${names.get(c.variantId) ?? c.variantId}` : metricLabel(m.metric),
        lift: c.estimate!,
        low: c.adjustedInterval![0]!,
        high: c.adjustedInterval![1]!,
        verdict: !c.significant ? ('not significant' as const) : c.improved ? ('better' as const) : ('worse' as const),
      })),
  );
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
      <SrmBanner results={results} names={names} />
      <p className="headline" data-testid="summary">
        {readableSummary(
          results.summary,
          results.metrics.map((m) => m.metric),
        )}
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
          {results.metrics.map((m) => (
            <LiftSeries key={`series-${m.metric}`} results={results} metric={m.metric} names={names} />
          ))}
          <PowerTable experiment={experiment} results={results} />
        </>
      )}
    </section>
  );
}

export function ResultsError({ error }: { error: unknown }) {
  return <ErrorState error={error} title="Results could not be computed" />;
}
