import { useState, type ReactNode } from 'react';
import { useMoveAlias, type AliasTarget, type AliasView } from '../../api/production';
import { ConfirmDialog } from '../../components/dialog';
import { describeTarget } from './describe';

interface MoveAliasDialogProps {
  /** The alias to move, and where to; null closes the dialog. */
  move: { alias: string; from: AliasTarget | null; to: AliasTarget | null } | null;
  /** What else the person should know before confirming (e.g. that no experiment tested the version). */
  children?: ReactNode;
  onDone: (view: AliasView) => void;
  onCancel: () => void;
}

/**
 * Every alias move goes through this dialog: it says what serves before and after, and asks why
 * (the reason is required: the history is how a team later understands what happened).
 */
export function MoveAliasDialog({ move, children, onDone, onCancel }: MoveAliasDialogProps) {
  const [reason, setReason] = useState('');
  const mutation = useMoveAlias();
  const close = () => {
    setReason('');
    mutation.reset();
    onCancel();
  };
  return (
    <ConfirmDialog
      open={move !== null}
      title={move ? `Move the alias “${move.alias}”?` : ''}
      confirmLabel={move?.to === null ? 'Serve the original order' : 'Move alias'}
      danger={move?.to === null}
      busy={mutation.isPending}
      error={mutation.error}
      onConfirm={() => {
        if (!move || reason.trim() === '') return;
        mutation.mutate(
          { alias: move.alias, target: move.to, reason: reason.trim() },
          {
            onSuccess: (view) => {
              setReason('');
              mutation.reset();
              onDone(view);
            },
          },
        );
      }}
      onCancel={close}
    >
      {move && (
        <div className="form-grid">
          <p data-testid="move-preview">
            <code>{move.alias}</code> now serves <strong>{describeTarget(move.from)}</strong>; afterwards it serves{' '}
            <strong>{describeTarget(move.to)}</strong>
            {move.to === null && ': POST /api/nous/rank answers the results in the order the search engine sent them'}. Searches in a
            running ranking experiment keep their variant.
          </p>
          {children}
          <ReasonField reason={reason} onReason={setReason} />
        </div>
      )}
    </ConfirmDialog>
  );
}

/** The required "why" of every alias move, kept in its history. */
export function ReasonField({ reason, onReason }: { reason: string; onReason: (reason: string) => void }) {
  return (
    <label>
      Reason (required, kept in the alias's history)
      <textarea
        name="reason"
        required
        rows={2}
        maxLength={1000}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        placeholder="e.g. the new ranker lowers conversions on mobile"
      />
    </label>
  );
}
