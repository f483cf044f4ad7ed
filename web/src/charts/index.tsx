import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

// Charts load on demand: the first visit does not download Observable Plot.
const figures = () => import('./figures');

function deferred<K extends keyof Awaited<ReturnType<typeof figures>>>(name: K) {
  type P = ComponentProps<Awaited<ReturnType<typeof figures>>[K]>;
  const Lazy = lazy(async () => ({ default: (await figures())[name] as unknown as ComponentType<P> }));
  return function Chart(props: P) {
    return (
      <Suspense fallback={<div className="plot plot-loading" aria-hidden="true" />}>
        <Lazy {...(props as P & object)} />
      </Suspense>
    );
  };
}

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
export type { ForestRow, LiftPoint } from './figures';
export type { HeatCell, OutcomeRow, PreferenceRow } from './figures';
