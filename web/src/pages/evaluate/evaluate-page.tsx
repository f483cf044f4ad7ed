import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTitle } from '../../components/title';
import { EvaluationHistory } from './history';
import { PositionBiasSection } from './position-bias';
import { EvaluationResults } from './results';
import { RunForm, defaultSettings, windowOf, type RunSettings } from './run-form';
import { TrackRecordSection } from './track-record';

/**
 * Know before you test: what a candidate ranker would do to the metrics, predicted from logged
 * feedback, with the position bias it corrects for and the record of past predictions. The
 * evaluations on screen live in the address (?ids=…), so a result can be linked and reloaded.
 */
export function EvaluatePage() {
  useTitle('Evaluate');
  const [params, setParams] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean);
  const [settings, setSettings] = useState<RunSettings>(defaultSettings);
  // The window ends when the page opened (or the window was changed): one key for the position-bias query.
  const range = useMemo(() => windowOf(settings.days), [settings.days]);
  const show = (next: string[]) => setParams(next.length ? { ids: next.join(',') } : {}, { replace: false });
  return (
    <>
      <div className="page-head">
        <h1>Evaluate</h1>
      </div>
      <p>
        Predict what a ranker would do to clicks, MRR and abandonment before any user sees it: the logged feedback of the window is
        reweighted by the position bias measured below, and each answer comes with a 95 % interval and the share of the candidate’s results
        that the logs have evidence for.
      </p>
      <section className="card" aria-labelledby="run-title">
        <h2 id="run-title">Run an evaluation</h2>
        <RunForm settings={settings} onSettings={setSettings} range={range} onRun={show} />
      </section>
      {ids.length > 0 && <EvaluationResults ids={ids} onClear={() => show([])} />}
      <PositionBiasSection range={range} />
      <TrackRecordSection />
      <EvaluationHistory shown={ids} onShow={(id) => show([...ids, id])} />
    </>
  );
}
