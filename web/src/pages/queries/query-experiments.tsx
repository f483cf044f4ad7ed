import { Link } from 'react-router';
import { useQueryExperiments } from '../../api/queries';
import { StatusBadge } from '../../components/badges';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { dateTime, integer, percent } from '../../format';

const PAGE_SIZE = 20;

/** The query page's link to experiments: every phase whose attributed searches carried this query hash. */
export function QueryExperiments({ queryHash }: { queryHash: string }) {
  const pager = useCursorPager(queryHash);
  const list = useQueryExperiments(queryHash, { limit: PAGE_SIZE, ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  return (
    <section aria-labelledby="query-experiments-title">
      <h2 id="query-experiments-title">Experiments covering this query</h2>
      {list.error && <ErrorState error={list.error} />}
      {list.isPending && <Loading what="the experiments covering this query" />}
      {list.data && list.data.items.length === 0 && pager.page === 1 && (
        <EmptyState title="No experiment covers this query yet">
          <p>
            An experiment covers a query once sessions assigned to one of its variants search it: attribution (every few seconds) counts,
            per variant, each search that arrives with this <code>queryHash</code> after the session’s exposure and before the phase ends,
            and whether it got a click. Searches sent without a <code>queryHash</code> are not counted. Start one in{' '}
            <Link to="/experiments">Experiments</Link> and assign your sessions to it.
          </p>
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="query-experiments">
            <caption className="sr-only">Experiments covering this query, most recently seen first, with each variant’s searches</caption>
            <thead>
              <tr>
                <th scope="col">Experiment</th>
                <th scope="col">Status</th>
                <th scope="col">Phase</th>
                <th scope="col">Variant</th>
                <th scope="col">Searches</th>
                <th scope="col">Abandonment</th>
                <th scope="col" className="hide-narrow">
                  Last seen
                </th>
              </tr>
            </thead>
            {list.data.items.map((e) => (
              <tbody key={`${e.experimentId}-${e.phase}`} data-testid={`coverage-${e.experimentId}-${e.phase}`}>
                {e.variants.map((v, i) => (
                  <tr key={v.variantId} data-testid={`variant-${v.variantId}`}>
                    {i === 0 && (
                      <>
                        <th scope="rowgroup" rowSpan={e.variants.length}>
                          <Link to={`/experiments/${encodeURIComponent(e.experimentId)}`}>{e.name}</Link>
                          {e.type === 'interleaving' && <span className="muted small"> · interleaving</span>}
                        </th>
                        <td rowSpan={e.variants.length}>
                          <StatusBadge status={e.status} />
                        </td>
                        <td rowSpan={e.variants.length} data-testid="phase">
                          {e.phase}
                        </td>
                      </>
                    )}
                    <td>
                      <code>{v.variantId}</code>
                    </td>
                    <td data-testid="searches">{integer(v.searches)}</td>
                    <td data-testid="abandonment">{percent(v.abandonmentRate)}</td>
                    <td className="hide-narrow">{dateTime(v.lastSeen)}</td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
      <Pager
        page={pager.page}
        nextCursor={list.data?.nextCursor}
        onNext={pager.next}
        onPrevious={pager.previous}
        label="Experiments covering this query"
      />
    </section>
  );
}
