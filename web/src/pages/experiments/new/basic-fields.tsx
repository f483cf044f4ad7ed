import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import type { Draft, UpdateDraft } from './draft';
import type { FieldErrors } from './field-errors';

/** Name and description. A function, not a component: see new-experiment.tsx. */
export function basicFields({ at, track }: FieldErrors, draft: Draft, update: UpdateDraft): ReactNode {
  return (
    <>
      <Field label="Name" errors={track('/name')}>
        {(ids) => (
          <input
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(at('/name'))}
            value={draft.name}
            onChange={(e) => update({ name: e.target.value })}
            required
            maxLength={200}
          />
        )}
      </Field>
      <Field label="Description (optional)" errors={track('/description')}>
        {(ids) => (
          <textarea
            id={ids.input}
            aria-describedby={ids.described || undefined}
            value={draft.description}
            onChange={(e) => update({ description: e.target.value })}
            rows={2}
          />
        )}
      </Field>
    </>
  );
}
