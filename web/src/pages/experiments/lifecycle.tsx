import { useState } from 'react';
import { Link } from 'react-router';
import { useLifecycle } from '../../api/queries';
import type { ConcludeBody, Experiment, LifecycleAction } from '../../api/types';
import { ConfirmDialog } from '../../components/dialog';
import { describeTarget } from '../production/describe';
import { PromotionPreview, variantTarget } from '../production/promotion-preview';

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
  conclude: {
    label: 'Conclude…',
    confirm: 'Conclude',
    explain: 'Records the decision and ends the experiment: assign then answers the winner (if any) to every unit of this experiment.',
  },
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
  const configured = experiment.configuration.promote?.alias ?? '';
  const [promote, setPromote] = useState(configured);
  const move = useLifecycle(experiment.experimentId);
  const close = () => {
    setPending(null);
    move.reset();
  };
  const confirm = () => {
    if (!pending) return;
    // An alias other than the experiment's own target is named at conclusion (only a shipped model can move one).
    const shipsModel = decision === 'ship' && variantTarget(experiment.variants.find((v) => v.id === winner)) !== null;
    const conclusion: ConcludeBody | undefined =
      pending === 'conclude'
        ? {
            decision,
            ...(winner ? { winnerVariantId: winner } : {}),
            ...(notes ? { notes } : {}),
            ...(force ? { force } : {}),
            ...(shipsModel && promote !== '' && promote !== configured ? { promote: { alias: promote } } : {}),
          }
        : undefined;
    move.mutate({ action: pending, ...(conclusion ? { conclusion } : {}) }, { onSuccess: () => setPending(null) });
  };
  if (experiment.allowedActions.length === 0) {
    return (
      <>
        <p className="muted small">No lifecycle move is possible from {experiment.status}.</p>
        <ConclusionNote experiment={experiment} />
      </>
    );
  }
  const spec = pending ? MOVES[pending] : null;
  return (
    <>
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
              <PromotionPreview experiment={experiment} decision={decision} winnerId={winner} promote={promote} onPromote={setPromote} />
              {untrustworthy && (
                <label className="inline">
                  <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Ship despite the failed
                  sample-ratio check (recorded as forced)
                </label>
              )}
            </div>
          )}
        </ConfirmDialog>
      </div>
      <ConclusionNote experiment={experiment} />
    </>
  );
}

/** After concluding: the service's one sentence on what serves now, and where to act on it. */
function ConclusionNote({ experiment }: { experiment: Experiment }) {
  const c = experiment.conclusion;
  if (!c) return null;
  const shippedModel = c.decision === 'ship' ? variantTarget(experiment.variants.find((v) => v.id === c.winnerVariantId)) : null;
  return (
    // The page head wraps: a full-width item starts its own line under the title and buttons.
    <div className="callout callout-ok" style={{ flexBasis: '100%' }} role="status" data-testid="conclusion-note">
      <p data-testid="conclusion-summary">
        <strong>Concluded:</strong> {c.summary.replace(/\.$/, '')}.
      </p>
      {c.promotion ? (
        <p data-testid="conclusion-promotion">
          <Link to="/production">See what serves production, or roll it back</Link>
        </p>
      ) : (
        shippedModel && (
          <p>
            <Link to={`/models/${encodeURIComponent(shippedModel.modelId)}`}>
              Ship {describeTarget(shippedModel)} from its ranker's page
            </Link>
          </p>
        )
      )}
    </div>
  );
}
