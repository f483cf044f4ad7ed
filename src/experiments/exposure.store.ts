/** The first assignment of a unit in a phase: the start of its data in the experiment. */
export interface ExposureRecord {
  experimentId: string;
  phase: number;
  unitId: string;
  variantId: string;
  exposedAt: number;
  /** Pre-exposure covariates sent with assign (attributes.covariates), for CUPED. */
  covariates: Record<string, number> | null;
}

export interface ExposureStore {
  /** Inserts the rows that do not exist yet, in one statement; existing exposures are kept as they were. */
  recordExposures(rows: ExposureRecord[]): Promise<void>;
  getExposure(experimentId: string, phase: number, unitId: string): Promise<ExposureRecord | undefined>;
  countExposures(experimentId: string, phase: number): Promise<Record<string, number>>;
}
