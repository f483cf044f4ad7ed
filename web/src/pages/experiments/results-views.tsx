import type { ResultsRead } from '../../api/queries';
import type { Experiment, Results } from '../../api/types';
import { reasonText, Verdict } from '../../components/badges';
import { capitalised, integer, interval, metricLabel, number, pValue, scaled, words } from '../../format';

type Guardrail = Results['guardrails'][number];
type Slices = NonNullable<Results['slices']>;

/** The scale every verdict is on, and the slice dimension: both re-read the results. */
export function ReadControls({
  experiment,
  read,
  onRead,
}: {
  experiment: Experiment;
  read: ResultsRead;
  onRead: (r: ResultsRead) => void;
}) {
  const dimensions = experiment.configuration.analysis.dimensions as NonNullable<ResultsRead['dimension']>[];
  return (
    <div className="controls" data-testid="results-controls">
      <label>
        Scale{' '}
        <select
          data-testid="scale-toggle"
          value={read.scale ?? experiment.configuration.analysis.scale}
          onChange={(ev) => onRead({ ...read, scale: ev.target.value as ResultsRead['scale'] })}
        >
          <option value="relative">relative ((B − A)/|A|)</option>
          <option value="absolute">absolute (B − A)</option>
        </select>
      </label>{' '}
      <label>
        Slice by{' '}
        <select
          data-testid="slice-selector"
          value={read.dimension ?? ''}
          onChange={(ev) => onRead({ ...read, dimension: (ev.target.value || undefined) as ResultsRead['dimension'] })}
        >
          <option value="">(no slices)</option>
          {dimensions.map((d) => (
            <option key={d} value={d}>
              {dimensionLabel(d)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** A slice dimension in words: deviceType → "device type", attr:plan → "plan (attribute)". */
export function dimensionLabel(d: string): string {
  return d.startsWith('attr:') ? `${d.slice(5)} (attribute)` : words(d);
}

const STATUS_TEXT = {
  passed: '✓ passed (within the margin)',
  breached: '✕ breached (worse than the margin)',
  inconclusive: '? inconclusive',
};

/** Guardrails apart from the targets: one-sided non-inferiority at each guardrail's margin. */
export function GuardrailsTable({ results, names }: { results: Results; names: Map<string, string> }) {
  if (results.guardrails.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className="table stack-narrow" data-testid="guardrails-table">
        <caption>
          Guardrails: one-sided non-inferiority tests at each margin (α = {results.alpha} per side,{' '}
          {results.guardrails[0]!.method === 'sequential' ? 'always-valid' : 'fixed horizon'}), not part of the targets' correction
        </caption>
        <thead>
          <tr>
            <th scope="col">Guardrail</th>
            <th scope="col">Variant</th>
            <th scope="col">Lift</th>
            <th scope="col">Bounds (one-sided)</th>
            <th scope="col">Margin</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {results.guardrails.flatMap((g: Guardrail) =>
            g.comparisons.map((c) => (
              <tr key={`${g.metric}-${c.variantId}`} data-testid={`guardrail-${g.metric}-${c.variantId}`}>
                <th scope="row">
                  {capitalised(metricLabel(g.metric))}{' '}
                  <span className="muted small">
                    ({g.direction} is better{g.autoPause ? ', auto-pause' : ''})
                  </span>
                </th>
                <td data-label="Variant">{names.get(c.variantId) ?? c.variantId}</td>
                <td data-field="estimate" data-label="Lift">
                  {scaled(g.scale, c.estimate, true)}
                </td>
                <td data-field="bounds" data-label="Bounds (one-sided)">
                  {interval(c.bounds, (v) => scaled(g.scale, v))}
                </td>
                <td data-field="threshold" data-label="Margin">
                  {scaled(g.scale, c.threshold, true)} ({g.scale})
                </td>
                <td data-field="status" data-label="Status">
                  {c.status ? STATUS_TEXT[c.status] : `n/a${c.reason ? ` (${reasonText(c.reason)})` : ''}`}
                </td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Each slice value of the chosen dimension: its SRM and, per metric and treatment, the verdict (exploratory). */
export function SlicesTable({ slices, scale, names }: { slices: Slices; scale: string; names: Map<string, string> }) {
  return (
    <div className="table-wrap">
      <table className="table results-table stack-narrow" data-testid="slices-table">
        <caption>
          By {dimensionLabel(slices.dimension)} — exploratory. <span className="muted small">{slices.note}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">{capitalised(dimensionLabel(slices.dimension))}</th>
            <th scope="col">Sessions</th>
            <th scope="col">SRM p</th>
            <th scope="col">Metric · variant</th>
            <th scope="col">Lift ({scale})</th>
            <th scope="col">Adj. CI</th>
            <th scope="col">Adj. p</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {slices.values.flatMap((s) =>
            s.metrics.flatMap((m) =>
              m.comparisons.map((c) => (
                <tr key={`${s.value}-${m.metric}-${c.variantId}`} data-testid={`slice-${s.value}-${m.metric}-${c.variantId}`}>
                  <th scope="row">{s.value}</th>
                  <td data-label="Sessions">{integer(s.units)}</td>
                  <td data-field="srm" data-label="SRM p">
                    {pValue(s.srm.pValue)}
                    {!s.srm.passed && ' ⚠ mismatch'}
                  </td>
                  <td data-label="Metric · variant">
                    {metricLabel(m.metric)} · {names.get(c.variantId) ?? c.variantId}
                  </td>
                  <td data-field="estimate" data-label={`Lift (${scale})`}>
                    {scaled(scale, c.estimate, true)}
                  </td>
                  <td data-field="adjustedInterval" data-label="Adjusted interval">
                    {interval(c.adjustedInterval, (v) => scaled(scale, v))}
                  </td>
                  <td data-field="adjustedPValue" data-label="Adjusted p">
                    {pValue(c.adjustedPValue)}
                  </td>
                  <td data-field="verdict" data-label="Verdict">
                    <Verdict comparison={c} />
                  </td>
                </tr>
              )),
            ),
          )}
        </tbody>
      </table>
      <p className="muted small">
        Sessions without feedback yet (no {dimensionLabel(slices.dimension)}):{' '}
        {Object.entries(slices.unitsWithoutValue)
          .map(([id, u]) => `${names.get(id) ?? id} ${number(u)}`)
          .join(', ')}
        .
      </p>
    </div>
  );
}
