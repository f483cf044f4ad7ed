import { useState } from 'react';
import { useLifecycle } from '../../api/queries';
import type { ConcludeBody, Experiment, LifecycleAction } from '../../api/types';
import { ConfirmDialog } from '../../components/dialog';

const MOVES: Record<LifecycleAction, { label: string; confirm: string; explain: string; danger?: boolean }> = {
  start: {
    label: 'Start',
    confirm: 'Start experiment',
    explain: 'Sessions start being assigned to variants (or at the start date, if it lies ahead).',
  },
  pause: { label: 'Pause', confirm: 'Pause', explain: 'Nobody is served until you resume; enrolled sessions keep their variant.' },
  resume: { label: 'Resume', confirm: 'Resume', explain: 'Serving and enrollment continue where they stopped.' },
  stop: {
    label: 'Stop',
    confirm: 'Stop experiment',
    explain: 'No more enrollment or attribution: the phase closes and results freeze. This cannot be undone.',
    danger: true,
  },
  conclude: { label: 'Conclude…', confirm: 'Conclude', explain: 'Record the decision; a winner is then served to every session.' },
  archive: {
    label: 'Archive',
    confirm: 'Archive',
    explain: 'Archived experiments are read-only, for the record. This is final.',
    danger: true,
  },
};

export function LifecycleButtons({ experiment, untrustworthy }: { experiment: Experiment; untrustworthy: boolean }) {
  const [pending, setPending] = useState<LifecycleAction | null>(null);
  const [decision, setDecision] = useState<ConcludeBody['decision']>('ship');
  const [winner, setWinner] = useState('');
  const [notes, setNotes] = useState('');
  const [force, setForce] = useState(false);
  const move = useLifecycle(experiment.experimentId);
  const close = () => {
    setPending(null);
    move.reset();
  };
  const confirm = () => {
    if (!pending) return;
    const conclusion: ConcludeBody | undefined =
      pending === 'conclude'
        ? { decision, ...(winner ? { winnerVariantId: winner } : {}), ...(notes ? { notes } : {}), ...(force ? { force } : {}) }
        : undefined;
    move.mutate({ action: pending, ...(conclusion ? { conclusion } : {}) }, { onSuccess: () => setPending(null) });
  };
  if (experiment.allowedActions.length === 0) return <p className="muted small">No lifecycle move is possible from {experiment.status}.</p>;
  const spec = pending ? MOVES[pending] : null;
  return (
    <div className="actions" role="group" aria-label="Lifecycle">
      {experiment.allowedActions.map((action) => (
        <button key={action} type="button" className={MOVES[action].danger ? 'danger-outline' : ''} onClick={() => setPending(action)}>
          {MOVES[action].label}
        </button>
      ))}
      <ConfirmDialog
        open={pending !== null}
        title={spec ? `${spec.confirm}: ${experiment.name}?` : ''}
        confirmLabel={spec?.confirm ?? ''}
        danger={spec?.danger ?? false}
        busy={move.isPending}
        error={move.error}
        onConfirm={confirm}
        onCancel={close}
      >
        <p>{spec?.explain}</p>
        {pending === 'conclude' && (
          <div className="form-grid">
            <fieldset>
              <legend>Decision</legend>
              {(['ship', 'rollback', 'inconclusive'] as const).map((d) => (
                <label key={d} className="inline">
                  <input type="radio" name="decision" value={d} checked={decision === d} onChange={() => setDecision(d)} /> {d}
                </label>
              ))}
            </fieldset>
            <label>
              Winner
              <select value={winner} onChange={(e) => setWinner(e.target.value)}>
                <option value="">(none)</option>
                {experiment.variants.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Notes
              <textarea value={notes} onChange={(e) => setNotes(e.target.value)} rows={2} maxLength={5000} />
            </label>
            {untrustworthy && (
              <label className="inline">
                <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Ship despite the failed sample-ratio
                check (recorded as forced)
              </label>
            )}
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
