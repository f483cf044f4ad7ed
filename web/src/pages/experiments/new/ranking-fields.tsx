import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import type { Draft, ExperimentType, InterleavingMethod, UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';

const TYPES: { value: ExperimentType; label: string; hint: string }[] = [
  { value: 'ab', label: 'A/B test', hint: 'each session sees one variant; the target metrics decide' },
  {
    value: 'interleaving',
    label: 'Interleaving',
    hint: 'each session sees the variants’ rankings merged into one list; which ranker’s results get the clicks decides (2–8 variants)',
  },
];

/** The kind of test and, for interleaving, its method and depth. A function, not a component: see new-experiment.tsx. */
export function rankingFields({ at, track }: FieldErrors, d: Draft, update: UpdateDraft): ReactNode {
  const typeErrors = track('/configuration/type');
  const interleavingErrors = track('/configuration/interleaving', true);
  return (
    <fieldset>
      <legend>Kind of test</legend>
      <div role="radiogroup" aria-label="Kind of test" className="form-grid">
        {TYPES.map((t) => (
          <label key={t.value} className="inline">
            <input
              type="radio"
              name="experiment-type"
              value={t.value}
              checked={d.type === t.value}
              onChange={() => update({ type: t.value })}
            />
            <span>
              <span className="strong">{t.label}</span> <span className="muted small">{t.hint}</span>
            </span>
          </label>
        ))}
      </div>
      {[...typeErrors, ...interleavingErrors].map((m) => (
        <p key={m} className="field-error" role="alert">
          <span aria-hidden="true">⚠ </span>Kind of test: {m}
        </p>
      ))}
      {d.type === 'interleaving' && (
        <div className="form-row">
          <Field label="Interleaving method" errors={track('/configuration/interleaving/method')}>
            {(ids) => (
              <select
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(at('/configuration/interleaving/method'))}
                value={d.interleavingMethod}
                onChange={(e) => update({ interleavingMethod: e.target.value as InterleavingMethod })}
              >
                <option value="">by the number of variants</option>
                <option value="team-draft">team draft (exactly 2 variants)</option>
                <option value="team-draft-multileave">team-draft multileave (3 to 8 variants)</option>
              </select>
            )}
          </Field>
          <Field
            label="Depth"
            errors={track('/configuration/interleaving/depth')}
            hint="Positions that earn credit (1–100): clicks below are ignored"
          >
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(at('/configuration/interleaving/depth'))}
                type="number"
                min="1"
                max="100"
                step="1"
                value={d.depth}
                onChange={(e) => update({ depth: e.target.value })}
              />
            )}
          </Field>
        </div>
      )}
    </fieldset>
  );
}
