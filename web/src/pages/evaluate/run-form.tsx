import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useCreateEvaluation, type Estimator, type EvalMetric, type EvalWindow } from '../../api/evaluations';
import { ErrorState } from '../../components/states';
import { metricLabel, metricShortLabel } from '../../format';
import { CandidatePicker, type CandidateChoice } from './candidate-picker';
import { DEFAULT_METRICS, ESTIMATORS, OFFERED_METRICS } from './derive';

export const WINDOWS = [7, 14, 28, 90] as const;

export interface RunSettings {
  days: number;
  metrics: EvalMetric[];
  estimator: Estimator;
  depth: string;
}

export const defaultSettings = (): RunSettings => ({ days: 28, metrics: [...DEFAULT_METRICS], estimator: 'snips', depth: '10' });

/**
 * The window ending at the next whole minute (so feedback of the last seconds is inside): minutes
 * are enough, and a stable key lets the position-bias query be reused.
 */
export function windowOf(days: number, now = Date.now()): EvalWindow {
  const to = Math.ceil((now + 1) / 60_000) * 60_000;
  return { from: new Date(to - days * 86_400_000).toISOString(), to: new Date(to).toISOString() };
}

/**
 * Candidates, window, metrics and (folded) estimator and depth; Run posts one evaluation per
 * candidate and hands their ids to the page, which polls those still running.
 */
export function RunForm({
  settings,
  onSettings,
  range,
  onRun,
}: {
  settings: RunSettings;
  onSettings: (s: RunSettings) => void;
  range: EvalWindow;
  onRun: (ids: string[]) => void;
}) {
  const id = useId();
  const create = useCreateEvaluation();
  const [chosen, setChosen] = useState<CandidateChoice[]>([]);
  const [failures, setFailures] = useState<{ label: string; error: unknown }[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<RunSettings>) => onSettings({ ...settings, ...patch });

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (chosen.length === 0 || settings.metrics.length === 0) return;
    setBusy(true);
    setFailures([]);
    const ids: string[] = [];
    const failed: { label: string; error: unknown }[] = [];
    // One request per candidate, one after the other: a small window answers each in well under a second.
    for (const c of chosen) {
      try {
        const answer = await create.mutateAsync({
          ...(c.name ? { name: c.name } : {}),
          candidate: c.input,
          from: range.from,
          to: range.to,
          metrics: settings.metrics,
          estimator: settings.estimator,
          depth: Number(settings.depth),
        });
        ids.push(answer.evaluationId);
      } catch (error) {
        failed.push({ label: c.label, error });
      }
    }
    setFailures(failed);
    setBusy(false);
    if (ids.length > 0) onRun(ids);
  };

  const noMetric = settings.metrics.length === 0;
  return (
    <form className="form" onSubmit={(e) => void run(e)} noValidate aria-label="Evaluate candidates">
      <CandidatePicker chosen={chosen} onChange={setChosen} />
      <fieldset>
        <legend>Window and metrics</legend>
        <div className="field">
          <label htmlFor={`${id}-window`}>Logged feedback from</label>
          <select id={`${id}-window`} value={settings.days} onChange={(e) => set({ days: Number(e.target.value) })}>
            {WINDOWS.map((d) => (
              <option key={d} value={d}>
                the last {d} days
              </option>
            ))}
          </select>
        </div>
        <div className="checks" role="group" aria-label="Metrics">
          {OFFERED_METRICS.map((m) => (
            <label key={m} className="inline" title={m}>
              <input
                type="checkbox"
                checked={settings.metrics.includes(m)}
                onChange={(e) => set({ metrics: e.target.checked ? [...settings.metrics, m] : settings.metrics.filter((x) => x !== m) })}
              />{' '}
              <span>
                {metricShortLabel(m)} <span className="muted small">{metricLabel(m)}</span>
              </span>
            </label>
          ))}
        </div>
        {noMetric && (
          <p className="field-error" role="alert">
            <span aria-hidden="true">⚠ </span>Choose at least one metric.
          </p>
        )}
        <details>
          <summary>Advanced: estimator and depth</summary>
          <div className="form-row">
            <div className="field">
              <label htmlFor={`${id}-estimator`}>Estimator</label>
              <select id={`${id}-estimator`} value={settings.estimator} onChange={(e) => set({ estimator: e.target.value as Estimator })}>
                {ESTIMATORS.map((e) => (
                  <option key={e.value} value={e.value}>
                    {e.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-depth`}>Depth (top results evaluated, 1–50)</label>
              <input
                id={`${id}-depth`}
                type="number"
                min={1}
                max={50}
                value={settings.depth}
                onChange={(e) => set({ depth: e.target.value })}
              />
            </div>
          </div>
        </details>
      </fieldset>
      {failures.map((f) => (
        <ErrorState
          key={f.label}
          error={f.error}
          title={`${f.label} was not evaluated${f.error instanceof ApiError && f.error.status === 400 ? ': the request was refused' : ''}`}
        />
      ))}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || chosen.length === 0 || noMetric}>
          {busy ? 'Evaluating…' : chosen.length > 1 ? `Run ${chosen.length} evaluations` : 'Run'}
        </button>
        {chosen.length === 0 && <span className="muted small">Add a candidate to run.</span>}
      </div>
    </form>
  );
}
