export { fnv1a32, hashUnit, type HashVersion } from './hash.js';
export { chooseVariation, getBucketRanges, inLayer, inRange, type BucketRange, type LayerSlice } from './buckets.js';
export {
  evaluateCondition,
  type AttributeCondition,
  type AttributeValue,
  type Attributes,
  type Condition,
  type OperatorCondition,
} from './conditions.js';
export { MAX_CONDITION_DEPTH, validateCondition, type ConditionValidation, type ValidationIssue } from './condition-validator.js';
export { validateExperiment, WEIGHT_SUM_TOLERANCE, type ExperimentValidation } from './experiment-validator.js';
export { assign, DEFAULT_HASH_VERSION, type AssignableExperiment, type Assignment, type AssignmentReason, type Variant } from './assign.js';
