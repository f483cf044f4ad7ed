import type { ExperimentRecord } from '../model/experiment.store.js';

export interface AssignInput {
  unitId: string;
  attributes?: Record<string, unknown> & { covariates?: Record<string, number> };
}

/** A unit's assignment to one experiment, as ranking reads it. */
export interface UnitAssignment {
  inExperiment: boolean;
  variantId: string | null;
  phase: number;
  reason: string;
}

/**
 * What ranking needs from the assignment sub-domain (its AssignmentService, wired by the module entry):
 * the running ranking experiment a unit falls in, and a unit's assignment to one interleaving experiment.
 */
export interface Assignments {
  rankingAssignment(input: AssignInput): Promise<{ record: ExperimentRecord; variantId: string; phase: number } | null>;
  assignOne(experimentId: string, input: AssignInput): Promise<UnitAssignment>;
}
