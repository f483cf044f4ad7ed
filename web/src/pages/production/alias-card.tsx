import { useState } from 'react';
import { currentTarget, sameTarget, useAliasHistory, type AliasEvent, type AliasTarget, type AliasView } from '../../api/production';
import { ErrorState, Loading } from '../../components/states';
import { dateTime, relativeTime } from '../../format';
import { describeTarget } from './describe';
import { MoveAliasDialog } from './move-dialog';
import { ExperimentLink, Serves } from './served';

/** One alias: what it serves, since when and why, its history, and a rollback to any earlier target. */
export function AliasCard({ alias }: { alias: AliasView }) {
  const [to, setTo] = useState<AliasTarget | null | undefined>(undefined);
  const [moved, setMoved] = useState<string | null>(null);
  const current = currentTarget(alias);
  return (
    <section className="card" aria-labelledby={`alias-${alias.alias}-title`} data-testid={`alias-${alias.alias}`}>
      <div className="page-head">
        <h2 id={`alias-${alias.alias}-title`}>
          <code>{alias.alias}</code>
        </h2>
        {current !== null && (
          <button type="button" className="danger-outline" onClick={() => setTo(null)} data-testid="serve-original">
            Roll back to the original order…
          </button>
        )}
      </div>
      <p className="headline" data-testid="alias-serves">
        Serves <Serves alias={alias} />
      </p>
      <dl className="facts">
        <dt>Since</dt>
        <dd>
          {dateTime(alias.updatedAt)} <span className="muted small">({relativeTime(alias.updatedAt)})</span>
        </dd>
        <dt>Moved by</dt>
        <dd data-testid="alias-actor">{alias.updatedBy}</dd>
        {alias.experimentId && (
          <>
            <dt>Shipped by concluding</dt>
            <dd>
              <ExperimentLink experimentId={alias.experimentId} />
            </dd>
          </>
        )}
        <dt>Reason</dt>
        <dd data-testid="alias-reason">{alias.reason ?? <span className="muted">none given</span>}</dd>
      </dl>
      {moved && (
        <p className="callout callout-ok" role="status" data-testid="alias-moved">
          {moved}
        </p>
      )}
      <h3>History, newest first</h3>
      <AliasTimeline alias={alias.alias} current={current} onRollBack={setTo} />
      <MoveAliasDialog
        move={to === undefined ? null : { alias: alias.alias, from: current, to }}
        onDone={(view) => {
          setMoved(`“${view.alias}” now serves ${describeTarget(currentTarget(view))}.`);
          setTo(undefined);
        }}
        onCancel={() => setTo(undefined)}
      />
    </section>
  );
}

/**
 * The alias's moves. Each earlier target (every `to`, and the first move's `from`) gets one button,
 * on its most recent appearance, so any of them is one click (and a reason) away.
 */
function AliasTimeline({
  alias,
  current,
  onRollBack,
}: {
  alias: string;
  current: AliasTarget | null;
  onRollBack: (to: AliasTarget | null) => void;
}) {
  const history = useAliasHistory(alias);
  if (history.error) return <ErrorState error={history.error} />;
  if (!history.data) return <Loading what="history" />;
  // The current target needs no button; nor does the original order while the card's own button offers it.
  const offered: (AliasTarget | null)[] = current === null ? [null] : [current, null];
  const offer = (t: AliasTarget | null) => {
    if (offered.some((o) => sameTarget(o, t))) return false;
    offered.push(t);
    return true;
  };
  const oldest = history.data.at(-1);
  return (
    <ol className="timeline" data-testid={`alias-history-${alias}`}>
      {history.data.map((e) => (
        <MoveItem key={e.eventId} event={e} restore={offer(e.to)} onRollBack={onRollBack} />
      ))}
      {oldest && (
        <li data-testid="history-start">
          <span className="muted small">Before {dateTime(oldest.at)}</span> it served {describeTarget(oldest.from)}
          {offer(oldest.from) && <RollBackButton to={oldest.from} onRollBack={onRollBack} />}
        </li>
      )}
    </ol>
  );
}

function MoveItem({
  event: e,
  restore,
  onRollBack,
}: {
  event: AliasEvent;
  restore: boolean;
  onRollBack: (to: AliasTarget | null) => void;
}) {
  return (
    <li data-testid="alias-event">
      <time dateTime={e.at}>{dateTime(e.at)}</time>
      <strong>{e.actor}</strong> moved it from {describeTarget(e.from)} to <strong>{describeTarget(e.to)}</strong>
      {e.experimentId && (
        <>
          {' '}
          by concluding <ExperimentLink experimentId={e.experimentId} />
        </>
      )}
      {e.reason && <div className="muted small">Reason: {e.reason}</div>}
      {restore && <RollBackButton to={e.to} onRollBack={onRollBack} />}
    </li>
  );
}

function RollBackButton({ to, onRollBack }: { to: AliasTarget | null; onRollBack: (to: AliasTarget | null) => void }) {
  return (
    <div>
      <button type="button" className="link" onClick={() => onRollBack(to)} data-testid="roll-back">
        ↶ Serve {describeTarget(to)} again…
      </button>
    </div>
  );
}
