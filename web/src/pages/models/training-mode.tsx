import { useId, useState } from 'react';
import type { Model, ModelVersion } from '../../api/types';
import { TrainingBiasChart, type CurveRow } from '../../charts';
import { integer, number } from '../../format';
import { configMode, modeWords, readTraining, type Metrics, type TrainingView } from './training-read';

/** What each mode did, in one sentence (the mode's name alone does not say it to someone new to learning to rank). */
function modeSentence(view: TrainingView): string {
  if (view.data === 'clicks' && view.debiasing === 'ips') {
    const cap =
      view.clip === null
        ? ''
        : ` (propensities below the clip, ${view.clip}, are raised to it: no click weighs more than ${number(1 / view.clip)})`;
    return `LambdaMART learned from the clicks themselves, each click weighted by 1 / the propensity of the position it was shown at${cap}.`;
  }
  if (view.data === 'clicks' && view.debiasing === 'none') {
    return 'LambdaMART learned from the raw clicks, each counted the same wherever it was shown: the position bias stays in (the baseline the debiased modes are measured against).';
  }
  if (view.data === 'clicks') {
    return 'LambdaMART learned from the clicks themselves, with the position bias of clicks (t+) and of results left unclicked (t−) learned jointly with the trees (Unbiased LambdaMART, Hu et al. 2019).';
  }
  if (view.data === 'feedback')
    return 'A click model turned each (query, result)’s clicks into a graded judgment, and LambdaMART learned from the judgments.';
  if (view.data === 'dataset') return 'LambdaMART learned from the labels of an uploaded LETOR file.';
  if (view.data === 'import') return 'Trained elsewhere and imported: the service only scores it.';
  return 'This version’s metrics do not say how it was trained.';
}

/** The one sentence a reader needs to read the curve. */
function curveSentence(curve: NonNullable<TrainingView['curve']>): string {
  if (curve.source === 'learned') {
    return 'How likely a result is clicked (t+) or left unclicked (t−) at each position, compared with the same result at position 1, for no reason but its position: a click where t+ is low (few people look there) counted for more in training, and a result left unclicked where t− is high counted for less.';
  }
  const from =
    curve.source === 'config'
      ? 'as set in config.propensities'
      : `harvested from ${integer(curve.harvestedPairs)} (query, result) pairs that different rankers showed at different positions`;
  return `How often each position is looked at compared with position 1, ${from}: a click at a position looked at half as often counted twice, and under the clip (dashed) every click counted 1 / clip.`;
}

function curveRows(curve: NonNullable<TrainingView['curve']>): CurveRow[] {
  const learned = curve.source === 'learned';
  return curve.positions.flatMap((p): CurveRow[] => [
    { position: p.position, series: learned ? 't+ clicked' : 'propensity', value: p.clicked },
    ...(learned && p.unclicked !== null ? [{ position: p.position, series: 't− unclicked', value: p.unclicked }] : []),
  ]);
}

function Curve({ view }: { view: TrainingView }) {
  const curve = view.curve!;
  const learned = curve.source === 'learned';
  const clip = view.debiasing === 'ips' ? view.clip : null;
  // On a phone the table folds away under the chart (its tooltip carries the same numbers); open on a desktop.
  const wide = typeof matchMedia === 'function' ? matchMedia('(min-width: 641px)').matches : true;
  return (
    <>
      <h3>{learned ? 'Position bias it learned' : 'Propensities it used'}</h3>
      <p className="small" data-testid="curve-sentence">
        {curveSentence(curve)}
      </p>
      <div className="curve-grid">
        <figure className="figure" data-testid="training-curve-chart" data-points={curve.positions.length}>
          <figcaption>
            {learned
              ? 't+ (clicked, solid) and t− (unclicked, dashed) by position, position 1 = 1'
              : `Propensity by position, position 1 = 1; clip ${clip ?? '—'} dashed`}
          </figcaption>
          <TrainingBiasChart rows={curveRows(curve)} clip={clip} />
        </figure>
        <details open={wide}>
          <summary>{learned ? 'Per position: t+ and t−' : 'Per position: propensity and the weight of a click'}</summary>
          <div className="table-wrap">
            <table className="table compact training-curve" data-testid="training-curve-table">
              <caption className="sr-only">{learned ? 'Learned position bias per position' : 'Propensity per position'}</caption>
              <thead>
                <tr>
                  <th scope="col">Position</th>
                  <th scope="col">{learned ? 't+ clicked' : 'Propensity'}</th>
                  <th scope="col">{learned ? 't− unclicked' : 'Click weight'}</th>
                </tr>
              </thead>
              <tbody>
                {curve.positions.map((p) => (
                  <tr key={p.position} data-position={p.position}>
                    <th scope="row">{p.position}</th>
                    <td data-field="clicked">{number(p.clicked)}</td>
                    {/* ips: the weight training gave a click here, 1 / max(propensity, clip), as the service computes it. */}
                    <td data-field={learned ? 'unclicked' : 'weight'}>
                      {learned ? number(p.unclicked) : number(1 / Math.max(p.clicked, clip ?? 0))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </div>
    </>
  );
}

function HeldOut({ heldOut }: { heldOut: NonNullable<TrainingView['heldOut']> }) {
  const { clicks, judgments } = heldOut;
  const rows = [
    clicks && {
      key: 'clicks',
      name: 'IPS-NDCG@10 on held-out clicks',
      model: clicks.model,
      logged: clicks.logged,
      on: `${integer(clicks.groups)} lists · ${integer(clicks.sessions)} sessions`,
    },
    judgments && {
      key: 'judgments',
      name: `NDCG@10 on ${judgments.source}`,
      model: judgments.model,
      logged: judgments.logged,
      on: `${integer(judgments.queries)} queries`,
    },
  ].filter((r) => r !== null);
  return (
    <>
      <h3>Held-out figures</h3>
      <p className="small">
        On queries kept out of training, the model’s order against the order the results were logged in: above the logged order, it puts the
        results people click higher than the ranker that showed them did, once the position bias is taken out.
      </p>
      <div className="table-wrap">
        <table className="table compact results-table stack-narrow" data-testid="held-out-table">
          <caption className="sr-only">Held-out figures of this version against the logged order</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">This version</th>
              <th scope="col">Logged order</th>
              <th scope="col">Measured on</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-testid={`held-out-${r.key}`}>
                <th scope="row">{r.name}</th>
                <td data-label="This version" data-field="model">
                  {number(r.model)}
                </td>
                <td data-label="Logged order" data-field="logged">
                  {number(r.logged)}
                </td>
                <td data-label="Measured on" data-field="support">
                  {r.on}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!judgments && (
        <p className="muted small" data-testid="no-judgments">
          No ratings in the training window for the held-out queries (NDCG@10 on judgments needs a query with two rated results), so the
          clicks are the only held-out evidence.
        </p>
      )}
    </>
  );
}

/** How a ranker version was trained: its mode in words, the position-bias curve it used or learned, its held-out figures. */
export function TrainingMode({ model, versions }: { model: Model; versions: ModelVersion[] | undefined }) {
  const pickId = useId();
  const [picked, setPicked] = useState<number | null>(null);
  const trained = versions ?? [];
  // Until the versions arrive, the model's own metrics are its active version's: the card shows them at once.
  const activeMetrics = model.activeVersion === null ? null : { version: model.activeVersion, metrics: model.metrics };
  const shown =
    trained.find((v) => v.version === picked) ?? trained.find((v) => v.version === model.activeVersion) ?? trained[0] ?? activeMetrics;
  const view = shown ? readTraining(shown.metrics as Metrics) : null;
  const next = configMode(model.config as Metrics);
  const nextWords = modeWords(next);
  return (
    <section className="card training-mode" aria-labelledby="training-title" data-testid="training-mode">
      <div className="section-head">
        <h2 id="training-title">{shown ? `How v${shown.version} was trained` : 'How it trains'}</h2>
        {trained.length > 1 && (
          <span className="version-pick">
            <label htmlFor={pickId}>Version</label>
            <select id={pickId} value={shown?.version} onChange={(e) => setPicked(Number(e.target.value))}>
              {trained.map((v) => (
                <option key={v.version} value={v.version}>
                  v{v.version}
                  {v.active ? ' (active)' : ''}
                </option>
              ))}
            </select>
          </span>
        )}
      </div>
      <p className="mode-line">
        <strong data-testid="training-mode-text">{view ? modeWords(view) : nextWords}</strong>
      </p>
      <p className="small">{modeSentence(view ?? { ...next, curve: null, heldOut: null })}</p>
      {view && modeWords(view) !== nextWords && (
        <p className="muted small" data-testid="next-mode">
          The config now asks the next run for: {nextWords}.
        </p>
      )}
      {view?.curve && view.curve.positions.length > 0 && view.curve.source !== 'none' && <Curve view={view} />}
      {view?.heldOut && <HeldOut heldOut={view.heldOut} />}
    </section>
  );
}
