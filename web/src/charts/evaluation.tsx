import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

// The offline evaluation's charts load on demand, as index.tsx does for the others.
const figures = () => import('./evaluation-figures');

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

export const PredictedLiftPlot = deferred('PredictedLiftPlot');
export const PositionBiasChart = deferred('PositionBiasChart');
export const TrackRecordChart = deferred('TrackRecordChart');
export type { BiasPoint, PredictedRow, TrackPoint } from './evaluation-figures';
