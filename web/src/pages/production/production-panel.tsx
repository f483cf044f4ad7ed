import { Link } from 'react-router';
import { useAliasList, useRecentDecisions } from '../../api/production';
import { ErrorState, Loading } from '../../components/states';
import { dateTime, relativeTime } from '../../format';
import { NoAliases } from './production-page';
import { ExperimentLink, Serves } from './served';

/** The overview's summary of what serves production, linking to the full view (history and rollback). */
export function ProductionPanel() {
  const aliases = useAliasList();
  return (
    <section aria-labelledby="production-title" className="card" data-testid="production-panel">
      <h2 id="production-title">What serves production</h2>
      {aliases.error && <ErrorState error={aliases.error} />}
      {aliases.isPending && <Loading what="aliases" />}
      {aliases.data && aliases.data.items.length === 0 && <NoAliases />}
      {aliases.data && aliases.data.items.length > 0 && (
        <ul className="list">
          {aliases.data.items.map((a) => (
            <li key={a.alias} data-testid={`panel-alias-${a.alias}`}>
              <code>{a.alias}</code> serves <Serves alias={a} />
              <div className="muted small">
                since {relativeTime(a.updatedAt)}, moved by {a.updatedBy}
                {a.experimentId && (
                  <>
                    {' '}
                    when concluding <ExperimentLink experimentId={a.experimentId} />
                  </>
                )}
                {a.reason && <>: “{a.reason}”</>}
              </div>
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link to="/production">History and rollback →</Link>
      </p>
    </section>
  );
}

const DECISION: Record<string, string> = { ship: 'Shipped', rollback: 'Rolled back', inconclusive: 'Inconclusive' };

/** The latest concluded experiments: decision, winner, date. */
export function RecentDecisions() {
  const decisions = useRecentDecisions(5);
  return (
    <section aria-labelledby="decisions-title" className="card" data-testid="recent-decisions">
      <h2 id="decisions-title">Recent decisions</h2>
      {decisions.error && <ErrorState error={decisions.error} />}
      {decisions.isPending && <Loading what="decisions" />}
      {decisions.data && decisions.data.length === 0 && (
        <p className="muted">No experiment is concluded yet. Concluding one records its decision (ship, roll back or inconclusive).</p>
      )}
      {decisions.data && decisions.data.length > 0 && (
        <ul className="list">
          {decisions.data.map((e) => {
            const winner = e.variants.find((v) => v.id === e.conclusion.winnerVariantId);
            return (
              <li key={e.experimentId} data-testid={`decision-${e.experimentId}`}>
                <Link to={`/experiments/${e.experimentId}`} className="strong">
                  {e.name}
                </Link>
                <div>
                  {DECISION[e.conclusion.decision] ?? e.conclusion.decision}
                  {winner && <>, winner “{winner.name}”</>} <span className="muted small">· {dateTime(e.conclusion.concludedAt)}</span>
                </div>
                {e.conclusion.promotion && (
                  <div className="muted small">
                    moved <code>{e.conclusion.promotion.alias}</code> to v{e.conclusion.promotion.version} of{' '}
                    {e.conclusion.promotion.modelId}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
