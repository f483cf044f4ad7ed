import type { ReactNode } from 'react';
import type { Draft, MetricName, UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';
import { METRIC_TERMS } from '../../../format';

// Every metric of the API's enum, named: a metric missing from METRIC_TERMS (web/src/format.ts) fails here.
const METRIC_LABELS: Record<MetricName, { short: string; means: string }> = METRIC_TERMS;

/** The target metrics, one checkbox per metric of the catalogue. A function, not a component: see new-experiment.tsx. */
export function metricFields({ track }: FieldErrors, draft: Draft, update: UpdateDraft): ReactNode {
  return (
    <fieldset>
      <legend>Target metrics</legend>
      <div className="checks">
        {(Object.keys(METRIC_LABELS) as MetricName[]).map((m) => (
          <label key={m} className="inline">
            <input
              type="checkbox"
              checked={draft.metrics.includes(m)}
              onChange={(e) => {
                const checked = e.target.checked;
                update((d) => ({ metrics: checked ? [...d.metrics, m] : d.metrics.filter((x) => x !== m) }));
              }}
            />{' '}
            <span>
              {METRIC_LABELS[m].short} <span className="muted small">{METRIC_LABELS[m].means}</span>
            </span>
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
