import type { Dispatch, ReactNode, SetStateAction } from 'react';
import type { ExperimentCreate } from '../../../api/types';
import type { FieldErrors } from './field-errors';

export type MetricName = NonNullable<ExperimentCreate['configuration']['targetMetrics']>[number];
// A Record over the API's enum: a metric added to the catalogue fails the type check until it is listed here.
const METRICS: Record<MetricName, string> = {
  ctr: 'click-through rate',
  abandonment_rate: 'searches without a click',
  mrr: 'reciprocal rank of the first click',
  mean_rating: 'mean explicit rating',
  dwell_time: 'dwell time per click',
  time_to_click: 'time to the first click',
  satisfied_click_rate: 'clicks with 30 s+ dwell',
  scroll_depth: 'scroll depth',
  conversion_rate: 'sessions that convert',
  time_to_click_p50: 'median time to click (per click)',
  time_to_click_p90: '90th percentile time to click',
  dwell_time_p50: 'median dwell time (per click)',
  dwell_time_p90: '90th percentile dwell time',
};

interface MetricFieldsProps {
  errors: FieldErrors;
  metrics: MetricName[];
  setMetrics: Dispatch<SetStateAction<MetricName[]>>;
}

/** The target metrics, one checkbox per metric of the catalogue. A function, not a component: see new-experiment.tsx. */
export function metricFields({ errors: { track }, metrics, setMetrics }: MetricFieldsProps): ReactNode {
  return (
    <fieldset>
      <legend>Target metrics</legend>
      <div className="checks">
        {(Object.keys(METRICS) as MetricName[]).map((m) => (
          <label key={m} className="inline">
            <input
              type="checkbox"
              checked={metrics.includes(m)}
              onChange={(e) => setMetrics((ms) => (e.target.checked ? [...ms, m] : ms.filter((x) => x !== m)))}
            />{' '}
            <code>{m}</code> <span className="muted small">{METRICS[m]}</span>
          </label>
        ))}
      </div>
      {track('/configuration/targetMetrics').map((m) => (
        <p key={m} className="field-error" role="alert">
          <span aria-hidden="true">⚠ </span>Target metrics: {m}
        </p>
      ))}
    </fieldset>
  );
}
