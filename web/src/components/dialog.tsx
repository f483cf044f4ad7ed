import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { ErrorState } from './states';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal confirmation on the native <dialog>: focus moves in and is trapped, Escape cancels. */
export function ConfirmDialog({ open, title, children, confirmLabel, danger, busy, error, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConfirm();
  };
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="dialog-title" onCancel={onCancel} onClose={onCancel}>
      {open && (
        <form onSubmit={submit}>
          <h2 id="dialog-title">{title}</h2>
          {children}
          {error !== undefined && error !== null && <ErrorState error={error} title="Refused" />}
          <div className="dialog-actions">
            <button type="button" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={danger ? 'danger' : 'primary'} disabled={busy}>
              {busy ? 'Working…' : confirmLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
