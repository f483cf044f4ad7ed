import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import { dateTime } from '../../../format';
import type { Draft, UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';

/** An alias as GET /api/nous/learn/aliases lists it: a cleared alias (modelId null) serves the engine’s original order. */
export interface AliasTarget {
  alias: string;
  modelId: string | null;
  version: number | null;
  servingVersion: number | null;
  updatedAt: string;
}

export interface AliasChoices {
  aliases: AliasTarget[] | undefined;
  error: Error | null;
}

/** What an alias serves now, in words. */
export function servesNow(a: AliasTarget): string {
  if (!a.modelId) return `“${a.alias}” serves the engine’s original order now`;
  const version = a.version !== null ? `v${a.version}` : `the active version${a.servingVersion !== null ? ` (v${a.servingVersion})` : ''}`;
  return `“${a.alias}” serves ${version} of ${a.modelId} now, since ${dateTime(a.updatedAt)}`;
}

/**
 * The alias a “ship” conclusion moves: an existing one (the datalist) or a new name. A function, not a
 * component: see new-experiment.tsx.
 */
export function promoteFields({ track }: FieldErrors, d: Draft, update: UpdateDraft, { aliases, error }: AliasChoices): ReactNode {
  const aliasErrors = [...track('/configuration/promote/alias'), ...track('/configuration/promote', true)];
  const name = d.alias.trim();
  const existing = aliases?.find((a) => a.alias === name);
  const modelBacked = d.variants.some((v) => v.modelId);
  const status = error
    ? `The aliases could not be read (${error.message}); type a name.`
    : existing
      ? `${servesNow(existing)}.`
      : name
        ? `No alias “${name}” yet: shipping creates it.`
        : '';
  const hint = `${status} Pick one or type a new name: lower-case letters, digits, “.”, “_” and “-”.`.trim();
  return (
    <fieldset>
      <legend>Ship the winner</legend>
      <label className="inline">
        <input type="checkbox" checked={d.promote} onChange={(e) => update({ promote: e.target.checked })} /> Move an alias to the winner
        when the experiment is concluded with “ship”
      </label>
      <p className="muted small">
        An alias names what <code>POST /api/nous/rank</code> serves to everyone outside experiments (<code>production</code> is the one it
        uses by default). Concluding with “ship” and a winner served by a ranker moves the alias to the winner’s version in the same step,
        and the alias history records it; moving it back rolls it back. Leave this unticked to decide when concluding.
      </p>
      {d.promote && (
        <>
          <Field label="Alias" errors={aliasErrors} hint={hint}>
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                {...invalid(aliasErrors)}
                list="existing-aliases"
                value={d.alias}
                onChange={(e) => update({ alias: e.target.value })}
                maxLength={64}
                autoCapitalize="none"
                spellCheck={false}
              />
            )}
          </Field>
          <datalist id="existing-aliases">
            {aliases?.map((a) => (
              <option key={a.alias} value={a.alias}>
                {servesNow(a)}
              </option>
            ))}
          </datalist>
          {!modelBacked && (
            <p className="callout small" role="note">
              No variant is served by a ranker yet: concluding with “ship” moves an alias only when the winner is.
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
