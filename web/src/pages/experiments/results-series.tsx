import type { Results } from '../../api/types';
import { LiftSeriesChart, type LiftPoint } from '../../charts';
import { capitalised, metricLabel } from '../../format';

/** Fewer distinct times than this draw no curve: one dot per treatment says nothing about a trend. */
const MIN_POINTS = 2;

/**
 * The cumulative lift of one metric, by exposure hour while the phase is younger than three days
 * (the API's hourlySeries) and by day after; or, while there is nothing to draw a curve from, why.
 */
export function LiftSeries({ results, metric, names }: { results: Results; metric: string; names: Map<string, string> }) {
  const hourly = results.hourlySeries?.find((s) => s.metric === metric);
  const step = hourly ? ('hour' as const) : ('day' as const);
  const raw = hourly
    ? hourly.points.map((p) => ({ ...p, at: new Date(p.start) }))
    : (results.series.find((s) => s.metric === metric)?.points ?? []).map((p) => ({ ...p, at: new Date(`${p.date}T00:00:00Z`) }));
  const points: LiftPoint[] = raw
    .filter((p) => p.estimate !== null && p.interval !== null)
    .map((p) => ({
      date: p.at,
      variant: names.get(p.variantId) ?? p.variantId,
      lift: p.estimate!,
      low: p.interval![0]!,
      high: p.interval![1]!,
    }));
  const times = new Set(points.map((p) => p.date.getTime())).size;
  const label = metricLabel(metric);
  return (
    <figure className="figure" data-testid={`series-${metric}`} data-step={step}>
      <figcaption>
        {capitalised(label)}: cumulative {results.scale} lift by exposure {step}
        {step === 'hour' && ' (the experiment has run for less than three days: hours until then)'}
        {step === 'day' && results.hourlySeries && ' (this metric is kept per day only)'}, with its interval
        {results.method === 'fixed' && ' (fixed-horizon intervals are valid only at the planned end, not at every look)'}
      </figcaption>
      {times >= MIN_POINTS ? (
        <LiftSeriesChart points={points} metric={label} scale={results.scale} step={step} />
      ) : (
        <p className="muted" data-testid={`no-curve-${metric}`}>
          No curve yet: {times === 0 ? 'no' : 'only one'} {step} has a lift to plot. Each point needs sessions in both the control and a
          treatment with values to compare; the curve appears from the second {step} on.
        </p>
      )}
    </figure>
  );
}
