import { useState } from 'react';
import { ALIAS_NAME, currentTarget, type AliasView } from '../../api/production';
import { Field, invalid } from '../../components/field';
import { describeTarget } from './describe';

const NEW = '__new__';

/**
 * Choose an existing alias or type a new name. `value` is the chosen name ('' for none);
 * a typed name that breaks the service's naming rule is reported here, before any request.
 */
export function AliasPicker({
  aliases,
  value,
  onChange,
  label,
  noneLabel,
}: {
  aliases: AliasView[];
  value: string;
  onChange: (alias: string) => void;
  label: string;
  /** Offer "no alias" with this wording; without it an alias must be chosen. */
  noneLabel?: string;
}) {
  const known = aliases.some((a) => a.alias === value);
  const [typing, setTyping] = useState(value !== '' && !known);
  const typedError = typing && value !== '' && !ALIAS_NAME.test(value);
  return (
    <>
      <Field label={label} errors={[]}>
        {(ids) => (
          <select
            id={ids.input}
            // Long option texts must not widen a phone's dialog: the select takes the width it is given.
            style={{ width: '100%' }}
            value={typing ? NEW : value}
            onChange={(e) => {
              const next = e.target.value;
              setTyping(next === NEW);
              onChange(next === NEW ? '' : next);
            }}
          >
            {noneLabel !== undefined && <option value="">{noneLabel}</option>}
            {noneLabel === undefined && !typing && value === '' && (
              <option value="" disabled>
                Choose an alias
              </option>
            )}
            {aliases.map((a) => (
              <option key={a.alias} value={a.alias}>
                {a.alias} (serves {describeTarget(currentTarget(a))})
              </option>
            ))}
            <option value={NEW}>A new alias…</option>
          </select>
        )}
      </Field>
      {typing && (
        <Field
          label="New alias name"
          hint="Lower-case letters, digits, “.”, “_” and “-”, e.g. production"
          errors={typedError ? ['lower-case letters, digits, “.”, “_” and “-” only, starting with a letter or digit'] : []}
        >
          {(ids) => (
            <input
              id={ids.input}
              aria-describedby={ids.described}
              {...invalid(typedError ? ['x'] : [])}
              value={value}
              required
              maxLength={64}
              autoComplete="off"
              onChange={(e) => onChange(e.target.value.trim())}
            />
          )}
        </Field>
      )}
    </>
  );
}
