import { useId, type ReactNode } from 'react';
import type { ErrorDetail } from '../api/client';

/** Problems whose JSON pointer is `path` or lies under it. */
export function errorsAt(details: ErrorDetail[], path: string, exact = false): string[] {
  return details.filter((d) => d.path === path || (!exact && d.path.startsWith(`${path}/`))).map((d) => d.message);
}

export function Field({
  label,
  errors,
  children,
  hint,
}: {
  label: string;
  errors: string[];
  children: (ids: FieldIds) => ReactNode;
  hint?: string;
}) {
  const id = useId();
  const ids = { input: `${id}-input`, described: [hint ? `${id}-hint` : '', errors.length ? `${id}-error` : ''].filter(Boolean).join(' ') };
  return (
    <div className={`field${errors.length ? ' field-invalid' : ''}`}>
      <label htmlFor={ids.input}>{label}</label>
      {children(ids)}
      {hint && (
        <p id={`${id}-hint`} className="muted small">
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert">
          <span aria-hidden="true">⚠ </span>
          {errors.join('; ')}
        </p>
      )}
    </div>
  );
}

export interface FieldIds {
  input: string;
  described: string;
}

export const invalid = (errors: string[]) => (errors.length ? { 'aria-invalid': true as const } : {});
