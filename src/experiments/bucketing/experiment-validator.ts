import type { AssignableExperiment } from './assign.js';
import { validateCondition, type ValidationIssue } from './condition-validator.js';
import { isPlainObject } from './conditions.js';

export type ExperimentValidation =
  { readonly ok: true; readonly experiment: AssignableExperiment } | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/**
 * Weights must sum to 1 within this tolerance. GrowthBook accepts sums in
 * [0.99, 1.01] and silently falls back to equal weights outside it; being
 * strict here means the stored weights are always the weights used, and no
 * sliver of traffic at the top of the range is left unassigned.
 */
export const WEIGHT_SUM_TOLERANCE = 1e-6;

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Checks the assignment-relevant fields of an experiment before it is stored,
 * so that `assign` never meets GrowthBook's silent fallbacks (clamped
 * coverage, equal weights) nor an unknown hash version. Paths are JSON
 * Pointers under `basePath`.
 */
export function validateExperiment(input: unknown, basePath = ''): ExperimentValidation {
  const errors: ValidationIssue[] = [];
  const report = (path: string, message: string): void => {
    errors.push({ path: `${basePath}${path}`, message });
  };
  if (!isPlainObject(input)) {
    return { ok: false, errors: [{ path: basePath, message: 'experiment must be an object' }] };
  }

  if (typeof input.seed !== 'string' || input.seed.length === 0) report('/seed', 'seed must be a non-empty string');
  if (input.hashVersion !== undefined && input.hashVersion !== 1 && input.hashVersion !== 2) {
    report('/hashVersion', 'hashVersion must be 1 or 2');
  }
  if (!isFiniteNumber(input.trafficAllocation) || input.trafficAllocation < 0 || input.trafficAllocation > 1) {
    report('/trafficAllocation', 'trafficAllocation must be a number between 0 and 1');
  }
  checkVariants(input.variants, report);
  if (input.layer !== undefined) checkLayer(input.layer, report);
  if (input.conditions !== undefined) {
    const result = validateCondition(input.conditions, `${basePath}/conditions`);
    if (!result.ok) errors.push(...result.errors);
  }
  return errors.length === 0 ? { ok: true, experiment: input as unknown as AssignableExperiment } : { ok: false, errors };
}

function checkVariants(variants: unknown, report: (path: string, message: string) => void): void {
  if (!Array.isArray(variants) || variants.length < 2) {
    report('/variants', 'variants must be an array of at least two variants');
    return;
  }
  const seen = new Set<string>();
  let total = 0;
  let weightsValid = true;
  variants.forEach((variant: unknown, i) => {
    if (!isPlainObject(variant)) {
      report(`/variants/${i}`, 'variant must be an object');
      return;
    }
    if (typeof variant.id !== 'string' || variant.id.length === 0) {
      report(`/variants/${i}/id`, 'variant id must be a non-empty string');
    } else if (seen.has(variant.id)) {
      report(`/variants/${i}/id`, `duplicate variant id "${variant.id}"`);
    } else {
      seen.add(variant.id);
    }
    if (!isFiniteNumber(variant.weight) || variant.weight < 0 || variant.weight > 1) {
      report(`/variants/${i}/weight`, 'weight must be a number between 0 and 1');
      weightsValid = false;
    } else {
      total += variant.weight;
    }
  });
  if (weightsValid && Math.abs(total - 1) > WEIGHT_SUM_TOLERANCE) report('/variants', `weights must sum to 1, got ${total}`);
}

function checkLayer(layer: unknown, report: (path: string, message: string) => void): void {
  if (!isPlainObject(layer)) {
    report('/layer', 'layer must be an object {id, range}');
    return;
  }
  if (typeof layer.id !== 'string' || layer.id.length === 0) report('/layer/id', 'layer id must be a non-empty string');
  const range = layer.range;
  if (!Array.isArray(range) || range.length !== 2 || !range.every(isFiniteNumber)) {
    report('/layer/range', 'layer range must be [start, end] with two numbers');
    return;
  }
  const [start, end] = range as [number, number];
  if (start < 0 || end > 1 || start >= end) report('/layer/range', 'layer range must satisfy 0 <= start < end <= 1');
}
