import { Link } from 'react-router';
import { useAliasEvents, useAliases } from '../../api/queries';
import { ErrorState, Loading } from '../../components/states';
import { dateTime } from '../../format';

const target = (t: { modelId: string; version: number | null } | null) =>
  t === null ? 'nothing' : `${t.modelId} ${t.version === null ? '(active version)' : `v${t.version}`}`;

function AliasHistory({ alias }: { alias: string }) {
  const events = useAliasEvents(alias);
  if (events.error) return <ErrorState error={events.error} />;
  if (!events.data) return <Loading what="history" />;
  return (
    <ol className="timeline" data-testid={`alias-history-${alias}`}>
      {[...events.data.items].reverse().map((e) => (
        <li key={e.eventId}>
          <span className="muted small">{dateTime(e.at)}</span> {e.actor} moved it from {target(e.from)} to {target(e.to)}
          {e.experimentId && (
            <>
              {' '}
              by concluding <Link to={`/experiments/${e.experimentId}`}>an experiment</Link>
            </>
          )}
          {e.reason && <div className="muted small">{e.reason}</div>}
        </li>
      ))}
    </ol>
  );
}

/** The aliases (production, …) that point at this model, with their history: what serves searches, and how to roll back. */
export function ModelAliases({ modelId }: { modelId: string }) {
  const aliases = useAliases();
  const mine = aliases.data?.items.filter((a) => a.modelId === modelId) ?? [];
  return (
    <section className="card" aria-labelledby="aliases-title">
      <h2 id="aliases-title">Aliases</h2>
      {aliases.error && <ErrorState error={aliases.error} />}
      {aliases.isPending && <Loading what="aliases" />}
      {aliases.data && mine.length === 0 && (
        <p className="muted">
          No alias points at this model. <code>PUT /api/nous/learn/aliases/production</code> (or shipping an experiment with{' '}
          <code>promote</code>) makes it serve searches outside experiments.
        </p>
      )}
      {mine.map((a) => (
        <div key={a.alias}>
          <h3>
            {a.alias}{' '}
            <span className="muted small">
              → {a.version === null ? 'active version' : `v${a.version}`} (serving{' '}
              {a.servingVersion === null ? 'nothing yet' : `v${a.servingVersion}`})
            </span>
          </h3>
          <AliasHistory alias={a.alias} />
        </div>
      ))}
    </section>
  );
}
