import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, type ErrorDetail } from '../../../api/client';
import { useCreateExperiment } from '../../../api/queries';
import type { ExperimentCreate } from '../../../api/types';
import { errorsAt } from '../../../components/field';
import { ErrorState } from '../../../components/states';
import { useTitle } from '../../../components/title';
import { basicFields } from './basic-fields';
import type { FieldErrors } from './field-errors';
import { metricFields, type MetricName } from './metric-fields';
import { runFields, type AnalysisMethod } from './run-fields';
import { blankVariant, variantFields, type VariantDraft } from './variant-fields';

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
  const [method, setMethod] = useState<AnalysisMethod>('fixed');
  const [localErrors, setLocalErrors] = useState<ErrorDetail[]>([]);

  const details = [...localErrors, ...(create.error instanceof ApiError ? create.error.details : [])];
  const at = (path: string, exact = false) => errorsAt(details, path, exact);
  const shown = new Set<string>();
  const track = (path: string, exact = false) => {
    for (const d of details) if (d.path === path || (!exact && d.path.startsWith(`${path}/`))) shown.add(`${d.path}:${d.message}`);
    return at(path, exact);
  };

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

  // The field groups are called as functions, not rendered as components: `track` must have marked
  // every problem shown beside a field before `unplaced` below is computed, in this same render.
  const errors: FieldErrors = { at, track };
  const fields = (
    <>
      {basicFields({ errors, name, setName, description, setDescription })}
      {variantFields({ errors, variants, setVariants, equalSplit, setEqualSplit, traffic, setTraffic })}
      {metricFields({ errors, metrics, setMetrics })}
      {runFields({
        errors,
        startDate,
        setStartDate,
        endDate,
        setEndDate,
        layerId,
        setLayerId,
        layerStart,
        setLayerStart,
        layerEnd,
        setLayerEnd,
        method,
        setMethod,
      })}
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
