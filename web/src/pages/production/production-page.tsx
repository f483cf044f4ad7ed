import { Link } from 'react-router';
import { useAliasList } from '../../api/production';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { AliasCard } from './alias-card';

/** Every alias: what it serves, its history, and one-click rollback (each move asks for a reason). */
export function ProductionPage() {
  useTitle('Production');
  const aliases = useAliasList();
  return (
    <>
      <h1>Production</h1>
      <p className="muted">
        What <code>POST /api/nous/rank</code> serves to searches no running ranking experiment decides: the <code>production</code> alias's
        ranker, or the engine's original order when the alias is cleared or does not exist. Other aliases (e.g. <code>staging</code>) are
        names a team keeps for rankers; rank serves only <code>production</code>.
      </p>
      {aliases.error && <ErrorState error={aliases.error} />}
      {aliases.isPending && <Loading what="aliases" />}
      {aliases.data && aliases.data.items.length === 0 && <NoAliases />}
      {aliases.data?.items.map((a) => (
        <AliasCard key={a.alias} alias={a} />
      ))}
    </>
  );
}

export function NoAliases() {
  return (
    <EmptyState title="No alias yet: searches are served in the engine's original order">
      <p>
        Ship a ranker by concluding a ranking experiment with the decision “ship” (the Conclude dialog names the alias that moves), or point
        an alias at a version from a <Link to="/models">ranker's page</Link>.
      </p>
    </EmptyState>
  );
}
