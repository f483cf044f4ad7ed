import { useQueries } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Experiment, Results } from '../../api/types';
import { capitalised, days, integer, metricLabel, percent } from '../../format';

type Metric = Results['metrics'][number];

/**
 * Power reached so far, and what the planned MDE needs: the service's power calculator on this
 * experiment's data. A comparison that is already significant needs no more sessions, whatever its
 * power: power is the chance to detect an effect as small as the MDE, and the effect found is larger.
 * The table says so in words instead of printing "9 %, 38 days" next to a significant verdict.
 */
export function PowerTable({ experiment, results }: { experiment: Experiment; results: Results }) {
  const mde = experiment.configuration.analysis.mde;
  const plans = useQueries({
    queries: results.metrics.map((m) => ({
      queryKey: ['power', experiment.experimentId, m.metric, mde, results.computedAt],
      queryFn: () =>
        unwrap(
          api.POST('/api/nous/ab-testing/power', {
            body: { metric: m.metric, mde, alpha: results.alpha, experimentId: experiment.experimentId },
          }),
        ),
      retry: false,
    })),
  });
  const live = experiment.status === 'running' || experiment.status === 'paused';
  const names = new Map(experiment.variants.map((v) => [v.id, v.name]));
  const many = (m: Metric) => m.comparisons.length > 1;
  return (
    <div className="table-wrap">
      <table className="table stack-narrow" data-testid="power-table">
        <caption>
          Power: the chance to detect a true relative effect of {percent(mde, 1)} (the experiment's minimum detectable effect), planned for
          the analysis the results apply{plans[0]?.data?.bound ? ` (${plans[0].data.bound})` : ''}. It tells how long to run before a
          result; a metric already significant needs no more days.
        </caption>
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Power reached</th>
            <th scope="col">Sessions needed per variant</th>
            <th scope="col">Smallest arm so far</th>
            <th scope="col">Sessions still needed (as analysed)</th>
            {live && <th scope="col">Estimated time to go</th>}
          </tr>
        </thead>
        <tbody>
          {results.metrics.map((m, i) => {
            const plan = plans[i];
            const smallest = Math.min(...m.variants.map((v) => v.units));
            const needed = plan?.data?.sessionsPerVariant ?? null;
            const settled = m.comparisons.length > 0 && m.comparisons.every((c) => c.significant);
            // Sessions enter at dailySessions × allocation a day, split by weight; the smallest weight sets the pace.
            const minWeight = Math.min(...experiment.variants.map((v) => v.weight));
            const perDay = plan?.data?.dailySessions
              ? plan.data.dailySessions * experiment.configuration.trafficAllocation * minWeight
              : null;
            const toGo = needed !== null && perDay ? Math.max(0, needed - smallest) / perDay : null;
            const who = (variantId: string) => (many(m) ? `${names.get(variantId) ?? variantId}: ` : '');
            return (
              <tr key={m.metric} data-testid={`power-${m.metric}`} data-settled={settled ? 'significant' : 'open'}>
                <th scope="row">{capitalised(metricLabel(m.metric))}</th>
                <td data-field="power" data-label="Power reached">
                  {m.comparisons.length === 0
                    ? '—'
                    : m.comparisons.map((c) => (
                        <div key={c.variantId}>
                          {who(c.variantId)}
                          {c.significant ? (
                            <>
                              <strong>significant already</strong>
                              <div className="muted small wrap">
                                power {percent(c.power, 0)} is the chance to detect the {percent(mde, 1)} minimum effect you set; the effect
                                found is clear, so no more days are needed for this metric
                              </div>
                            </>
                          ) : (
                            percent(c.power, 0)
                          )}
                        </div>
                      ))}
                </td>
                <td data-field="sessionsPerVariant" data-label="Sessions needed per variant">
                  {plan?.error ? <span className="muted small wrap">{(plan.error as Error).message}</span> : integer(needed)}
                </td>
                <td data-label="Smallest arm so far">{integer(smallest)}</td>
                <td data-field="unitsStillNeeded" data-label="Sessions still needed">
                  {m.comparisons
                    .map((c) => `${who(c.variantId)}${c.significant ? 'none' : integer(c.unitsStillNeeded?.additionalUnits ?? null)}`)
                    .join(', ') || '—'}
                </td>
                {live && (
                  <td data-field="daysToGo" data-label="Estimated time to go">
                    {settled ? 'none: significant already' : toGo === null ? '—' : toGo === 0 ? 'reached' : days(toGo)}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
