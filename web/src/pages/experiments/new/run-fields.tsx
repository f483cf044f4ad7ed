import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import type { AnalysisMethod, Draft, UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';

/** How the experiment runs: its dates (UTC), its layer, its analysis method. A function, not a component: see new-experiment.tsx. */
export function runFields({ at, track }: FieldErrors, d: Draft, update: UpdateDraft): ReactNode {
  const rangeErrors = [...track('/configuration/layer/range'), ...track('/configuration/layer', true)];
  return (
    <>
      <div className="form-row">
        <Field label="Start date (UTC, optional)" errors={track('/startDate')}>
          {(ids) => (
            <input
              id={ids.input}
              aria-describedby={ids.described || undefined}
              {...invalid(at('/startDate'))}
              type="datetime-local"
              value={d.startDate}
              onChange={(e) => update({ startDate: e.target.value })}
            />
          )}
        </Field>
        <Field label="End date (UTC, optional)" errors={track('/endDate')}>
          {(ids) => (
            <input
              id={ids.input}
              aria-describedby={ids.described || undefined}
              {...invalid(at('/endDate'))}
              type="datetime-local"
              value={d.endDate}
              onChange={(e) => update({ endDate: e.target.value })}
            />
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Layer (optional)</legend>
        <p className="muted small">
          Experiments of one layer whose ranges do not overlap never share a session. Two ranking experiments (interleaving, or a variant
          served by a ranker) can only run at the same time this way.
        </p>
        <div className="form-row">
          <Field label="Layer id" errors={track('/configuration/layer/id')}>
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(at('/configuration/layer/id'))}
                value={d.layerId}
                onChange={(e) => update({ layerId: e.target.value })}
                maxLength={64}
              />
            )}
          </Field>
          <Field label="Range start" errors={rangeErrors} hint="0–1, included">
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(rangeErrors)}
                type="number"
                step="any"
                value={d.layerStart}
                onChange={(e) => update({ layerStart: e.target.value })}
                disabled={!d.layerId}
              />
            )}
          </Field>
          <Field label="Range end" errors={[]} hint="0–1, excluded">
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(rangeErrors)}
                type="number"
                step="any"
                value={d.layerEnd}
                onChange={(e) => update({ layerEnd: e.target.value })}
                disabled={!d.layerId}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <Field label="Analysis method" errors={track('/configuration/analysis')}>
        {(ids) => (
          <select id={ids.input} value={d.method} onChange={(e) => update({ method: e.target.value as AnalysisMethod })}>
            <option value="fixed">fixed horizon (one look at the end)</option>
            <option value="sequential">sequential (safe to look every day)</option>
          </select>
        )}
      </Field>
    </>
  );
}
