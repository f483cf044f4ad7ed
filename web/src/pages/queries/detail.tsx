import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useAnalyticsQuery } from '../../api/queries';
import { CtrRelevanceChart, PositionHistogram, SearchesCtrChart } from '../../charts';
import { ErrorState, Loading } from '../../components/states';
import { useTitle } from '../../components/title';
import { dateTime, integer, number, percent } from '../../format';
import { QueryExperiments } from './query-experiments';

export function QueryDetailPage() {
  const { queryHash = '' } = useParams();
  const [model, setModel] = useState('default');
  const q = useAnalyticsQuery(queryHash, { interval: 'day', model });
  useTitle(`Query ${q.data?.queryText ?? queryHash}`);
  const points = useMemo(
    () => (q.data?.series ?? []).map((p) => ({ date: new Date(p.start), searches: p.searches, ctr: p.ctr })),
    [q.data],
  );
  const bars = useMemo(
    () =>
      (q.data?.results ?? []).flatMap((r) => [
        { resultId: r.resultId, measure: 'CTR', value: r.ctr ?? 0 },
        ...(r.relevance !== null ? [{ resultId: r.resultId, measure: 'relevance', value: r.relevance }] : []),
      ]),
    [q.data],
  );
  return (
    <>
      <p className="muted small">
        <Link to="/queries">← Queries</Link>
      </p>
      <h1>
        Query <q>{q.data?.queryText ?? queryHash}</q>
      </h1>
      {q.error && <ErrorState error={q.error} />}
      {q.isPending && <Loading what="the query" />}
      {q.data && (
        <>
          <p className="muted small">
            <code>{q.data.queryHash}</code> · {dateTime(q.data.window.from)} – {dateTime(q.data.window.to)} · data fresh as of{' '}
            {q.data.dataFreshAsOf ? dateTime(q.data.dataFreshAsOf) : 'not yet aggregated'}
          </p>
          <dl className="facts" data-testid="query-figures">
            <dt>Searches</dt>
            <dd data-testid="q-searches">{integer(q.data.figures.searches)}</dd>
            <dt>Share of searches</dt>
            <dd>{percent(q.data.figures.share)}</dd>
            <dt>CTR</dt>
            <dd data-testid="q-ctr">{percent(q.data.figures.ctr)}</dd>
            <dt>Abandonment</dt>
            <dd data-testid="q-abandonment">{percent(q.data.figures.abandonmentRate)}</dd>
            <dt>Mean first click position</dt>
            <dd>{number(q.data.figures.meanFirstClickPosition)}</dd>
            <dt>MRR</dt>
            <dd>{number(q.data.figures.mrr)}</dd>
            <dt>Conversions</dt>
            <dd>{integer(q.data.figures.conversions)}</dd>
            <dt>Zero-result rate</dt>
            <dd>{percent(q.data.figures.zeroResultRate)}</dd>
          </dl>
          <p>
            Rank this query better: train or compare rankers in <Link to="/models">Models</Link> (relevance below from{' '}
            <Link to={`/models/${encodeURIComponent(q.data.relevanceModel.modelId)}`}>{q.data.relevanceModel.modelId}</Link>
            {q.data.relevanceModel.version !== null ? ` v${q.data.relevanceModel.version}` : ''}), and test the change in{' '}
            <Link to="/experiments">Experiments</Link>: the experiments covering it are listed below.
          </p>
          <p>
            <Link to={`/queries/${encodeURIComponent(queryHash)}/side-by-side`}>Compare rankers side by side on this query →</Link>
          </p>
          <div className="grid-2">
            <figure>
              <figcaption>Searches and CTR by day</figcaption>
              <SearchesCtrChart points={points} />
            </figure>
            <figure>
              <figcaption>Position of the first click</figcaption>
              <PositionHistogram bars={q.data.histogram} />
            </figure>
          </div>

          <h2>Results</h2>
          <form className="filters" onSubmit={(e) => e.preventDefault()}>
            <label>
              Click model{' '}
              <input defaultValue={model} onBlur={(e) => setModel(e.target.value.trim() || 'default')} aria-describedby="model-note" />
            </label>
            <span id="model-note" className="muted small">
              {q.data.relevanceModel.reason ?? 'relevance is the click model’s estimate, free of position bias'}
            </span>
          </form>
          <div className="table-wrap">
            <table className="table stack-narrow" data-testid="results-table">
              <caption className="sr-only">Results of the query with CTR by position and click-model relevance</caption>
              <thead>
                <tr>
                  <th scope="col">Result</th>
                  <th scope="col">Impressions</th>
                  <th scope="col">Clicks</th>
                  <th scope="col">CTR</th>
                  <th scope="col">Mean position</th>
                  <th scope="col">CTR by position</th>
                  <th scope="col">Relevance</th>
                </tr>
              </thead>
              <tbody>
                {q.data.results.map((r) => (
                  <tr key={r.resultId} data-testid={`result-${r.resultId}`}>
                    <th scope="row">
                      <code>{r.resultId}</code>
                    </th>
                    <td data-testid="impressions" data-label="Impressions">
                      {integer(r.impressions)}
                    </td>
                    <td data-testid="clicks" data-label="Clicks">
                      {integer(r.clicks)}
                    </td>
                    <td data-testid="ctr" data-label="CTR">
                      {percent(r.ctr)}
                    </td>
                    <td data-testid="mean-position" data-label="Mean position">
                      {number(r.meanPosition)}
                    </td>
                    <td className="small" data-label="CTR by position">
                      {r.byPosition.map((p) => `${p.position ?? '?'}: ${percent(p.ctr, 0)}`).join(' · ')}
                    </td>
                    <td data-testid="relevance" data-label="Relevance">
                      {number(r.relevance)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <figure className="figure">
            <figcaption>
              CTR and relevance side by side, per result, on one 0–100 % axis: CTR is the share of impressions clicked, relevance the click
              model’s chance that a result is clicked once seen. A CTR bar far longer than its relevance bar marks a result clicked because
              it is on top.
            </figcaption>
            <CtrRelevanceChart rows={bars} />
          </figure>

          <h2>CTR by position</h2>
          <div className="table-wrap">
            <table className="table" data-testid="positions-table">
              <caption className="sr-only">Impressions, clicks and CTR at each position</caption>
              <thead>
                <tr>
                  <th scope="col">Position</th>
                  <th scope="col">Impressions</th>
                  <th scope="col">Clicks</th>
                  <th scope="col">CTR</th>
                </tr>
              </thead>
              <tbody>
                {q.data.positions.map((p) => (
                  <tr key={String(p.position)}>
                    <td>{p.position ?? 'unknown'}</td>
                    <td>{integer(p.impressions)}</td>
                    <td>{integer(p.clicks)}</td>
                    <td>{percent(p.ctr)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {queryHash && <QueryExperiments queryHash={queryHash} />}
    </>
  );
}
