import { usePositionBias, type EvalWindow, type PositionBias } from '../../api/evaluations';
import { PositionBiasChart, type BiasPoint } from '../../charts';
import { ApiError } from '../../api/client';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { integer, number } from '../../format';

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

export function biasPoints(b: PositionBias): BiasPoint[] {
  const harvested = b.positions.flatMap((p): BiasPoint[] =>
    // A position without harvested support has no estimate (the service reports a placeholder): no point is drawn for it.
    finite(p.estimate) && (p.position === 1 || p.support > 0)
      ? [
          {
            position: p.position,
            curve: 'harvested',
            estimate: p.estimate,
            support: p.support,
            ...(finite(p.interval[0]) && finite(p.interval[1]) ? { low: p.interval[0], high: p.interval[1] } : {}),
          },
        ]
      : [],
  );
  // PBM's curve stops where the logs stop: past the deepest harvested position it reports a prior, not data.
  const deepest = Math.max(0, ...b.positions.filter((p) => p.support > 0).map((p) => p.position));
  const pbm = b.pbm
    .filter((p) => deepest === 0 || p.position <= deepest)
    .flatMap((p): BiasPoint[] => (finite(p.examination) ? [{ position: p.position, curve: 'PBM', estimate: p.examination }] : []));
  return [...harvested, ...pbm];
}

/** How much less often each position is looked at than position 1, from the service's own logs, next to the PBM click model's answer. */
export function PositionBiasSection({ range }: { range: EvalWindow }) {
  const bias = usePositionBias(range);
  // On a phone the table (ten cards) folds away: the chart's tooltip carries the same numbers.
  const wide = typeof matchMedia === 'function' ? matchMedia('(min-width: 641px)').matches : true;
  const pbm = new Map((bias.data?.pbm ?? []).map((p) => [p.position, p.examination]));
  return (
    <section className="card" aria-labelledby="bias-title" data-testid="position-bias">
      <h2 id="bias-title">Position bias</h2>
      <p className="muted small">
        Examination of each position relative to position 1, harvested from results that different rankers showed at different positions for
        the same query (AllPairs intervention harvesting, Agarwal et al. 2019), with its 95 % band, beside the PBM click model fitted on the
        same window. Every estimator above divides by these propensities.
      </p>
      {bias.isPending && <Loading what="the position-bias curve" />}
      {bias.error instanceof ApiError && bias.error.status === 400 ? (
        <EmptyState title="No searches with impressions in this window">
          <p>
            The curve needs feedback whose impressions carry <code>customMetadata.position</code>, ideally from two or more rankers showing
            the same results at different positions. {bias.error.message}
          </p>
        </EmptyState>
      ) : (
        bias.error && <ErrorState error={bias.error} title="No position-bias curve for this window" />
      )}
      {bias.data && (
        <>
          <p className="small">
            {integer(bias.data.searches)} searches · {integer(bias.data.harvestedPairs)} harvested (query, result) pairs · method{' '}
            {bias.data.method}
          </p>
          <figure className="figure" data-testid="position-bias-chart">
            <figcaption>Examination propensity by position (position 1 = 1): harvested with its band, and PBM</figcaption>
            <PositionBiasChart points={biasPoints(bias.data)} />
          </figure>
          <details open={wide}>
            <summary>Per position: estimate, interval and support</summary>
            <div className="table-wrap">
              <table className="table compact results-table stack-narrow" data-testid="position-bias-table">
                <caption className="sr-only">Position bias per position</caption>
                <thead>
                  <tr>
                    <th scope="col">Position</th>
                    <th scope="col">Harvested</th>
                    <th scope="col">95 % interval</th>
                    <th scope="col">Support (pairs)</th>
                    <th scope="col">PBM</th>
                  </tr>
                </thead>
                <tbody>
                  {bias.data.positions.map((p) => (
                    <tr key={p.position}>
                      <th scope="row">{p.position}</th>
                      <td data-label="Harvested">{p.position !== 1 && p.support === 0 ? '—' : number(p.estimate)}</td>
                      <td data-label="95 % interval">
                        [{number(p.interval[0])}, {number(p.interval[1])}]
                      </td>
                      <td data-label="Support (pairs)">
                        {p.position === 1 ? 'reference' : p.support === 0 ? 'none: no estimate' : integer(p.support)}
                      </td>
                      <td data-label="PBM">{number(pbm.get(p.position))}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}
