import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Evaluation } from '../../api/evaluations';
import { useAlias } from '../../api/production';
import { api, unwrap } from '../../api/client';
import { useCreateExperiment } from '../../api/queries';
import type { ExperimentCreate } from '../../api/types';
import { ConfirmDialog } from '../../components/dialog';
import type { MetricName } from '../experiments/new/draft';
import { onlineMetric } from './derive';

export interface OnlineCandidate {
  modelId: string;
  version: number;
  label: string;
  evaluation: Evaluation;
}

type Control = { modelId: string; version: number | null } | null;

/**
 * The experiment that tests a candidate online: the candidate's version pinned as a model-backed
 * variant against what the `production` alias serves now (its model, or the engine's order when it
 * has none or does not exist). Exported for the browser test's expectations to follow the same rule.
 */
export function onlineExperiment(c: OnlineCandidate, type: 'ab' | 'interleaving', control: Control, name: string): ExperimentCreate {
  const metrics = [...new Set(c.evaluation.metrics.map((m) => onlineMetric(m.metric)).filter((m): m is MetricName => m !== null))];
  const controlModel = control
    ? { model: { modelId: control.modelId, ...(control.version !== null ? { version: control.version } : {}) } }
    : {};
  return {
    name,
    description:
      `Online test of ${c.label}, evaluated offline first (evaluation ${c.evaluation.evaluationId}): ${c.evaluation.summary ?? ''}`.slice(
        0,
        1000,
      ),
    configuration: {
      type,
      variants: [
        { id: 'control', name: control ? `production (${control.modelId})` : 'Engine order', ...controlModel },
        { id: 'candidate', name: c.label.slice(0, 100), model: { modelId: c.modelId, version: c.version } },
      ],
      targetMetrics: metrics.length > 0 ? metrics : ['ctr'],
      ...(type === 'interleaving' ? { interleaving: { depth: c.evaluation.depth } } : {}),
    },
  };
}

/** Starts an experiment known only once it is created (the lifecycle hook takes its id up front). */
function useLifecycleByIdMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (experimentId: string) =>
      unwrap(api.POST('/api/nous/ab-testing/experiments/{experimentId}/start', { params: { path: { experimentId } } })),
    onSuccess: (e) => {
      client.setQueryData(['experiment', e.experimentId], e);
      void client.invalidateQueries({ queryKey: ['experiments'] });
    },
  });
}

/** Creates the experiment, starts it unless asked not to, and opens its page. */
export function TestOnlineDialog({ candidate, onCancel }: { candidate: OnlineCandidate | null; onCancel: () => void }) {
  const navigate = useNavigate();
  const create = useCreateExperiment();
  const production = useAlias('production');
  const [type, setType] = useState<'ab' | 'interleaving'>('ab');
  const [name, setName] = useState('');
  const [startNow, setStartNow] = useState(true);
  const start = useLifecycleByIdMutation();
  const control: Control = production.data?.modelId ? { modelId: production.data.modelId, version: production.data.version } : null;
  const sameAsControl = candidate !== null && control?.modelId === candidate.modelId && control.version === candidate.version;
  const defaultName = candidate ? `${candidate.label} vs production`.slice(0, 200) : '';
  const close = () => {
    create.reset();
    start.reset();
    setName('');
    onCancel();
  };
  return (
    <ConfirmDialog
      open={candidate !== null}
      title={candidate ? `Test ${candidate.label} online` : ''}
      confirmLabel="Create experiment"
      busy={create.isPending || start.isPending || production.isPending}
      error={create.error ?? start.error}
      onConfirm={() => {
        if (!candidate) return;
        create.mutate(onlineExperiment(candidate, type, control, name.trim() || defaultName), {
          onSuccess: (e) => {
            if (!startNow) return navigate(`/experiments/${e.experimentId}`);
            // Created but not started (start refused) still opens the experiment: its page says why and can start it.
            start.mutate(e.experimentId, { onSettled: () => navigate(`/experiments/${e.experimentId}`) });
          },
        });
      }}
      onCancel={close}
    >
      {candidate && (
        <div className="form-grid">
          <p data-testid="online-control">
            The candidate serves as a model-backed variant (v{candidate.version} of <code>{candidate.modelId}</code>, pinned) against{' '}
            {control ? (
              <>
                what <code>production</code> serves now: {control.version === null ? 'the active version' : `v${control.version}`} of{' '}
                <code>{control.modelId}</code>
              </>
            ) : (
              <>the search engine’s original order (no production alias points at a ranker)</>
            )}
            .
          </p>
          {sameAsControl && <p className="field-error">The candidate is what production serves already: the two arms would be the same.</p>}
          <fieldset>
            <legend>Kind of test</legend>
            <label className="inline">
              <input type="radio" name="online-type" checked={type === 'ab'} onChange={() => setType('ab')} /> A/B test
            </label>
            <label className="inline">
              <input type="radio" name="online-type" checked={type === 'interleaving'} onChange={() => setType('interleaving')} />{' '}
              Interleaving (fewer searches to a verdict; each search sees both rankers)
            </label>
          </fieldset>
          <label className="inline">
            <input type="checkbox" checked={startNow} onChange={(e) => setStartNow(e.target.checked)} /> Start it now (otherwise it waits on
            its page)
          </label>
          <label>
            Experiment name
            <input value={name} placeholder={defaultName} maxLength={200} onChange={(e) => setName(e.target.value)} />
          </label>
        </div>
      )}
    </ConfirmDialog>
  );
}
