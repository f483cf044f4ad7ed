import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useAnalyticsOverview, useAnalyticsQueries, type AnalyticsSort } from '../../api/queries';
import { PositionHistogram, SearchesCtrChart } from '../../charts';
import { Pager, useCursorPager } from '../../components/pager';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { dateTime, integer, number, percent } from '../../format';
import { Sparkline, changeMarker, windowQuery, type Filters } from './shared';

const SORTS: { key: AnalyticsSort; label: string }[] = [
  { key: 'searches', label: 'Searches' },
  { key: 'ctr', label: 'CTR' },
  { key: 'abandonment', label: 'Abandonment' },
  { key: 'firstClickPosition', label: 'First click position' },
  { key: 'change', label: 'CTR change' },
  { key: 'zeroResults', label: 'Zero results' },
];

export function QueriesPage() {
  useTitle('Queries');
  const [filters, setFilters] = useState<Filters>({ days: 7, dimension: '', value: '' });
  const [sort, setSort] = useState<AnalyticsSort>('searches');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [minSearches, setMinSearches] = useState(10);
  const [anchor, setAnchor] = useState<string | undefined>(undefined);
  const win = windowQuery(filters, anchor);
  const overview = useAnalyticsOverview({ ...win, interval: filters.days <= 2 ? 'hour' : 'day' });
  if (overview.data && anchor === undefined) setAnchor(overview.data.window.to);
  const pager = useCursorPager(JSON.stringify({ filters, sort, order, minSearches }));
  const list = useAnalyticsQueries({ ...win, sort, order, minSearches, limit: 25, ...(pager.cursor ? { cursor: pager.cursor } : {}) });
  const points = useMemo(
    () => (overview.data?.series ?? []).map((p) => ({ date: new Date(p.start), searches: p.searches, ctr: p.ctr })),
    [overview.data],
  );
  const totals = overview.data?.totals;

  return (
    <>
      <h1>Queries</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Analytics filters">
        <label>
          Window{' '}
          <select value={filters.days} onChange={(e) => setFilters({ ...filters, days: Number(e.target.value) })}>
            <option value={1}>last day</option>
            <option value={7}>last 7 days</option>
            <option value={30}>last 30 days</option>
            <option value={90}>last 90 days</option>
          </select>
        </label>
        <label>
          Dimension{' '}
          <select value={filters.dimension} onChange={(e) => setFilters({ ...filters, dimension: e.target.value as Filters['dimension'] })}>
            <option value="">all traffic</option>
            <option value="deviceType">device type</option>
            <option value="searchType">search type</option>
            <option value="language">language</option>
            <option value="category">category</option>
          </select>
        </label>
        {filters.dimension && (
          <label>
            Value{' '}
            <input value={filters.value} onChange={(e) => setFilters({ ...filters, value: e.target.value })} placeholder="e.g. mobile" />
          </label>
        )}
        <label>
          Minimum searches{' '}
          <input type="number" min={0} value={minSearches} onChange={(e) => setMinSearches(Math.max(0, Number(e.target.value) || 0))} />
        </label>
        <label>
          Sort by{' '}
          <select value={sort} onChange={(e) => setSort(e.target.value as AnalyticsSort)}>
            {SORTS.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Order{' '}
          <select value={order} onChange={(e) => setOrder(e.target.value as 'asc' | 'desc')}>
            <option value="desc">highest first</option>
            <option value="asc">lowest first</option>
          </select>
        </label>
      </form>

      {overview.error && <ErrorState error={overview.error} />}
      {overview.isPending && <Loading what="search analytics" />}
      {overview.data && totals && (
        <section aria-labelledby="overview-title">
          <h2 id="overview-title">Overview</h2>
          <p className="muted small">
            {dateTime(overview.data.window.from)} – {dateTime(overview.data.window.to)} · data fresh as of{' '}
            <span data-testid="fresh">{overview.data.dataFreshAsOf ? dateTime(overview.data.dataFreshAsOf) : 'not yet aggregated'}</span>
          </p>
          <dl className="facts" data-testid="analytics-totals">
            <dt>Searches</dt>
            <dd data-testid="total-searches">{integer(totals.searches)}</dd>
            <dt>Sessions</dt>
            <dd data-testid="total-sessions">{integer(totals.sessions)}</dd>
            <dt>Distinct queries</dt>
            <dd data-testid="total-queries">{integer(totals.distinctQueries)}</dd>
            <dt>CTR</dt>
            <dd data-testid="total-ctr">{percent(totals.ctr)}</dd>
            <dt>Abandonment</dt>
            <dd data-testid="total-abandonment">{percent(totals.abandonmentRate)}</dd>
            <dt>Mean first click position</dt>
            <dd data-testid="total-first-click">{number(totals.meanFirstClickPosition)}</dd>
            <dt>MRR</dt>
            <dd data-testid="total-mrr">{number(totals.mrr)}</dd>
            <dt>Conversions</dt>
            <dd data-testid="total-conversions">{integer(totals.conversions)}</dd>
            <dt>Zero-result rate</dt>
            <dd data-testid="total-zero">{percent(totals.zeroResultRate)}</dd>
          </dl>
          {totals.searches === 0 ? (
            <EmptyState title="No searches in this window">
              <p>
                Searches appear here once feedback arrives and the analytics job has folded it in (every 2 s). Send{' '}
                <code>customMetadata.queryText</code> for readable queries and <code>customMetadata.resultCount</code> for zero-result
                rates.
              </p>
            </EmptyState>
          ) : (
            <div className="grid-2">
              <figure>
                <figcaption>Searches and CTR over time</figcaption>
                <SearchesCtrChart points={points} />
              </figure>
              <figure>
                <figcaption>Position of the first click</figcaption>
                <PositionHistogram bars={overview.data.histogram} />
              </figure>
            </div>
          )}
        </section>
      )}

      <section aria-labelledby="queries-title">
        <h2 id="queries-title">Queries</h2>
        {list.error && <ErrorState error={list.error} />}
        {list.isPending && <Loading what="queries" />}
        {list.data && list.data.items.length === 0 && pager.page === 1 && (
          <p className="muted">No query has {minSearches} searches or more in this window: lower the minimum to see rarer ones.</p>
        )}
        {list.data && list.data.items.length > 0 && (
          <div className="table-wrap">
            <table className="table" data-testid="queries-table">
              <caption className="sr-only">Queries sorted by {SORTS.find((s) => s.key === sort)?.label}</caption>
              <thead>
                <tr>
                  <th scope="col">Query</th>
                  <th scope="col">Searches</th>
                  <th scope="col">Share</th>
                  <th scope="col">CTR</th>
                  <th scope="col">Abandonment</th>
                  <th scope="col">First click</th>
                  <th scope="col" className="hide-narrow">
                    MRR
                  </th>
                  <th scope="col" className="hide-narrow">
                    Conversions
                  </th>
                  <th scope="col" className="hide-narrow">
                    Zero results
                  </th>
                  <th scope="col">Trend</th>
                  <th scope="col">Change</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((q) => (
                  <tr key={q.queryHash} data-testid={`query-${q.queryHash}`}>
                    <td>
                      <Link to={`/queries/${encodeURIComponent(q.queryHash)}`}>{q.queryText ?? q.queryHash}</Link>
                      {q.queryText && (
                        <div className="muted small">
                          <code>{q.queryHash}</code>
                        </div>
                      )}
                    </td>
                    <td data-testid="searches">{integer(q.searches)}</td>
                    <td>{percent(q.share)}</td>
                    <td data-testid="ctr">{percent(q.ctr)}</td>
                    <td data-testid="abandonment">{percent(q.abandonmentRate)}</td>
                    <td data-testid="first-click">{number(q.meanFirstClickPosition)}</td>
                    <td className="hide-narrow">{number(q.mrr)}</td>
                    <td className="hide-narrow">{integer(q.conversions)}</td>
                    <td className="hide-narrow">{percent(q.zeroResultRate)}</td>
                    <td>
                      <Sparkline values={q.trend.searches} label={`searches of ${q.queryText ?? q.queryHash} per ${q.trend.interval}`} />
                    </td>
                    <td data-testid="change">{changeMarker(q.change)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="muted small">
          Change: CTR and abandonment against the previous window of the same length; ▲/▼ marks a change that a two-proportion z-test finds
          significant after Holm&apos;s correction across this page (α = 0.05).
        </p>
        <Pager page={pager.page} nextCursor={list.data?.nextCursor} onNext={pager.next} onPrevious={pager.previous} label="Queries" />
      </section>
    </>
  );
}
