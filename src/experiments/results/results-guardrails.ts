import {
  estimateEffect,
  type EffectEstimate,
  guardrailEffectTest,
  guardrailProportions,
  type GuardrailResult,
  type RatioSums,
  type Scale,
  type TestMethod,
} from '../../stats/index.js';
import type { GuardrailSetting } from '../model/experiment.store.js';
import {
  isQuantileMetric,
  metricDirection,
  type AnalysisMetricName,
  type MetricName,
  type QuantileMetricName,
} from '../../vocabulary/index.js';
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
  metric: AnalysisMetricName;
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
 * sessions use the score tests (fixed horizon); quantile metrics the difference of quantiles with its
 * cluster-robust standard error; other metrics the delta method. Not corrected with the
 * target metrics: a guardrail answers "is it safe", not "did it win".
 */
export function evaluateGuardrails(
  guardrails: readonly GuardrailSetting[],
  arms: { controlId: string; treatmentIds: readonly string[] },
  totals: (metric: MetricName, variantId: string) => RatioSums,
  settings: { method: TestMethod; alpha: number; sequentialTuning: number },
  /** Quantile metrics: the difference of quantiles between control and this treatment (results-quantiles.ts). */
  quantileEffect: (metric: QuantileMetricName, controlId: string, variantId: string) => EffectEstimate = () => {
    throw new Error('quantile guardrails need the quantile sums');
  },
): GuardrailView[] {
  return guardrails.map((g) => {
    const direction = g.direction ?? metricDirection(g.metric);
    const scale: Scale = g.scale ?? 'relative';
    const options = { scale, method: settings.method, alpha: settings.alpha, tuningParameter: settings.sequentialTuning };
    const spec = { direction, margin: g.margin };
    const metric = g.metric;
    const comparisons = arms.treatmentIds.map((id): GuardrailComparison => {
      let r: GuardrailResult;
      if (isQuantileMetric(metric)) r = guardrailEffectTest(quantileEffect(metric, arms.controlId, id), spec, options);
      else {
        const control = totals(metric, arms.controlId);
        const variant = totals(metric, id);
        r = isSessionProportion(metric)
          ? guardrailProportions(control.sumX, control.n, variant.sumX, variant.n, spec, options)
          : guardrailEffectTest(estimateEffect(control, variant), spec, options);
      }
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
