// "Predicted offline" beside the online result (issue 26 §3): what an offline evaluation said a
// model-backed variant would do, next to what the experiment measured for the same metric.
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTrackRecord, type Evaluation, type Page } from '../../api/evaluations';
import { getApiKey } from '../../api/key';
import type { Experiment } from '../../api/types';
import { metricShortLabel, percent } from '../../format';
import { candidateLabel, intervalText, liftText, trackOutcome } from '../evaluate/derive';

type ModelVariant = { id: string; name: string; modelId: string; version: number | null };

const modelVariants = (e: Experiment): ModelVariant[] =>
  e.variants.flatMap((v) =>
    v.model ? [{ id: v.id, name: v.name, modelId: v.model.modelId, version: v.model.pinnedVersion ?? v.model.version ?? null }] : [],
  );

/**
 * The newest finished evaluation of each model behind a variant, for experiments the track record
 * does not pair yet (not started, or no result so far): the prediction alone, no outcome.
 */
function useLatestEvaluations(variants: ModelVariant[], enabled: boolean) {
  const models = [...new Set(variants.map((v) => v.modelId))];
  const answers = useQueries({
    queries: models.map((modelId) => ({
      queryKey: ['evaluations', { limit: 20, modelId }],
      enabled,
      queryFn: async (): Promise<Page<Evaluation>> => {
        const key = getApiKey();
        const res = await fetch(`/api/nous/learn/evaluations?limit=20&modelId=${encodeURIComponent(modelId)}`, {
          headers: key ? { authorization: `Bearer ${key}` } : {},
        });
        if (!res.ok) return { items: [], nextCursor: null };
        return ((await res.json()) as { data: Page<Evaluation> }).data;
      },
    })),
  });
  const byModel = new Map(models.map((m, i) => [m, answers[i]?.data?.items ?? []]));
  return variants.flatMap((v) => {
    const found = (byModel.get(v.modelId) ?? []).find(
      (e) =>
        e.status === 'done' &&
        e.candidate.kind !== 'rankings' &&
        e.candidate.modelId === v.modelId &&
        (v.version === null || e.candidate.version === v.version),
    );
    return found ? [{ variant: v, evaluation: found }] : [];
  });
}

/** A small panel next to the results: one line per paired metric, predicted and observed relative lift with their intervals. */
export function PredictedOffline({ experiment }: { experiment: Experiment }) {
  const variants = modelVariants(experiment);
  const record = useTrackRecord();
  const pairs = (record.data?.pairs ?? []).filter((p) => p.experimentId === experiment.experimentId);
  const unpaired = useLatestEvaluations(variants, variants.length > 0 && record.isSuccess && pairs.length === 0);
  if (variants.length === 0 || (pairs.length === 0 && unpaired.length === 0)) return null;
  const name = (variantKey: string) => experiment.variants.find((v) => v.id === variantKey)?.name ?? variantKey;
  return (
    <section className="card" aria-labelledby="predicted-title" data-testid="predicted-offline">
      <h2 id="predicted-title">Predicted offline</h2>
      {pairs.length > 0 ? (
        <div className="table-wrap">
          <table className="table results-table stack-narrow">
            <caption className="sr-only">Offline prediction and online result per variant and metric</caption>
            <thead>
              <tr>
                <th scope="col">Variant · metric</th>
                <th scope="col">Predicted offline</th>
                <th scope="col">Observed online</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {pairs.map((p) => (
                <tr
                  key={`${p.evaluationId}-${p.variantKey}-${p.offlineMetric ?? p.metric}`}
                  data-testid={`predicted-${p.variantKey}-${p.offlineMetric ?? p.metric}`}
                >
                  <th scope="row">
                    {name(p.variantKey)} · {metricShortLabel(p.offlineMetric ?? p.metric)}
                    {p.offlineMetric && p.offlineMetric !== p.metric && <> → {metricShortLabel(p.metric)} online</>}
                  </th>
                  <td data-label="Predicted offline" data-field="predicted">
                    {liftText(p.predicted)} <span className="muted small">{intervalText(p.predicted)}</span>
                  </td>
                  <td data-label="Observed online" data-field="observed">
                    {p.observed ? (
                      <>
                        {liftText(p.observed)} <span className="muted small">{intervalText(p.observed)}</span>
                      </>
                    ) : (
                      'no result yet'
                    )}
                  </td>
                  <td data-label="Outcome" className={trackOutcome(p) === 'contradicted' ? 'verdict-worse' : undefined}>
                    {p.observed ? trackOutcome(p) : 'waiting'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <ul className="list">
          {unpaired.map(({ variant, evaluation }) => (
            <li key={variant.id} data-testid={`predicted-${variant.id}`}>
              <span className="strong">{variant.name}</span>
              {variant.name !== candidateLabel(evaluation) && <> ({candidateLabel(evaluation)})</>}:{' '}
              {evaluation.enoughCoverage === false
                ? `no offline estimate (coverage ${percent(evaluation.coverage, 1)})`
                : evaluation.metrics
                    .map((m) => `${metricShortLabel(m.metric)} ${liftText(m.relativeDifference)} ${intervalText(m.relativeDifference)}`)
                    .join('; ')}
              <div className="muted small">
                The online result appears beside it in the <Link to={`/evaluate?ids=${evaluation.evaluationId}`}>track record</Link> once
                the experiment has results.
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">
        Relative lifts against the control with 95 % intervals; the offline prediction was computed from logged feedback before the test.{' '}
        <Link to="/evaluate">Evaluate page</Link>
      </p>
    </section>
  );
}
