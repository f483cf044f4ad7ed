import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, type ErrorDetail } from '../../../api/client';
import { useCreateExperiment } from '../../../api/queries';
import type { ExperimentCreate } from '../../../api/types';
import { errorsAt, Field, invalid } from '../../../components/field';
import { ErrorState } from '../../../components/states';
import { useTitle } from '../../../components/title';

type MetricName = NonNullable<ExperimentCreate['configuration']['targetMetrics']>[number];
// A Record over the API's enum: a metric added to the catalogue fails the type check until it is listed here.
const METRICS: Record<MetricName, string> = {
  ctr: 'click-through rate',
  abandonment_rate: 'searches without a click',
  mrr: 'reciprocal rank of the first click',
  mean_rating: 'mean explicit rating',
  dwell_time: 'dwell time per click',
  time_to_click: 'time to the first click',
  satisfied_click_rate: 'clicks with 30 s+ dwell',
  scroll_depth: 'scroll depth',
  conversion_rate: 'sessions that convert',
  time_to_click_p50: 'median time to click (per click)',
  time_to_click_p90: '90th percentile time to click',
  dwell_time_p50: 'median dwell time (per click)',
  dwell_time_p90: '90th percentile dwell time',
};

interface VariantDraft {
  id: string;
  name: string;
  weight: string;
  config: string;
}

const blankVariant = (id: string): VariantDraft => ({ id, name: '', weight: '0.5', config: '{}' });

/** datetime-local holds no zone; the form says UTC and sends UTC. */
const toIso = (local: string) => (local ? `${local}:00Z` : undefined);

export function NewExperimentPage() {
  useTitle('New experiment');
  const navigate = useNavigate();
  const create = useCreateExperiment();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [variants, setVariants] = useState<VariantDraft[]>([blankVariant('control'), blankVariant('treatment')]);
  const [equalSplit, setEqualSplit] = useState(true);
  const [traffic, setTraffic] = useState('1');
  const [metrics, setMetrics] = useState<MetricName[]>(['ctr']);
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [layerId, setLayerId] = useState('');
  const [layerStart, setLayerStart] = useState('0');
  const [layerEnd, setLayerEnd] = useState('1');
  const [method, setMethod] = useState<'fixed' | 'sequential'>('fixed');
  const [localErrors, setLocalErrors] = useState<ErrorDetail[]>([]);

  const details = [...localErrors, ...(create.error instanceof ApiError ? create.error.details : [])];
  const at = (path: string, exact = false) => errorsAt(details, path, exact);
  const shown = new Set<string>();
  const track = (path: string, exact = false) => {
    for (const d of details) if (d.path === path || (!exact && d.path.startsWith(`${path}/`))) shown.add(`${d.path}:${d.message}`);
    return at(path, exact);
  };

  const updateVariant = (i: number, patch: Partial<VariantDraft>) =>
    setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...patch } : v)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.reset();
    const problems: ErrorDetail[] = [];
    const parsed = variants.map((v, i) => {
      let config: Record<string, unknown> | undefined;
      try {
        const value: unknown = JSON.parse(v.config || '{}');
        if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
        config = value as Record<string, unknown>;
      } catch {
        problems.push({ path: `/configuration/variants/${i}/config`, message: 'must be a JSON object, e.g. {"layout": "grid"}' });
      }
      return {
        id: v.id,
        ...(v.name ? { name: v.name } : {}),
        ...(equalSplit ? {} : { weight: Number(v.weight) }),
        ...(config ? { config } : {}),
      };
    });
    setLocalErrors(problems);
    if (problems.length) return;
    const body: ExperimentCreate = {
      name,
      ...(description ? { description } : {}),
      ...(startDate ? { startDate: toIso(startDate)! } : {}),
      ...(endDate ? { endDate: toIso(endDate)! } : {}),
      configuration: {
        variants: parsed,
        trafficAllocation: Number(traffic),
        targetMetrics: metrics,
        ...(layerId ? { layer: { id: layerId, range: [Number(layerStart), Number(layerEnd)] } } : {}),
        analysis: { method },
      },
    };
    create.mutate(body, { onSuccess: (e) => navigate(`/experiments/${e.experimentId}`) });
  };

  const fields = (
    <>
      <Field label="Name" errors={track('/name')}>
        {(ids) => (
          <input
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(at('/name'))}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={200}
          />
        )}
      </Field>
      <Field label="Description (optional)" errors={track('/description')}>
        {(ids) => (
          <textarea
            id={ids.input}
            aria-describedby={ids.described || undefined}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            rows={2}
          />
        )}
      </Field>
      <fieldset className="variants">
        <legend>Variants</legend>
        <label className="inline">
          <input type="checkbox" checked={equalSplit} onChange={(e) => setEqualSplit(e.target.checked)} /> Split traffic equally
        </label>
        {track('/configuration/variants', true).map((m) => (
          <p key={m} className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>Variants: {m}
          </p>
        ))}
        {variants.map((v, i) => (
          <div key={i} className="variant-row" role="group" aria-label={`Variant ${i + 1}${i === 0 ? ' (control)' : ''}`}>
            <Field label={`Variant ${i + 1} id${i === 0 ? ' (control)' : ''}`} errors={track(`/configuration/variants/${i}/id`)}>
              {(ids) => (
                <input
                  id={ids.input}
                  aria-describedby={ids.described || undefined}
                  {...invalid(at(`/configuration/variants/${i}/id`))}
                  value={v.id}
                  onChange={(e) => updateVariant(i, { id: e.target.value })}
                  required
                  maxLength={64}
                />
              )}
            </Field>
            <Field label="Display name" errors={track(`/configuration/variants/${i}/name`)}>
              {(ids) => (
                <input id={ids.input} value={v.name} placeholder={v.id} onChange={(e) => updateVariant(i, { name: e.target.value })} />
              )}
            </Field>
            {!equalSplit && (
              <Field label="Weight" errors={track(`/configuration/variants/${i}/weight`)} hint="0–1; weights sum to 1">
                {(ids) => (
                  <input
                    id={ids.input}
                    aria-describedby={ids.described || undefined}
                    {...invalid(at(`/configuration/variants/${i}/weight`))}
                    type="number"
                    step="any"
                    min="0"
                    max="1"
                    value={v.weight}
                    onChange={(e) => updateVariant(i, { weight: e.target.value })}
                  />
                )}
              </Field>
            )}
            <Field label="Config (JSON)" errors={track(`/configuration/variants/${i}/config`)}>
              {(ids) => (
                <input
                  id={ids.input}
                  aria-describedby={ids.described || undefined}
                  {...invalid(at(`/configuration/variants/${i}/config`))}
                  className="mono"
                  value={v.config}
                  onChange={(e) => updateVariant(i, { config: e.target.value })}
                />
              )}
            </Field>
            {variants.length > 2 && (
              <button type="button" className="link" onClick={() => setVariants((vs) => vs.filter((_, j) => j !== i))}>
                Remove variant {i + 1}
              </button>
            )}
          </div>
        ))}
        {variants.length < 20 && (
          <button type="button" onClick={() => setVariants((vs) => [...vs, blankVariant(`variant-${vs.length + 1}`)])}>
            Add a variant
          </button>
        )}
      </fieldset>
      <Field label="Traffic allocation" errors={track('/configuration/trafficAllocation')} hint="Share of sessions that enter, in (0, 1]">
        {(ids) => (
          <input
            id={ids.input}
            aria-describedby={ids.described || undefined}
            {...invalid(at('/configuration/trafficAllocation'))}
            type="number"
            step="any"
            value={traffic}
            onChange={(e) => setTraffic(e.target.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend>Target metrics</legend>
        <div className="checks">
          {(Object.keys(METRICS) as MetricName[]).map((m) => (
            <label key={m} className="inline">
              <input
                type="checkbox"
                checked={metrics.includes(m)}
                onChange={(e) => setMetrics((ms) => (e.target.checked ? [...ms, m] : ms.filter((x) => x !== m)))}
              />{' '}
              <code>{m}</code> <span className="muted small">{METRICS[m]}</span>
            </label>
          ))}
        </div>
        {track('/configuration/targetMetrics').map((m) => (
          <p key={m} className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>Target metrics: {m}
          </p>
        ))}
      </fieldset>
      <div className="form-row">
        <Field label="Start date (UTC, optional)" errors={track('/startDate')}>
          {(ids) => (
            <input
              id={ids.input}
              aria-describedby={ids.described || undefined}
              {...invalid(at('/startDate'))}
              type="datetime-local"
              value={startDate}
              onChange={(e) => setStartDate(e.target.value)}
            />
          )}
        </Field>
        <Field label="End date (UTC, optional)" errors={track('/endDate')}>
          {(ids) => (
            <input
              id={ids.input}
              aria-describedby={ids.described || undefined}
              {...invalid(at('/endDate'))}
              type="datetime-local"
              value={endDate}
              onChange={(e) => setEndDate(e.target.value)}
            />
          )}
        </Field>
      </div>
      <fieldset>
        <legend>Layer (optional: experiments of one layer with disjoint ranges never share a session)</legend>
        <div className="form-row">
          <Field label="Layer id" errors={track('/configuration/layer/id')}>
            {(ids) => <input id={ids.input} value={layerId} onChange={(e) => setLayerId(e.target.value)} maxLength={64} />}
          </Field>
          <Field label="Range start" errors={track('/configuration/layer/range')}>
            {(ids) => (
              <input
                id={ids.input}
                aria-describedby={ids.described || undefined}
                type="number"
                step="any"
                value={layerStart}
                onChange={(e) => setLayerStart(e.target.value)}
                disabled={!layerId}
              />
            )}
          </Field>
          <Field label="Range end" errors={[]}>
            {(ids) => (
              <input
                id={ids.input}
                type="number"
                step="any"
                value={layerEnd}
                onChange={(e) => setLayerEnd(e.target.value)}
                disabled={!layerId}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <Field label="Analysis method" errors={track('/configuration/analysis')}>
        {(ids) => (
          <select id={ids.input} value={method} onChange={(e) => setMethod(e.target.value as 'fixed' | 'sequential')}>
            <option value="fixed">fixed horizon (one look at the end)</option>
            <option value="sequential">sequential (safe to look every day)</option>
          </select>
        )}
      </Field>
    </>
  );
  const unplaced = details.filter((d) => !shown.has(`${d.path}:${d.message}`));
  return (
    <>
      <p className="breadcrumb">
        <Link to="/experiments">← Experiments</Link>
      </p>
      <h1>New experiment</h1>
      <form onSubmit={submit} noValidate className="form" aria-describedby={create.error ? 'form-error' : undefined}>
        {fields}
        {create.error !== null && (
          <div id="form-error">
            <ErrorState
              error={
                create.error instanceof ApiError
                  ? new ApiError(create.error.status, create.error.code, create.error.message, unplaced, create.error.requestId)
                  : create.error
              }
              title="The experiment was not created"
            />
          </div>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create experiment'}
          </button>
          <Link to="/experiments">Cancel</Link>
        </div>
      </form>
    </>
  );
}
