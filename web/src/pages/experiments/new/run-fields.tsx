import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import type { FieldErrors } from './field-errors';

export type AnalysisMethod = 'fixed' | 'sequential';

interface RunFieldsProps {
  errors: FieldErrors;
  startDate: string;
  setStartDate: (date: string) => void;
  endDate: string;
  setEndDate: (date: string) => void;
  layerId: string;
  setLayerId: (id: string) => void;
  layerStart: string;
  setLayerStart: (start: string) => void;
  layerEnd: string;
  setLayerEnd: (end: string) => void;
  method: AnalysisMethod;
  setMethod: (method: AnalysisMethod) => void;
}

/** How the experiment runs: its dates (UTC), its layer, its analysis method. A function, not a component: see new-experiment.tsx. */
export function runFields({ errors: { at, track }, ...p }: RunFieldsProps): ReactNode {
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
              value={p.startDate}
              onChange={(e) => p.setStartDate(e.target.value)}
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
              value={p.endDate}
              onChange={(e) => p.setEndDate(e.target.value)}
            />
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Layer (optional: experiments of one layer with disjoint ranges never share a session)</legend>
        <div className="form-row">
          <Field label="Layer id" errors={track('/configuration/layer/id')}>
            {(ids) => <input id={ids.input} value={p.layerId} onChange={(e) => p.setLayerId(e.target.value)} maxLength={64} />}
          </Field>
          <Field label="Range start" errors={track('/configuration/layer/range')}>
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                type="number"
                step="any"
                value={p.layerStart}
                onChange={(e) => p.setLayerStart(e.target.value)}
                disabled={!p.layerId}
              />
            )}
          </Field>
          <Field label="Range end" errors={[]}>
            {(ids) => (
              <input
                id={ids.input}
                type="number"
                step="any"
                value={p.layerEnd}
                onChange={(e) => p.setLayerEnd(e.target.value)}
                disabled={!p.layerId}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <Field label="Analysis method" errors={track('/configuration/analysis')}>
        {(ids) => (
          <select id={ids.input} value={p.method} onChange={(e) => p.setMethod(e.target.value as AnalysisMethod)}>
            <option value="fixed">fixed horizon (one look at the end)</option>
            <option value="sequential">sequential (safe to look every day)</option>
          </select>
        )}
      </Field>
    </>
  );
}
