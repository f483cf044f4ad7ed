import { lazy, Suspense, type ComponentType } from 'react';

// Charts load on demand: the first visit does not download Observable Plot (the offline
// evaluation's charts are a chunk of their own, loaded by the Evaluate page only; so is the model
// page's training curve).
const figures = () => import('./figures');
const evaluationFigures = () => import('./evaluation-figures');
const trainingFigures = () => import('./training-figures');

function deferredFrom<M extends Record<string, unknown>>(load: () => Promise<M>) {
  return function deferred<K extends keyof M>(name: K) {
    type P = M[K] extends ComponentType<infer Q> ? Q : never;
    const Lazy = lazy(async () => ({ default: (await load())[name] as unknown as ComponentType<P> }));
    return function Chart(props: P) {
      return (
        <Suspense fallback={<div className="plot plot-loading" aria-hidden="true" />}>
          <Lazy {...(props as P & object)} />
        </Suspense>
      );
    };
  };
}

const deferred = deferredFrom(figures);
const deferredEvaluation = deferredFrom(evaluationFigures);
const deferredTraining = deferredFrom(trainingFigures);

export const ForestPlot = deferred('ForestPlot');
export const LiftSeriesChart = deferred('LiftSeriesChart');
export const VersionsChart = deferred('VersionsChart');
export const ExaminationChart = deferred('ExaminationChart');
export const NdcgChart = deferred('NdcgChart');
export const FeatureImportanceChart = deferred('FeatureImportanceChart');
export const SearchesCtrChart = deferred('SearchesCtrChart');
export const PositionHistogram = deferred('PositionHistogram');
export const CtrRelevanceChart = deferred('CtrRelevanceChart');
export const OutcomeBarsChart = deferred('OutcomeBarsChart');
export const PreferenceChart = deferred('PreferenceChart');
export const PreferenceHeatmap = deferred('PreferenceHeatmap');
export const PredictedLiftPlot = deferredEvaluation('PredictedLiftPlot');
export const PositionBiasChart = deferredEvaluation('PositionBiasChart');
export const TrackRecordChart = deferredEvaluation('TrackRecordChart');
export const TrainingBiasChart = deferredTraining('TrainingBiasChart');
export type { ForestRow, LiftPoint } from './figures';
export type { BiasPoint, PredictedRow, TrackPoint } from './evaluation-figures';
export type { HeatCell, OutcomeRow, PreferenceRow } from './figures';
export type { CurveRow } from './training-figures';
