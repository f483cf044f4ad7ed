import {
  estimateEffect,
  guardrailEffectTest,
  guardrailProportions,
  type GuardrailResult,
  type RatioSums,
  type Scale,
  type TestMethod,
} from '../../stats/index.js';
import type { GuardrailSetting } from '../definition/experiment.store.js';
import { metricDefinition, type MetricName } from '../../vocabulary/index.js';
import { isSessionProportion } from './results-analysis.js';

export interface GuardrailComparison {
  variantId: string;
  controlVariantId: string;
  status: 'passed' | 'breached' | 'inconclusive' | null;
  estimate: number | null;
  /** The lift the margin corresponds to: −margin (higher is better) or +margin (lower is better). */
  threshold: number;
  /** One-sided (1 − α) lower and upper bounds of the lift, on the guardrail's scale. */
  bounds: [number, number] | null;
  nonInferiorityPValue: number | null;
  breachPValue: number | null;
  reason: string | null;
}

export interface GuardrailView {
  metric: MetricName;
  direction: 'higher' | 'lower';
  margin: number;
  scale: Scale;
  method: TestMethod;
  /** The one-sided level of each of the two tests. */
  alpha: number;
  autoPause: boolean;
  comparisons: GuardrailComparison[];
}

/**
 * Every guardrail of the experiment, each treatment against control: two one-sided tests at the margin
 * (src/stats guardrails), on the guardrail's own scale, with the read's method and alpha. Proportions of
 * sessions use the score tests (fixed horizon); other metrics the delta method. Not corrected with the
 * target metrics: a guardrail answers "is it safe", not "did it win".
 */
export function evaluateGuardrails(
  guardrails: readonly GuardrailSetting[],
  arms: { controlId: string; treatmentIds: readonly string[] },
  totals: (metric: MetricName, variantId: string) => RatioSums,
  settings: { method: TestMethod; alpha: number; sequentialTuning: number },
): GuardrailView[] {
  return guardrails.map((g) => {
    const direction = g.direction ?? metricDefinition(g.metric).direction;
    const scale: Scale = g.scale ?? 'relative';
    const options = { scale, method: settings.method, alpha: settings.alpha, tuningParameter: settings.sequentialTuning };
    const spec = { direction, margin: g.margin };
    const control = totals(g.metric, arms.controlId);
    const comparisons = arms.treatmentIds.map((id): GuardrailComparison => {
      const variant = totals(g.metric, id);
      const r: GuardrailResult = isSessionProportion(g.metric)
        ? guardrailProportions(control.sumX, control.n, variant.sumX, variant.n, spec, options)
        : guardrailEffectTest(estimateEffect(control, variant), spec, options);
      return {
        variantId: id,
        controlVariantId: arms.controlId,
        status: r.status,
        estimate: r.estimate,
        threshold: r.threshold,
        bounds: r.bounds ? [r.bounds[0], r.bounds[1]] : null,
        nonInferiorityPValue: r.nonInferiorityPValue,
        breachPValue: r.breachPValue,
        reason: r.reason,
      };
    });
    return {
      metric: g.metric,
      direction,
      margin: g.margin,
      scale,
      method: settings.method,
      alpha: settings.alpha,
      autoPause: g.autoPause === true,
      comparisons,
    };
  });
}
