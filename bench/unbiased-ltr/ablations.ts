/**
 * The investigation's ablations of the judgment pipeline (feedback-variants.ts), one switch at a
 * time and combined, run beside the methods on the PBM cells (run.ts). Choices are made on
 * the validation queries; the test figures are reported beside them.
 */
import type { Method } from './cell.js';
import { trainVariant, TODAY, type Variant } from './feedback-variants.js';

export const ABLATIONS: [string, Variant][] = [
  ['today (replica)', TODAY],
  ['minImpressions 1', { ...TODAY, minImpressions: 1 }],
  ['quantile grades', { ...TODAY, grades: 'quantile' }],
  ['linear gains', { ...TODAY, grades: 'linear' }],
  ['no behaviour', { ...TODAY, behaviour: 'none' }],
  ['crossfit behaviour', { ...TODAY, behaviour: 'crossfit' }],
  ['no behaviour, min 1', { ...TODAY, behaviour: 'none', minImpressions: 1 }],
  ['no behaviour, linear', { ...TODAY, behaviour: 'none', grades: 'linear' }],
  ['no behaviour, min 1, linear', { minImpressions: 1, behaviour: 'none', grades: 'linear' }],
  ['impressions only, min 1', { ...TODAY, behaviour: 'impressions', minImpressions: 1 }],
  ['impressions only', { ...TODAY, behaviour: 'impressions' }],
];

export function ablationMethods(): Record<string, Method> {
  return Object.fromEntries(
    ABLATIONS.map(([name, v]) => [name, (ctx) => ctx.evaluate(trainVariant(ctx.world, ctx.cols(), v, ctx.features))] as [string, Method]),
  );
}
