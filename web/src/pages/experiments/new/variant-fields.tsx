import type { Dispatch, ReactNode, SetStateAction } from 'react';
import { Field, invalid } from '../../../components/field';
import type { FieldErrors } from './field-errors';

export interface VariantDraft {
  id: string;
  name: string;
  weight: string;
  config: string;
}

export const blankVariant = (id: string): VariantDraft => ({ id, name: '', weight: '0.5', config: '{}' });

interface VariantFieldsProps {
  errors: FieldErrors;
  variants: VariantDraft[];
  setVariants: Dispatch<SetStateAction<VariantDraft[]>>;
  equalSplit: boolean;
  setEqualSplit: (equalSplit: boolean) => void;
  traffic: string;
  setTraffic: (traffic: string) => void;
}

/** The variants (2 to 20, the first is the control) and the share of traffic that enters. A function, not a component: see new-experiment.tsx. */
export function variantFields({
  errors: { at, track },
  variants,
  setVariants,
  equalSplit,
  setEqualSplit,
  traffic,
  setTraffic,
}: VariantFieldsProps): ReactNode {
  const updateVariant = (i: number, patch: Partial<VariantDraft>) =>
    setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));

  return (
    <>
      <fieldset className="variants">
        <legend>Variants</legend>
        <label className="inline">
          <input type="checkbox" checked={equalSplit} onChange={(e) => setEqualSplit(e.target.checked)} /> Split traffic equally
        </label>
        {track('/configuration/variants', true).map((m) => (
          <p key={m} className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>Variants: {m}
          </p>
        ))}
        {variants.map((v, i) => (
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
                <input id={ids.input} value={v.name} placeholder={v.id} onChange={(e) => updateVariant(i, { name: e.target.value })} />
              )}
            </Field>
            {!equalSplit && (
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
            <Field label="Config (JSON)" errors={track(`/configuration/variants/${i}/config`)}>
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
            {variants.length > 2 && (
              <button type="button" className="link" onClick={() => setVariants((vs) => vs.filter((_, j) => j !== i))}>
                Remove variant {i + 1}
              </button>
            )}
          </div>
        ))}
        {variants.length < 20 && (
          <button type="button" onClick={() => setVariants((vs) => [...vs, blankVariant(`variant-${vs.length + 1}`)])}>
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
            value={traffic}
            onChange={(e) => setTraffic(e.target.value)}
          />
        )}
      </Field>
    </>
  );
}
