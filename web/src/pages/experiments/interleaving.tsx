import type { Experiment, Results } from '../../api/types';
import { OutcomeBarsChart, PreferenceChart, PreferenceHeatmap, type HeatCell, type OutcomeRow, type PreferenceRow } from '../../charts';
import { dateTime, integer, interval, percent, pValue } from '../../format';
import { fromTreatmentSide, readingOrder, type Pair } from './interleaving-side';

type Interleaving = NonNullable<Results['interleaving']>;

function BalanceBanner({ il, name }: { il: Interleaving; name: (id: string) => string }) {
  const shares = Object.entries(il.balance.positionShares)
    .map(([id, s]) => `${name(id)} ${percent(s, 1)}`)
    .join(', ');
  if (il.balance.passed) {
    return (
      <p className="callout callout-ok" data-testid="balance-banner">
        <span aria-hidden="true">✓ </span>
        <strong>Team balance passed</strong>
        {il.balance.positionsPValue !== null && <> (positions p = {pValue(il.balance.positionsPValue)})</>}. {il.balance.note}
        <span className="muted small"> Credited positions: {shares}.</span>
      </p>
    );
  }
  return (
    <div className="callout callout-error" role="alert" data-testid="balance-banner">
      <p>
        <span aria-hidden="true">⚠ </span>
        <strong>Team balance failed: these results are untrustworthy.</strong> The teams did not get equal shares of the credited positions
        (positions p = {pValue(il.balance.positionsPValue)}, first picks p = {pValue(il.balance.firstPicksPValue)}), typically because a
        ranker returned fewer results than the depth. Shipping is blocked unless forced.
      </p>
      <p className="small">Credited positions: {shares}.</p>
    </div>
  );
}

/** Results of an interleaving or multileaving experiment: per-pair outcomes, preferences and, for 3+ rankers, the matrix. */
export function InterleavingSection({ experiment, results }: { experiment: Experiment; results: Results }) {
  const il = results.interleaving!;
  const name = (id: string) => experiment.variants.find((v) => v.id === id)?.name ?? id;
  const label = (p: Pair) => `${name(p.variantId)} vs ${name(p.opponentVariantId)}`;
  // Each pair from the treatment's side: the ranker under test first, the control (engine) second.
  const order = readingOrder(experiment);
  const shown = il.pairs.map((p) => fromTreatmentSide(p, order));
  const pairs = shown.map(label);
  const outcomes: OutcomeRow[] = shown.flatMap((p) => [
    { pair: label(p), outcome: 'wins' as const, queries: p.wins },
    { pair: label(p), outcome: 'ties' as const, queries: p.ties },
    { pair: label(p), outcome: 'losses' as const, queries: p.losses },
  ]);
  const preferences: PreferenceRow[] = shown.flatMap((p) =>
    p.preference !== null && p.ci
      ? [
          {
            pair: label(p),
            preference: p.preference,
            low: p.ci[0]!,
            high: p.ci[1]!,
            verdict: !p.significant ? 'not significant' : p.winner === p.variantId ? 'better' : 'worse',
          },
        ]
      : [],
  );
  const cells: HeatCell[] = il.matrix
    ? il.matrix.variantIds.flatMap((row, i) =>
        il.matrix!.variantIds.map((column, j) => ({
          row: name(row),
          column: name(column),
          preference: il.matrix!.preference[i]![j] ?? null,
        })),
      )
    : [];
  return (
    <section aria-labelledby="results-title" className="card">
      <h2 id="results-title">Results: {il.method} interleaving</h2>
      <p className="muted small">
        {results.method === 'sequential' ? 'Sequential (always-valid) intervals' : 'Per-unit tests'}, α = {results.alpha},{' '}
        {results.correction} correction · depth {il.depth} · {integer(il.queries)} queries from {integer(il.units)} sessions · computed{' '}
        {dateTime(results.computedAt)}
      </p>
      <BalanceBanner il={il} name={name} />
      <p className="headline" data-testid="summary">
        {results.summary}
      </p>
      {il.queries === 0 ? (
        <p>
          No interleaved list has been shown yet. Call <code>POST /api/nous/rank</code> (or <code>…/interleave</code> for external rankers)
          once per query and send clicks with the same <code>sessionId</code> and <code>queryId</code>.
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table results-table stack-narrow" data-testid="interleaving-pairs">
              <caption className="muted small">
                Each pair reads from the side of the ranker named first (the treatment; the control is named second): wins are its wins.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Pair</th>
                  <th scope="col">Wins</th>
                  <th scope="col">Ties</th>
                  <th scope="col">Losses</th>
                  <th scope="col">Preference (CI)</th>
                  <th scope="col">Share of decided</th>
                  <th scope="col">p</th>
                  <th scope="col">Adj. p</th>
                  <th scope="col">Winner</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((p) => (
                  <tr key={label(p)} data-testid={`pair-${p.variantId}-${p.opponentVariantId}`}>
                    <th scope="row">{label(p)}</th>
                    <td data-testid="wins" data-label="Wins">
                      {integer(p.wins)}
                    </td>
                    <td data-testid="ties" data-label="Ties">
                      {integer(p.ties)}
                    </td>
                    <td data-testid="losses" data-label="Losses">
                      {integer(p.losses)}
                    </td>
                    <td data-label="Preference (interval)">
                      <span data-testid="preference">{percent(p.preference, 1, true)}</span>
                      <div className="muted small">{interval(p.ci, (v) => percent(v, 1))}</div>
                    </td>
                    <td data-label="Share of decided">
                      {percent(p.share, 1)}
                      <div className="muted small">{interval(p.shareCi, (v) => percent(v, 1))}</div>
                    </td>
                    <td data-label="p">{pValue(p.pValue)}</td>
                    <td data-testid="adjusted-p" data-label="Adjusted p">
                      {pValue(p.adjustedPValue)}
                    </td>
                    <td data-testid="winner" data-label="Winner">
                      <PairVerdict pair={p} name={name} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <figure className="figure">
            <figcaption>Queries won, tied and lost by the first-named ranker of each pair (the treatment)</figcaption>
            <OutcomeBarsChart rows={outcomes} pairs={pairs} />
          </figure>
          {preferences.length > 0 && (
            <figure className="figure">
              <figcaption>
                Preference for the first-named ranker (the treatment) with its {Math.round((1 - results.alpha) * 100)} % interval: right of
                zero, it is preferred
              </figcaption>
              <PreferenceChart rows={preferences} />
            </figure>
          )}
          {il.matrix && (
            <figure className="figure">
              <figcaption>
                Preference of each ranker (row) over each other (column); overall order:{' '}
                {(il.order ?? []).map((s) => `${s.rank}. ${name(s.variantId)}`).join(', ')}
              </figcaption>
              <PreferenceHeatmap cells={cells} order={il.matrix.variantIds.map(name)} />
            </figure>
          )}
          <p className="muted small">
            Ignored clicks: {integer(il.ignoredClicks.notShown)} on results not shown, {integer(il.ignoredClicks.belowDepth)} below the
            depth, {integer(il.ignoredClicks.repeated)} repeated, {integer(il.ignoredClicks.beforeList)} before the list was recorded.
          </p>
        </>
      )}
    </section>
  );
}

/** The pair's winner from the first-named ranker's side: better, worse, or no winner yet; words and symbol, colour second. */
function PairVerdict({ pair, name }: { pair: Pair; name: (id: string) => string }) {
  if (!pair.significant || !pair.winner) return <span className="verdict verdict-ns">≈ none yet</span>;
  return pair.winner === pair.variantId ? (
    <span className="verdict verdict-better" title={`${name(pair.variantId)} is preferred over ${name(pair.opponentVariantId)}`}>
      <span aria-hidden="true">▲ </span>
      {name(pair.variantId)}, better
    </span>
  ) : (
    <span className="verdict verdict-worse" title={`${name(pair.opponentVariantId)} is preferred over ${name(pair.variantId)}`}>
      <span aria-hidden="true">▼ </span>
      {name(pair.variantId)}, worse: {name(pair.winner)} wins
    </span>
  );
}
