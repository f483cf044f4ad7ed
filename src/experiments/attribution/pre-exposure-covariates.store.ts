export interface NewExposure {
  experimentId: string;
  phase: number;
  unitId: string;
  exposedAt: number;
}

/**
 * CUPED covariates from a unit's own feedback before its exposure: for each unit, every
 * session-level metric of the catalogue over its feedback received before exposedAt, written
 * unless the unit already has one for that metric (values sent with assign win). Units without
 * earlier feedback get none. Returns how many covariate rows it offered to write.
 */
export interface PreExposureCovariateStore {
  compute(units: readonly NewExposure[]): Promise<number>;
}
