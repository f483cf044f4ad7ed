import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import { blankVariant, type Draft, type UpdateDraft, type VariantDraft } from './draft';
import type { FieldErrors } from './field-errors';
import { modelFields, type RankerChoices } from './model-fields';

/**
 * The variants (2 to 20, the first is the control), what each serves, and the share of traffic that
 * enters. A function, not a component: see new-experiment.tsx.
 */
export function variantFields(errors: FieldErrors, d: Draft, update: UpdateDraft, rankers: RankerChoices): ReactNode {
  const { at, track } = errors;
  const updateVariant = (i: number, patch: Partial<VariantDraft>) =>
    update((draft) => ({ variants: draft.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) }));

  return (
    <>
      <fieldset className="variants">
        <legend>Variants</legend>
        <p className="muted small">
          The first variant is the control. A variant served by a ranker reorders each query’s results with that model (through{' '}
          <code>POST /api/nous/rank</code>); a variant without one keeps the search engine’s original order.
        </p>
        <label className="inline">
          <input type="checkbox" checked={d.equalSplit} onChange={(e) => update({ equalSplit: e.target.checked })} /> Split traffic equally
        </label>
        {track('/configuration/variants', true).map((m) => (
          <p key={m} className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>Variants: {m}
          </p>
        ))}
        {d.variants.map((v, i) => (
          <div key={i} className="variant-row" role="group" aria-label={`Variant ${i + 1}${i === 0 ? ' (control)' : ''}`}>
            <Field label={`Variant ${i + 1} id${i === 0 ? ' (control)' : ''}`} errors={track(`/configuration/variants/${i}/id`)}>
              {(ids) => (
                <input
                  id={ids.input}
                  aria-describedby={ids.described || undefined}
                  {...invalid(at(`/configuration/variants/${i}/id`))}
                  value={v.id}
                  onChange={(e) => updateVariant(i, { id: e.target.value })}
                  required
                  maxLength={64}
                />
              )}
            </Field>
            <Field label="Display name" errors={track(`/configuration/variants/${i}/name`)}>
              {(ids) => (
                <input
                  id={ids.input}
                  aria-describedby={ids.described || undefined}
                  {...invalid(at(`/configuration/variants/${i}/name`))}
                  value={v.name}
                  placeholder={v.id}
                  onChange={(e) => updateVariant(i, { name: e.target.value })}
                />
              )}
            </Field>
            {!d.equalSplit && (
              <Field label="Weight" errors={track(`/configuration/variants/${i}/weight`)} hint="0–1; weights sum to 1">
                {(ids) => (
                  <input
                    id={ids.input}
                    aria-describedby={ids.described || undefined}
                    {...invalid(at(`/configuration/variants/${i}/weight`))}
                    type="number"
                    step="any"
                    min="0"
                    max="1"
                    value={v.weight}
                    onChange={(e) => updateVariant(i, { weight: e.target.value })}
                  />
                )}
              </Field>
            )}
            <Field
              label="Config (JSON, optional)"
              errors={track(`/configuration/variants/${i}/config`)}
              hint="Settings handed to your front end with the assignment"
            >
              {(ids) => (
                <input
                  id={ids.input}
                  aria-describedby={ids.described || undefined}
                  {...invalid(at(`/configuration/variants/${i}/config`))}
                  className="mono"
                  value={v.config}
                  onChange={(e) => updateVariant(i, { config: e.target.value })}
                />
              )}
            </Field>
            {modelFields(errors, i, v, (patch) => updateVariant(i, patch), rankers)}
            {d.variants.length > 2 && (
              <button
                type="button"
                className="link"
                onClick={() => update((draft) => ({ variants: draft.variants.filter((_, j) => j !== i) }))}
              >
                Remove variant {i + 1}
              </button>
            )}
          </div>
        ))}
        {d.variants.length < 20 && (
          <button
            type="button"
            onClick={() => update((draft) => ({ variants: [...draft.variants, blankVariant(`variant-${draft.variants.length + 1}`)] }))}
          >
            Add a variant
          </button>
        )}
      </fieldset>
      <Field label="Traffic allocation" errors={track('/configuration/trafficAllocation')} hint="Share of sessions that enter, in (0, 1]">
        {(ids) => (
          <input
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(at('/configuration/trafficAllocation'))}
            type="number"
            step="any"
            value={d.traffic}
            onChange={(e) => update({ traffic: e.target.value })}
          />
        )}
      </Field>
    </>
  );
}
