import type { ReactNode } from 'react';
import { Field, invalid } from '../../../components/field';
import type { FieldErrors } from './field-errors';

interface BasicFieldsProps {
  errors: FieldErrors;
  name: string;
  setName: (name: string) => void;
  description: string;
  setDescription: (description: string) => void;
}

/** Name and description. A function, not a component: see new-experiment.tsx. */
export function basicFields({ errors: { at, track }, name, setName, description, setDescription }: BasicFieldsProps): ReactNode {
  return (
    <>
      <Field label="Name" errors={track('/name')}>
        {(ids) => (
          <input
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(at('/name'))}
            value={name}
            onChange={(e) => setName(e.target.value)}
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
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            rows={2}
          />
        )}
      </Field>
    </>
  );
}
